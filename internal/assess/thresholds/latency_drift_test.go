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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// The measured path's p90 drift is judged on its slope's interval against the limit; a run
// without a drift is inconclusive, never met.
func TestALatencyDriftIsJudgedOnItsSlopesInterval(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxLatencyDriftPerHour: d("2ms")}
	drift := func(mid, low, high string) *perfv1alpha1.LatencyDrift {
		return &perfv1alpha1.LatencyDrift{Path: "dapr", PerHour: *d(mid), Low: *d(low), High: *d(high), Windows: 58, Span: *d("28m30s")}
	}
	for _, tc := range []struct {
		name  string
		drift *perfv1alpha1.LatencyDrift
		want  Outcome
		says  string
	}{
		{"flat", drift("200us", "-1.1ms", "1.5ms"), Met, "dapr p90 drift 200µs an hour (95% interval -1.1ms..1.5ms, 58 windows over 28m30s) (limit <= 2ms/h): met"},
		{"slowing beyond doubt", drift("9ms", "6ms", "12ms"), Violated, "dapr p90 drift 9ms an hour (95% interval 6ms..12ms, 58 windows over 28m30s) (limit <= 2ms/h): VIOLATED"},
		{"the limit inside the interval", drift("2ms", "-1ms", "5ms"), Inconclusive, "inconclusive"},
		{"no drift: a short load", nil, Inconclusive, "p90 drift no drift fitted (it needs a measured load of 10m0s or more, with 10 windows of 20 successes or more inside its phases) (limit <= 2ms/h): inconclusive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := result("1ms")
			r.LatencyDrift = tc.drift
			v, ok := Evaluate(gate, r)
			if !ok || v.Outcome != tc.want || !strings.Contains(v.Message(), tc.says) {
				t.Errorf("verdict %s, want %s saying %q: %s", v.Outcome, tc.want, tc.says, v.Message())
			}
		})
	}
}
