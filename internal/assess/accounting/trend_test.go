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

package accounting

import (
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A sidecar growing 60 MiB an hour over a 20-minute load reads as that slope, from the
// windows inside the measured load only (a warm-up's, here far off the line, do not count),
// for each sidecar and no other role; a load under MinTrendSpan gets no trend.
func TestAMemoryTrendIsTheSidecarsSlopeOverTheMeasuredLoad(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	phases := []Phase{{Variant: "baseline", Start: start, End: start.Add(10 * time.Minute)},
		{Variant: "dapr", Start: start.Add(10 * time.Minute), End: start.Add(20 * time.Minute)}}
	var windows []perfv1alpha1.UsageWindow
	at := func(role string, end time.Time, mib float64) {
		windows = append(windows, perfv1alpha1.UsageWindow{Role: role, End: metav1.NewTime(end), Seconds: 15, Memory: int64(mib * (1 << 20))})
	}
	for s := -60; s <= 1200; s += 15 {
		end := start.Add(time.Duration(s) * time.Second)
		grown := 40 + 60*end.Sub(start).Hours()
		if s < 0 {
			grown = 500 // the warm-up: outside the measured load
		}
		at("serverSidecar", end, grown)
		at("clientSidecar", end, 30)
		at("serverApp", end, 10+600*end.Sub(start).Hours())
	}
	got := MemoryTrends(windows, phases, 2*time.Second, 1)
	if len(got) != 2 {
		t.Fatalf("%d trends, want the two sidecars': %+v", len(got), got)
	}
	client, server := got[0], got[1]
	slope, _ := strconv.ParseFloat(server.MiBPerHour, 64)
	if server.Role != "serverSidecar" || slope < 59.99 || slope > 60.01 || server.Low != server.MiBPerHour || server.Windows < 75 {
		t.Errorf("server sidecar %+v: want 60 MiB/h exactly, from the measured windows only", server)
	}
	// The first window inside the load ends 15 s in: 40 + 60 × 15/3600 MiB.
	if server.StartMiB != "40.25" || server.Span.Duration != 1170*time.Second {
		t.Errorf("the line runs from %s MiB over %v, want 40.25 MiB over 19m30s (15 s in to 15 s before the end, trimmed)", server.StartMiB, server.Span.Duration)
	}
	if client.Role != "clientSidecar" || client.MiBPerHour != "0.00" {
		t.Errorf("client sidecar %+v: want a flat 0", client)
	}
	if short := MemoryTrends(windows, phases[1:], 2*time.Second, 1); short != nil {
		t.Errorf("a 10-minute load got trends %+v: under MinTrendSpan", short)
	}
}

// Each variant's server sidecar has a trend of its own, and the client sidecars of several
// load-tester pods, whose windows hold their sum, are fitted per pod.
func TestEachVariantsSidecarHasATrendAndATestersSumIsPerPod(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	phases := []Phase{{Variant: "dapr", Start: start, End: start.Add(20 * time.Minute)}}
	var windows []perfv1alpha1.UsageWindow
	for s := 15; s < 1200; s += 15 {
		end := metav1.NewTime(start.Add(time.Duration(s) * time.Second))
		hours := float64(s) / 3600
		windows = append(windows,
			perfv1alpha1.UsageWindow{Role: "serverSidecar@lean", End: end, Seconds: 15, Memory: int64((40 + 12*hours) * (1 << 20))},
			perfv1alpha1.UsageWindow{Role: "clientSidecar", End: end, Seconds: 15, Memory: int64(3 * (30 + 6*hours) * (1 << 20))})
	}
	got := MemoryTrends(windows, phases, 2*time.Second, 3)
	if len(got) != 2 || got[0].Role != "clientSidecar" || got[0].MiBPerHour != "6.00" || got[1].Role != "serverSidecar@lean" || got[1].MiBPerHour != "12.00" {
		t.Errorf("trends %+v: want the client sidecars' 6 MiB/h a pod and the variant's 12", got)
	}
}
