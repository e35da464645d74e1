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
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/gomega"
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

// dashboardQueries are the PromQL expressions of config/grafana's dashboard, its variables
// bound as a user selecting namespace ns would.
func dashboardQueries(ns string) []string {
	b, err := os.ReadFile(filepath.Join(repoRoot, "config", "grafana", "daprbench-dashboard.json"))
	Expect(err).NotTo(HaveOccurred())
	var dash struct {
		Panels []struct{ Targets []struct{ Expr string } }
	}
	Expect(json.Unmarshal(b, &dash)).To(Succeed())
	bind := strings.NewReplacer(`"$namespace"`, `"`+ns+`"`, `"$schedule"`, `".*"`, "$__range", "1h")
	var out []string
	for _, p := range dash.Panels {
		for _, t := range p.Targets {
			out = append(out, bind.Replace(t.Expr))
		}
	}
	return out
}

// expectScraped waits until Prometheus has scraped the finished run's series and checks them
// against its status, then that every dashboard query returns data.
func expectScraped(ns, name string, requestedQPS int32, addedP90 time.Duration) {
	sel := `{namespace="` + ns + `", perfrun="` + name + `"}`
	EventuallyWithOffset(1, func() []promSample { return promQuery("daprbench_perfrun_requested_qps" + sel) }, 90*time.Second, 2*time.Second).
		Should(HaveLen(1), "Prometheus never scraped the run's series")
	ExpectWithOffset(1, promQuery("daprbench_perfrun_requested_qps" + sel)[0].float()).To(Equal(float64(requestedQPS)))
	added := promQuery(`daprbench_perfrun_latency_seconds{namespace="` + ns + `", perfrun="` + name + `", variant="added", quantile="0.9"}`)
	ExpectWithOffset(1, added).To(HaveLen(1))
	ExpectWithOffset(1, added[0].float()).To(BeNumerically("~", addedP90.Seconds(), 1e-9))
	for _, q := range dashboardQueries(ns) {
		// a counter's increase needs two scrapes of it
		EventuallyWithOffset(1, func() []promSample { return promQuery(q) }, 30*time.Second, 2*time.Second).
			ShouldNot(BeEmpty(), "the dashboard query %s returns no data", q)
	}
}
