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

package controllers

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/exporter"
	"github.com/daprbench/daprbench/internal/testenv"
)

func scrape() string {
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("Prometheus results", func() {
	It("exports a finished run's result on the metrics endpoint and drops it on delete", func() {
		ns := newNamespace()
		run := createRun(ns, "prom", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "prom-target")
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{
			summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))

		series := func(metric, labels string) string {
			return metric + `{namespace="` + ns + `",perfrun="prom",` + labels
		}
		Eventually(scrape).Should(And(
			ContainSubstring(series("daprbench_perfrun_latency_seconds", `quantile="0.9",schedule="",variant="measured"} 0.0012`)),
			ContainSubstring(series("daprbench_perfrun_latency_seconds", `quantile="0.9",schedule="",variant="added"} 0.0004`)),
			ContainSubstring(series("daprbench_perfrun_latency_seconds", `quantile="0.99",schedule="",variant="baseline"} 0.0009`)),
			ContainSubstring(series("daprbench_perfrun_latency_seconds", `quantile="0.9",schedule="",variant="service"} 0.0012`)),
			ContainSubstring(series("daprbench_perfrun_latency_seconds", `quantile="0.99",schedule="",variant="sendlag"} 0`)),
			ContainSubstring(series("daprbench_perfrun_saturated", `schedule=""} 0`)),
			ContainSubstring(`daprbench_perfrun_node_calibration_units_per_cpu_second{namespace="`+ns+`",node="`+testNode+`",perfrun="prom",schedule=""} 12500`),
			ContainSubstring(series("daprbench_perfrun_actual_qps", `schedule=""} 998.4`)),
			ContainSubstring(series("daprbench_perfrun_errors", `schedule=""} 0`)),
			ContainSubstring(series("daprbench_perfrun_outcome", `phase="Succeeded",reason="Succeeded",schedule=""} 1`)),
			MatchRegexp(`daprbench_perfrun_outcomes_total\{namespace="`+ns+`",phase="Succeeded",reason="Succeeded"\} 1`),
		))

		Expect(k8sClient.Delete(suiteCtx, run)).To(Succeed())
		Eventually(scrape).ShouldNot(ContainSubstring(`perfrun="prom"`))
		Expect(scrape()).To(ContainSubstring(`daprbench_perfrun_outcomes_total{namespace="`+ns+`"`), "the outcome count outlives the run")
	})

	It("has a Grafana dashboard that plots only metrics the manager exports", func() {
		b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "grafana", "daprbench-dashboard.json"))
		Expect(err).NotTo(HaveOccurred())
		var dash struct {
			Panels []struct {
				Title   string
				Targets []struct{ Expr string }
			}
		}
		Expect(json.Unmarshal(b, &dash)).To(Succeed())
		// Every metric the manager can export, series or not (Gather lists only those with series).
		exported := map[string]bool{}
		descs := make(chan *prometheus.Desc, 100)
		for _, c := range exporter.Collectors() {
			c.Describe(descs)
		}
		close(descs)
		fqName := regexp.MustCompile(`fqName: "([^"]+)"`)
		for d := range descs {
			exported[fqName.FindStringSubmatch(d.String())[1]] = true
		}
		names := regexp.MustCompile(`daprbench_[a-z0-9_]+`)
		Expect(dash.Panels).NotTo(BeEmpty())
		for _, p := range dash.Panels {
			Expect(p.Targets).NotTo(BeEmpty(), p.Title)
			for _, t := range p.Targets {
				for _, m := range names.FindAllString(t.Expr, -1) {
					Expect(exported).To(HaveKey(m), "panel %q plots %s, which the manager does not export", p.Title, m)
				}
			}
		}
	})
})
