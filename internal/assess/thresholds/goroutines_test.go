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

package thresholds

import (
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A daprd's goroutine growth is judged on its slope's interval against the limit, each
// daprd on its own and its open files not at all; a run without the trend is
// inconclusive, never met.
func TestADaprdsGoroutineGrowthIsJudgedOnItsSlopesInterval(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxSidecarGoroutineGrowthPerHour: ptr.To[int32](60)}
	trend := func(sidecar, gauge, mid, low, high string) perfv1alpha1.DaprdTrend {
		return perfv1alpha1.DaprdTrend{Sidecar: sidecar, Gauge: gauge, PerHour: mid, Low: low, High: high, Readings: 60, Span: *d("30m")}
	}
	for _, tc := range []struct {
		name   string
		trends []perfv1alpha1.DaprdTrend
		want   Outcome
		says   string
	}{
		{"flat, its open files growing", []perfv1alpha1.DaprdTrend{trend("serverSidecar", "goroutines", "2.00", "-10.00", "14.00"),
			trend("serverSidecar", "openFDs", "900.00", "800.00", "1000.00"), trend("clientSidecar", "goroutines", "0.00", "-1.00", "1.00")}, Met,
			"serverSidecar goroutine growth 2.00 an hour (95% interval -10.00..14.00, 60 readings over 30m0s) (limit <= 60/h): met"},
		{"a leak beyond doubt", []perfv1alpha1.DaprdTrend{trend("serverSidecar", "goroutines", "2.00", "-1.00", "5.00"),
			trend("clientSidecar", "goroutines", "240.00", "200.00", "280.00")}, Violated,
			"clientSidecar goroutine growth 240.00 an hour (95% interval 200.00..280.00, 60 readings over 30m0s) (limit <= 60/h): VIOLATED"},
		{"the limit inside the interval", []perfv1alpha1.DaprdTrend{trend("serverSidecar", "goroutines", "50.00", "30.00", "70.00"),
			trend("clientSidecar", "goroutines", "0.00", "-1.00", "1.00")}, Inconclusive, "inconclusive"},
		{"the target's daprd not read", []perfv1alpha1.DaprdTrend{trend("clientSidecar", "goroutines", "0.00", "-1.00", "1.00")}, Inconclusive,
			"serverSidecar goroutine growth no trend fitted (its daprd not read often enough through the load) (limit <= 60/h): inconclusive"},
		{"no trend: open files alone", []perfv1alpha1.DaprdTrend{trend("serverSidecar", "openFDs", "0.00", "0.00", "0.00")}, Inconclusive,
			"sidecar goroutine growth no trend fitted (it needs a measured load of 10m0s or more, daprd's gauges read by the load tester) (limit <= 60/h): inconclusive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := result("1ms")
			r.DaprdTrends = tc.trends
			v, ok := Evaluate(gate, r)
			if !ok || v.Outcome != tc.want || !strings.Contains(v.Message(), tc.says) {
				t.Errorf("verdict %s, want %s saying %q: %s", v.Outcome, tc.want, tc.says, v.Message())
			}
		})
	}
}
