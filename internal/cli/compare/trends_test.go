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

package compare

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Two soaks' slopes compare by the interval of their change, from both intervals'
// half-widths: a sidecar that grows 11 MiB/h faster beyond both intervals reads "more an
// hour", goroutines inside each other's noise no difference, a drift that stopped "less an
// hour"; a drift of another path is not compared.
func TestCompareJudgesTwoSoaksSlopes(t *testing.T) {
	ms := func(v float64) metav1.Duration {
		return metav1.Duration{Duration: time.Duration(v * float64(time.Millisecond))}
	}
	soak := func(mem, memLow, memHigh, gor, gorLow, gorHigh string, drift, driftLow, driftHigh float64, path string) *perfv1alpha1.Result {
		return &perfv1alpha1.Result{
			MemoryTrends: []perfv1alpha1.MemoryTrend{{Role: "serverSidecar", MiBPerHour: mem, Low: memLow, High: memHigh}},
			DaprdTrends:  []perfv1alpha1.DaprdTrend{{Sidecar: "clientSidecar", Gauge: "goroutines", PerHour: gor, Low: gorLow, High: gorHigh}},
			LatencyDrift: &perfv1alpha1.LatencyDrift{Path: path, PerHour: ms(drift), Low: ms(driftLow), High: ms(driftHigh)},
		}
	}
	a := soak("1.00", "-1.00", "3.00", "-18.82", "-67.13", "29.48", 9, 6, 12, "dapr")
	b := soak("12.00", "10.00", "14.00", "-7.71", "-21.77", "6.36", 0.2, -1.1, 1.5, "dapr")
	diffs := Compare(a, b, nil, RerunSpread{})
	for _, want := range []Difference{
		{Figure: "serverSidecar memory growth", A: "1.00 MiB/h", B: "12.00 MiB/h", Change: "+11.00 MiB/h", Interval: "[+8.17 MiB/h, +13.83 MiB/h]", Verdict: VerdictMoreAnHour},
		{Figure: "clientSidecar goroutines growth", A: "-18.82/h", B: "-7.71/h", Change: "+11.11/h", Interval: "[-39.20/h, +61.42/h]", Verdict: VerdictNoDifference},
		{Figure: "dapr p90 drift", A: "9ms/h", B: "200µs/h", Change: "-8.8ms/h", Interval: "[-12.07ms/h, -5.53ms/h]", Verdict: VerdictLessAnHour},
	} {
		if got := findFigure(diffs, want.Figure); got != want {
			t.Errorf("%s: %+v, want %+v", want.Figure, got, want)
		}
	}
	b.LatencyDrift.Path = "direct"
	if d := findFigure(Compare(a, b, nil, RerunSpread{}), "dapr p90 drift"); d.Figure != "" {
		t.Errorf("drifts of two paths compared: %+v", d)
	}
}
