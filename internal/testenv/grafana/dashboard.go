/*
Copyright 2026 The daprbench Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package grafana reads a Grafana dashboard's JSON and expands its PromQL the way Grafana
// does when every variable is on "All", so tests query (or match) exactly what a user's
// Grafana would send to Prometheus, not a hand-bound copy of it.
package grafana

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

// Dashboard is the part of a dashboard's JSON the tests read.
type Dashboard struct {
	Templating struct {
		List []Variable `json:"list"`
	} `json:"templating"`
	Panels []Panel `json:"panels"`
}

// Variable is a template variable.
type Variable struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Query      any    `json:"query"` // a string for the query variables here
	IncludeAll bool   `json:"includeAll"`
	Multi      bool   `json:"multi"`
	// AllValue is the "Custom all value": what "All" expands to instead of every option.
	AllValue string `json:"allValue"`
}

// Panel is a panel and its queries.
type Panel struct {
	ID      int      `json:"id"`
	Title   string   `json:"title"`
	Targets []Target `json:"targets"`
}

// Target is one PromQL query of a panel.
type Target struct {
	RefID string `json:"refId"`
	Expr  string `json:"expr"`
}

// Load reads a dashboard's JSON file.
func Load(path string) (*Dashboard, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d := &Dashboard{}
	if err := json.Unmarshal(b, d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// Variable is the template variable called name, or nil.
func (d *Dashboard) Variable(name string) *Variable {
	for i := range d.Templating.List {
		if d.Templating.List[i].Name == name {
			return &d.Templating.List[i]
		}
	}
	return nil
}

var labelValues = regexp.MustCompile(`^\s*label_values\((.*),\s*(\w+)\s*\)\s*$`)

// LabelValues splits a query variable's label_values(selector, label) query, which Grafana
// answers with Prometheus's /api/v1/label/<label>/values?match[]=<selector>.
func (v *Variable) LabelValues() (selector, label string, err error) {
	q, _ := v.Query.(string)
	m := labelValues.FindStringSubmatch(q)
	if m == nil {
		return "", "", fmt.Errorf("variable %s: query %q is not label_values(selector, label)", v.Name, q)
	}
	return m[1], m[2], nil
}
