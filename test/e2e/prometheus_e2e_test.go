//go:build e2e

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

package e2e

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/gomega"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/testenv/grafana"
)

// promSample is one element of a Prometheus instant-query vector.
type promSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

func (s promSample) float() float64 {
	v, _ := strconv.ParseFloat(s.Value[1].(string), 64)
	return v
}

// promQuery runs an instant query against the Prometheus on the local cluster
// (hack/local-cluster/prometheus.sh) through the API server's service proxy.
func promQuery(q string) []promSample {
	raw := run(kubectlBin(), "get", "--raw",
		"/api/v1/namespaces/daprbench-monitoring/services/prometheus:9090/proxy/api/v1/query?query="+url.QueryEscape(q))
	var resp struct {
		Status string
		Data   struct{ Result []promSample }
	}
	ExpectWithOffset(1, json.Unmarshal(raw, &resp)).To(Succeed(), string(raw))
	ExpectWithOffset(1, resp.Status).To(Equal("success"), string(raw))
	return resp.Data.Result
}

// promLabelValues answers a dashboard variable's label_values(selector, label) query as
// Grafana does: Prometheus's /api/v1/label/<label>/values?match[]=<selector>.
func promLabelValues(selector, label string) []string {
	raw := run(kubectlBin(), "get", "--raw", "/api/v1/namespaces/daprbench-monitoring/services/prometheus:9090/proxy/api/v1/label/"+
		label+"/values?match[]="+url.QueryEscape(selector))
	var resp struct {
		Status string
		Data   []string
	}
	ExpectWithOffset(1, json.Unmarshal(raw, &resp)).To(Succeed(), string(raw))
	ExpectWithOffset(1, resp.Status).To(Equal("success"), string(raw))
	return resp.Data
}

// dashboardQuery is one query of the dashboard as Grafana sends it.
type dashboardQuery struct{ panel, expr string }

// dashboardQueries are the PromQL expressions of config/grafana's dashboard with every
// variable on All, expanded as Grafana expands them (internal/testenv/grafana): the
// variables' options are what their own queries return from this Prometheus, plus
// extraSchedules, as if those schedules existed — a schedule must not hide the runs
// outside schedules.
func dashboardQueries(extraSchedules ...string) []dashboardQuery {
	d, err := grafana.Load(filepath.Join(repoRoot, "config", "grafana", "daprbench-dashboard.json"))
	Expect(err).NotTo(HaveOccurred())
	options := map[string][]string{}
	for _, name := range []string{"namespace", "schedule"} { // schedule's query uses $namespace
		v := d.Variable(name)
		Expect(v).NotTo(BeNil(), name)
		selector, label, err := v.LabelValues()
		Expect(err).NotTo(HaveOccurred())
		selector, err = d.ExpandAll(selector, options, nil)
		Expect(err).NotTo(HaveOccurred())
		options[name] = promLabelValues(selector, label)
	}
	options["schedule"] = append(options["schedule"], extraSchedules...)
	var out []dashboardQuery
	for _, p := range d.Panels {
		for _, t := range p.Targets {
			q, err := d.ExpandAll(t.Expr, options, map[string]string{"__range": "1h"})
			Expect(err).NotTo(HaveOccurred(), p.Title)
			out = append(out, dashboardQuery{p.Title, q})
		}
	}
	return out
}

// expectScraped waits until Prometheus has scraped the finished run's series and checks them
// against its status, then that every dashboard query of runs shows the run, with no
// schedule and with one: the run is outside any schedule, which Prometheus stores as no
// schedule label. (The schedule-history panels have nothing of it to show, nor a scenario's
// own panels of a run of another scenario; a PubSub run is checked on its own panels: its
// short phases leave the usage panels' metrics-server windows to chance.)
func expectScraped(ns, name string, scenario perfv1alpha1.Scenario, requestedQPS int32, addedP90 time.Duration) {
	sel := `{namespace="` + ns + `", perfrun="` + name + `"}`
	EventuallyWithOffset(1, func() []promSample { return promQuery("daprbench_perfrun_requested_qps" + sel) }, 90*time.Second, 2*time.Second).
		Should(HaveLen(1), "Prometheus never scraped the run's series")
	ExpectWithOffset(1, promQuery("daprbench_perfrun_requested_qps" + sel)[0].float()).To(Equal(float64(requestedQPS)))
	added := promQuery(`daprbench_perfrun_latency_seconds{namespace="` + ns + `", perfrun="` + name + `", variant="added", quantile="0.9"}`)
	ExpectWithOffset(1, added).To(HaveLen(1))
	ExpectWithOffset(1, added[0].float()).To(BeNumerically("~", addedP90.Seconds(), 1e-9))
	ExpectWithOffset(1, added[0].Metric).NotTo(HaveKey("schedule"))
	for _, schedules := range [][]string{nil, {"nightly"}} {
		for _, q := range dashboardQueries(schedules...) {
			own := panelScenario(q.expr)
			if strings.Contains(q.expr, "daprbench_perfschedule_") || (own != "" && own != scenario) || (own == "" && scenario == perfv1alpha1.ScenarioPubSub) {
				continue
			}
			// The fault panels show fault runs only, and these runs have none: their series
			// are checked against the exporter's pinned fault exposition (config/grafana).
			if strings.Contains(q.expr, "daprbench_perfrun_fault_") {
				continue
			}
			// a counter's increase needs two scrapes of it
			EventuallyWithOffset(1, func() []promSample { return promQuery(q.expr) }, 30*time.Second, 2*time.Second).
				Should(Or(ContainElement(HaveField("Metric", And(HaveKeyWithValue("namespace", ns), HaveKeyWithValue("perfrun", name)))),
					And(Not(BeEmpty()), Not(ContainElement(HaveField("Metric", HaveKey("perfrun")))))),
					"panel %q, schedules %v: %s does not show run %s/%s", q.panel, schedules, q.expr, ns, name)
		}
	}
}

// panelScenario is the scenario whose own figures a dashboard query shows (PubSub's delivery
// and messages, Workflow's completion, activity dispatch and instances, Scheduler's trigger
// lateness and triggers), "" for a query of every run's figures.
func panelScenario(expr string) perfv1alpha1.Scenario {
	switch {
	case strings.Contains(expr, `variant="delivery`) || strings.Contains(expr, "daprbench_perfrun_messages"):
		return perfv1alpha1.ScenarioPubSub
	case strings.Contains(expr, `variant="completion"`) || strings.Contains(expr, `variant="activity_dispatch"`) || strings.Contains(expr, "daprbench_perfrun_workflows"):
		return perfv1alpha1.ScenarioWorkflow
	case strings.Contains(expr, `variant="trigger_lateness"`) || strings.Contains(expr, "daprbench_perfrun_triggers"):
		return perfv1alpha1.ScenarioScheduler
	}
	return ""
}
