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

package grafana

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This module has no PromQL parser (github.com/prometheus/prometheus would pull half of
// Kubernetes in at other versions), and the dashboard's queries need only their series
// selectors: metric{label op "value", ...}. These are read by hand and matched with
// Prometheus's own semantics.

// Selector is a series selector of a query: a metric name (empty for {…} alone) and its
// label matchers.
type Selector struct {
	Metric   string
	Matchers []Matcher
}

// Matcher is one label matcher: Label Op "Value", Value unquoted.
type Matcher struct {
	Label, Op, Value string
}

// Matches reports whether a series' labels pass every matcher; a label the series lacks
// reads as "", as in Prometheus (Prometheus drops empty labels on ingestion: a run outside
// a schedule has no schedule label).
func (s Selector) Matches(labels map[string]string) (bool, error) {
	for _, m := range s.Matchers {
		ok, err := m.Matches(labels[m.Label])
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// Matches applies the matcher to a label's value with Prometheus's semantics: a regex is
// anchored at both ends and its dot matches a newline (model/labels: ^(?s:re)$).
func (m Matcher) Matches(value string) (bool, error) {
	switch m.Op {
	case "=":
		return value == m.Value, nil
	case "!=":
		return value != m.Value, nil
	case "=~", "!~":
		re, err := regexp.Compile("^(?s:" + m.Value + ")$")
		if err != nil {
			return false, fmt.Errorf("%s%s%q: %w", m.Label, m.Op, m.Value, err)
		}
		return re.MatchString(value) == (m.Op == "=~"), nil
	}
	return false, fmt.Errorf("matcher op %q", m.Op)
}

var (
	metricBefore = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)\s*$`)
	matcherHead  = regexp.MustCompile(`^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*`)
	quoted       = regexp.MustCompile(`^"(?:[^"\\]|\\.)*"`)
)

// Selectors are the series selectors of a PromQL expression, in order.
func Selectors(expr string) ([]Selector, error) {
	var out []Selector
	for i := 0; i < len(expr); i++ {
		if expr[i] != '{' {
			continue
		}
		s := Selector{}
		if m := metricBefore.FindStringSubmatch(expr[:i]); m != nil {
			s.Metric = m[1]
		}
		rest := expr[i+1:]
		for {
			rest = strings.TrimLeft(rest, " \t\n,")
			if strings.HasPrefix(rest, "}") {
				break
			}
			h := matcherHead.FindStringSubmatch(rest)
			if h == nil {
				return nil, fmt.Errorf("%q: no label matcher at %q", expr, rest)
			}
			rest = rest[len(h[0]):]
			lit := quoted.FindString(rest)
			if lit == "" {
				return nil, fmt.Errorf("%q: no double-quoted value at %q", expr, rest)
			}
			v, err := strconv.Unquote(lit) // PromQL's double-quoted strings escape as Go's
			if err != nil {
				return nil, fmt.Errorf("%q: %s: %w", expr, lit, err)
			}
			s.Matchers = append(s.Matchers, Matcher{h[1], h[2], v})
			rest = rest[len(lit):]
		}
		i = len(expr) - len(rest)
		out = append(out, s)
	}
	return out, nil
}

// Matcher is the selector's matcher of label, if any.
func (s Selector) Matcher(label string) (Matcher, bool) {
	for _, m := range s.Matchers {
		if m.Label == label {
			return m, true
		}
	}
	return Matcher{}, false
}
