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

package dashboard

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daprbench/daprbench/internal/testenv"
	"github.com/daprbench/daprbench/internal/testenv/grafana"
)

// What "All" must show, whatever schedules exist: the series of a run outside a schedule
// (Prometheus stores no schedule label for it: every CI run), of a scheduled run, and the
// history of a schedule. The option lists are what the variables' queries would return.
var (
	adhocRun     = map[string]string{"namespace": "perf", "perfrun": "ci-1234"}
	scheduledRun = map[string]string{"namespace": "perf", "perfrun": "nightly-29921749", "schedule": "nightly"}
	scheduleSeen = map[string]string{"namespace": "perf", "schedule": "nightly"}

	cases = []struct {
		name      string
		schedules []string
		runs      []map[string]string // of the daprbench_perfrun_* metrics
		histories []map[string]string // of the daprbench_perfschedule_* metrics
	}{
		{"no schedule", nil, []map[string]string{adhocRun}, nil},
		{"one schedule", []string{"nightly"}, []map[string]string{adhocRun, scheduledRun}, []map[string]string{scheduleSeen}},
		{"several schedules", []string{"nightly", "weekly.v2"}, []map[string]string{adhocRun, scheduledRun}, []map[string]string{scheduleSeen}},
	}
)

// filtered says whether a metric's series carry a namespace and a schedule to filter on.
func filtered(metric string) bool {
	return metric != "daprbench_perfrun_outcomes_total" && // by namespace, phase and reason only
		(strings.HasPrefix(metric, "daprbench_perfrun_") || strings.HasPrefix(metric, "daprbench_perfschedule_"))
}

func load(t *testing.T) *grafana.Dashboard {
	t.Helper()
	d, err := grafana.Load(filepath.Join(testenv.RepoRoot(), "config", "grafana", "daprbench-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Every panel, all variables on All, shows a run outside a schedule beside scheduled ones,
// with or without schedules: before, All listed the schedules' names, and the first
// schedule hid every unscheduled run.
func TestAllShowsRunsOutsideSchedules(t *testing.T) {
	d := load(t)
	for _, c := range cases {
		options := map[string][]string{"namespace": {"perf", "ci"}, "schedule": c.schedules}
		for _, p := range d.Panels {
			for _, tg := range p.Targets {
				expr, err := d.ExpandAll(tg.Expr, options, map[string]string{"__range": "30d"})
				if err != nil {
					t.Fatalf("panel %q: %v", p.Title, err)
				}
				sels, err := grafana.Selectors(expr)
				if err != nil {
					t.Fatalf("panel %q: %v", p.Title, err)
				}
				for _, s := range sels {
					want := c.runs
					if strings.HasPrefix(s.Metric, "daprbench_perfschedule_") {
						want = c.histories
					}
					if !filtered(s.Metric) {
						want = nil
					}
					for _, series := range want {
						if ok, err := matches(s, series); err != nil || !ok {
							t.Errorf("%s: panel %q, %s: %s does not show %v (%v)", c.name, p.Title, tg.RefID, expr, series, err)
						}
					}
				}
			}
		}
	}
}

// matches applies the selector's namespace and schedule matchers: the ones the variables
// drive (the others pick a figure, not a run).
func matches(s grafana.Selector, series map[string]string) (bool, error) {
	var ms []grafana.Matcher
	for _, label := range []string{"namespace", "schedule"} {
		if m, ok := s.Matcher(label); ok {
			ms = append(ms, m)
		}
	}
	return grafana.Selector{Metric: s.Metric, Matchers: ms}.Matches(series)
}

// Every selector of a run's or a schedule's series filters on both variables, with a regex
// matcher (=~: All and a multi-value choice expand to regexes), so the variables act on
// every panel alike.
func TestEveryPanelFiltersOnTheVariables(t *testing.T) {
	d := load(t)
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			sels, err := grafana.Selectors(tg.Expr)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range sels {
				labels := []string{"namespace", "schedule"}
				if !filtered(s.Metric) {
					labels = []string{"namespace"}
				}
				for _, label := range labels {
					want := grafana.Matcher{Label: label, Op: "=~", Value: fmt.Sprintf("$%s", label)}
					if m, _ := s.Matcher(label); m != want {
						t.Errorf("panel %q: %s selects %s without %s=~\"$%s\"", p.Title, tg.Expr, s.Metric, label, label)
					}
				}
			}
		}
	}
}

// A schedule's history has panels of its own: one trend line per schedule and figure.
func TestSchedulesHaveTrendPanels(t *testing.T) {
	trends := 0
	for _, p := range load(t).Panels {
		for _, tg := range p.Targets {
			if strings.Contains(tg.Expr, "daprbench_perfschedule_") {
				trends++
			}
		}
	}
	if trends == 0 {
		t.Error("no panel plots a schedule's history (daprbench_perfschedule_*)")
	}
}

// The variables' own queries are label_values(...) over series the manager exports, and
// list a schedule known only from its history (its runs pruned).
func TestVariablesListFromExportedSeries(t *testing.T) {
	d := load(t)
	for _, name := range []string{"namespace", "schedule"} {
		v := d.Variable(name)
		if v == nil || !v.IncludeAll || !v.Multi {
			t.Fatalf("variable %s: %+v, want a multi-value variable with All", name, v)
		}
		sel, label, err := v.LabelValues()
		if err != nil || label != name {
			t.Fatalf("variable %s: %q %q %v", name, sel, label, err)
		}
		if !strings.Contains(sel, "daprbench_perfschedule_") {
			t.Errorf("variable %s lists from %s: a schedule whose runs were pruned is missing from it", name, sel)
		}
	}
}
