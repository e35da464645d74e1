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

package report

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

func attributed(avg, p50, p90, p99, lo, hi int) *perfv1alpha1.AttributedLatency {
	return &perfv1alpha1.AttributedLatency{
		Latency: &perfv1alpha1.LatencySummary{Avg: us(avg), P50: us(p50), P90: us(p90), P99: us(p99)},
		Interval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low: perfv1alpha1.LatencySummary{Avg: us(avg - 50), P90: us(lo)}, High: perfv1alpha1.LatencySummary{Avg: us(avg + 50), P90: us(hi)}},
	}
}

// meanOnly is the interaction as the split makes it: a mean and its interval, no percentile.
func meanOnly(avg, lo, hi int) *perfv1alpha1.AttributedLatency {
	return &perfv1alpha1.AttributedLatency{
		Latency: &perfv1alpha1.LatencySummary{Avg: us(avg)},
		Interval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low: perfv1alpha1.LatencySummary{Avg: us(lo)}, High: perfv1alpha1.LatencySummary{Avg: us(hi)}},
	}
}

func TestTheReportSplitsTheAddedLatency(t *testing.T) {
	res := &perfv1alpha1.Result{Latency: &perfv1alpha1.LatencySummary{P90: us(1500)}, Attribution: &perfv1alpha1.Attribution{
		Paths: []perfv1alpha1.AttributedPath{
			{Path: perfv1alpha1.PathDirect, Latency: &perfv1alpha1.LatencySummary{P90: us(600)}},
			{Path: perfv1alpha1.PathBothSidecars, Latency: &perfv1alpha1.LatencySummary{P90: us(1500)}},
		},
		ClientSidecar: attributed(280, 250, 300, 400, 250, 350),
		ServerSidecar: attributed(470, 450, 500, 700, 430, 570),
		Interaction:   meanOnly(90, -20, 200),
	}}
	run := clitest.WithResult(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "split", Namespace: "ns"}}, res)
	text := runTables(run)
	for _, want := range []string{"where the added latency goes", "path direct", "path bothSidecars", "client sidecar", "300µs [250µs, 350µs]",
		"interaction", "90µs [-20µs, 200µs]", "Only the means add up to the added latency"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	html := attributionSection(res)
	if len(html.Tables) != 1 || len(html.Tables[0].Rows) != 5 {
		t.Fatalf("HTML section %+v, want one table of 2 paths and 3 parts", html)
	}
	interaction := html.Tables[0].Rows[4]
	if got := interaction[1]; got.Text != "90µs" || !strings.Contains(got.Detail, "-20µs") {
		t.Errorf("interaction mean cell %+v", got)
	}
	if got := interaction[3]; got.Text != "-" && got.Text != "" {
		t.Errorf("interaction p90 cell %+v: no interaction is claimed at a percentile", got)
	}
	if s := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, &perfv1alpha1.Result{})); strings.Contains(s, "where the added latency goes") {
		t.Errorf("a standard run's report shows a split:\n%s", s)
	}
}
