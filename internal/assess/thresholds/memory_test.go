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

	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A sidecar's memory growth is judged on its slope's interval against the limit, each
// sidecar on its own; a run too short for a trend is inconclusive, never met.
func TestASidecarsMemoryGrowthIsJudgedOnItsSlopesInterval(t *testing.T) {
	limit := resource.MustParse("10Mi")
	gate := &perfv1alpha1.Thresholds{MaxSidecarMemoryGrowthPerHour: &limit}
	trend := func(role, mid, low, high string) perfv1alpha1.MemoryTrend {
		return perfv1alpha1.MemoryTrend{Role: role, MiBPerHour: mid, Low: low, High: high, Windows: 60, Span: *d("30m")}
	}
	for _, tc := range []struct {
		name   string
		trends []perfv1alpha1.MemoryTrend
		want   Outcome
		says   string
	}{
		{"flat", []perfv1alpha1.MemoryTrend{trend("serverSidecar", "0.50", "-2.00", "3.00"), trend("clientSidecar", "1.00", "0.10", "1.90")}, Met,
			"serverSidecar memory growth 0.50 MiB/h (95% interval -2.00..3.00, 60 windows over 30m0s) (limit <= 10Mi/h): met"},
		{"a leak beyond doubt", []perfv1alpha1.MemoryTrend{trend("serverSidecar", "24.00", "18.00", "30.00")}, Violated,
			"serverSidecar memory growth 24.00 MiB/h (95% interval 18.00..30.00, 60 windows over 30m0s) (limit <= 10Mi/h): VIOLATED"},
		{"the limit inside the interval", []perfv1alpha1.MemoryTrend{trend("serverSidecar", "8.00", "4.00", "12.00")}, Inconclusive, "inconclusive"},
		{"no trend: the run too short", nil, Inconclusive,
			"sidecar memory growth no trend fitted (it needs a measured load of 10m0s or more, read by the metrics API) (limit <= 10Mi/h): inconclusive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := result("1ms")
			r.MemoryTrends = tc.trends
			v, ok := Evaluate(gate, r)
			if !ok || v.Outcome != tc.want || !strings.Contains(v.Message(), tc.says) {
				t.Errorf("verdict %s, want %s saying %q: %s", v.Outcome, tc.want, tc.says, v.Message())
			}
		})
	}
}
