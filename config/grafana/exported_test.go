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
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/daprbench/daprbench/internal/testenv"
	"github.com/daprbench/daprbench/internal/testenv/grafana"
)

// exportedSeries are the series of the exporter's pinned expositions
// (internal/operator/exporter/testdata: a run with every general figure, a PubSub, a
// Workflow and a Scheduler run with their own, and a fault run's), each as its labels and
// __name__.
func exportedSeries(t *testing.T) []map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testenv.RepoRoot(), "internal", "operator", "exporter", "testdata", "*.prom"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pinned exposition of the exporter (%v)", err)
	}
	var out []map[string]string
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		p := expfmt.NewTextParser(model.UTF8Validation)
		mfs, err := p.TextToMetricFamilies(r)
		_ = r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for name, mf := range mfs {
			for _, m := range mf.GetMetric() {
				series := map[string]string{"__name__": name}
				for _, l := range m.GetLabel() {
					series[l.GetName()] = l.GetValue()
				}
				out = append(out, series)
			}
		}
	}
	return out
}

// A word alternation such as "failed|unfinished": each of its words is a value a panel means
// to show.
var alternation = regexp.MustCompile(`^[A-Za-z0-9_.]+(\|[A-Za-z0-9_.]+)*$`)

// Every panel plots series the manager exports: its metric, and each value its matchers ask
// for (a variant, an outcome, each quantile of an alternation), is in the exporter's pinned
// expositions. A misspelt variant or outcome selects nothing, and no other test would say so.
// A schedule's series carry a run's figures under daprbench_perfschedule_ (schedules.go).
func TestEveryPanelPlotsSeriesTheExporterExports(t *testing.T) {
	exported := exportedSeries(t)
	shown := func(s grafana.Selector) bool {
		for _, series := range exported {
			if ok, err := s.Matches(series); err != nil {
				t.Fatal(err)
			} else if ok {
				return true
			}
		}
		return false
	}
	for _, p := range load(t).Panels {
		for _, tg := range p.Targets {
			sels, err := grafana.Selectors(tg.Expr)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range sels {
				if s.Metric == "daprbench_perfrun_outcomes_total" {
					continue // a count of finished runs, not a figure of one: controllers' exporter test checks it
				}
				// The variables' matchers pick runs, not figures: TestAllShowsRunsOutsideSchedules checks them.
				name := strings.Replace(s.Metric, "daprbench_perfschedule_", "daprbench_perfrun_", 1)
				figure := grafana.Selector{Metric: name, Matchers: []grafana.Matcher{{Label: "__name__", Op: "=", Value: name}}}
				for _, m := range s.Matchers {
					if m.Label != "namespace" && m.Label != "schedule" {
						figure.Matchers = append(figure.Matchers, m)
					}
				}
				if !shown(figure) {
					t.Errorf("panel %q: %s selects no series the exporter exports", p.Title, tg.Expr)
					continue
				}
				for i, m := range figure.Matchers {
					if m.Op != "=~" || !alternation.MatchString(m.Value) {
						continue
					}
					for _, word := range strings.Split(m.Value, "|") {
						one := grafana.Selector{Metric: figure.Metric, Matchers: append([]grafana.Matcher{}, figure.Matchers...)}
						one.Matchers[i].Value = word
						if !shown(one) {
							t.Errorf("panel %q: %s asks for %s %q, which the exporter does not export", p.Title, tg.Expr, m.Label, word)
						}
					}
				}
			}
		}
	}
}
