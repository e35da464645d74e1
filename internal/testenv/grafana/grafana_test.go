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
	"testing"
)

// The expansion follows Grafana's rules for "All" (interpolate.go): one value alone,
// several as (a|b), none as (), escaped; a custom all value verbatim.
func TestExpandAll(t *testing.T) {
	d := &Dashboard{}
	d.Templating.List = []Variable{
		{Name: "schedule", IncludeAll: true, Multi: true},
		{Name: "custom", IncludeAll: true, Multi: true, AllValue: ".*"},
		{Name: "single"},
	}
	for _, c := range []struct {
		expr    string
		options []string
		want    string
	}{
		{`x{schedule=~"$schedule"}`, nil, `x{schedule=~"()"}`},
		{`x{schedule=~"$schedule"}`, []string{"nightly"}, `x{schedule=~"nightly"}`},
		{`x{schedule=~"${schedule}"}`, []string{"nightly", "weekly"}, `x{schedule=~"(nightly|weekly)"}`},
		{`x{schedule=~"[[schedule]]"}`, []string{"a.b", `c\d`}, `x{schedule=~"(a\\.b|c\\\\d)"}`},
		{`x{schedule=~"$custom"}[$__range]`, []string{"nightly"}, `x{schedule=~".*"}[1h]`},
	} {
		got, err := d.ExpandAll(c.expr, map[string][]string{"schedule": c.options, "custom": c.options}, map[string]string{"__range": "1h"})
		if err != nil || got != c.want {
			t.Errorf("ExpandAll(%s, %q) = %s, %v; want %s", c.expr, c.options, got, err, c.want)
		}
	}
	for _, expr := range []string{`x{a=~"$single"}`, `x{a=~"$missing"}`, `x{a=~"${schedule:csv}"}`} {
		if got, err := d.ExpandAll(expr, nil, nil); err == nil {
			t.Errorf("ExpandAll(%s) = %s, want an error", expr, got)
		}
	}
}

// Selectors reads the matchers, and they match as Prometheus's do: anchored regexes, an
// absent label read as "".
func TestSelectorsMatchAsPrometheus(t *testing.T) {
	sels, err := Selectors(`sum by (phase) (increase(m_total{namespace=~"(a|b)", schedule=~"nightly"}[1h])) / on() {__name__="n", q!~"0\\.9"}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(sels) != 2 || sels[0].Metric != "m_total" || sels[1].Metric != "" || len(sels[0].Matchers) != 2 || sels[1].Matchers[1] != (Matcher{"q", "!~", `0\.9`}) {
		t.Fatalf("%+v", sels)
	}
	for _, c := range []struct {
		m     Matcher
		value string
		want  bool
	}{
		{Matcher{"s", "=~", "nightly"}, "nightly-2", false}, // anchored: not a substring search
		{Matcher{"s", "=~", "nightly"}, "", false},
		{Matcher{"s", "=~", "()"}, "", true},
		{Matcher{"s", "=~", ".*"}, "", true},
		{Matcher{"s", "=~", ".*"}, "a\nb", true}, // (?s)
		{Matcher{"s", "=~", ".+"}, "", false},
		{Matcher{"s", "!~", `0\.9`}, "0x9", true},
		{Matcher{"s", "=", ""}, "", true},
		{Matcher{"s", "!=", ""}, "", false},
	} {
		if got, err := c.m.Matches(c.value); err != nil || got != c.want {
			t.Errorf("%+v on %q = %v, %v; want %v", c.m, c.value, got, err, c.want)
		}
	}
	if ok, _ := sels[0].Matches(map[string]string{"namespace": "a"}); ok {
		t.Error(`a series without a schedule label matched schedule=~"nightly"`)
	}
}

func TestLabelValues(t *testing.T) {
	v := Variable{Name: "schedule", Query: `label_values(m{namespace=~"$namespace"}, schedule)`}
	sel, label, err := v.LabelValues()
	if err != nil || sel != `m{namespace=~"$namespace"}` || label != "schedule" {
		t.Errorf("%q %q %v", sel, label, err)
	}
}
