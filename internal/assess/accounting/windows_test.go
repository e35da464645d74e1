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
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestFoldCountsEachWindowOnce(t *testing.T) {
	var agg perfv1alpha1.RoleUsage
	steps := []struct {
		w       perfv1alpha1.UsageWindow
		counted bool
	}{
		{perfv1alpha1.UsageWindow{CPU: 400, Memory: 20 << 20, End: metav1.NewTime(t0)}, true},
		{perfv1alpha1.UsageWindow{CPU: 999, Memory: 99 << 20, End: metav1.NewTime(t0)}, false}, // the same window again
		{perfv1alpha1.UsageWindow{CPU: 500, Memory: 24 << 20, End: metav1.NewTime(t0.Add(15 * time.Second))}, true},
		{perfv1alpha1.UsageWindow{CPU: 600, Memory: 22 << 20, End: metav1.NewTime(t0.Add(30 * time.Second))}, true},
		{perfv1alpha1.UsageWindow{CPU: 1, Memory: 1, End: metav1.NewTime(t0.Add(10 * time.Second))}, false}, // older than the last
		{perfv1alpha1.UsageWindow{}, false}, // no window at all
	}
	for i, s := range steps {
		if got := Fold(&agg, s.w); got != s.counted {
			t.Errorf("step %d: counted = %v, want %v", i, got, s.counted)
		}
	}
	if agg.Samples != 3 || agg.CPUAvg.MilliValue() != 500 || agg.CPUMax.MilliValue() != 600 {
		t.Errorf("cpu avg %v max %v samples %d", agg.CPUAvg, agg.CPUMax, agg.Samples)
	}
	if agg.MemoryAvg.Value() != 22<<20 || agg.MemoryMax.String() != "24Mi" {
		t.Errorf("memory avg %v max %v", agg.MemoryAvg, agg.MemoryMax)
	}
	if !agg.FirstSample.Time.Equal(t0) || !agg.LastSample.Time.Equal(t0.Add(30*time.Second)) {
		t.Errorf("first %v last %v", agg.FirstSample, agg.LastSample)
	}
}

// window is a recorded window of role ending at t0+endS, lasting 10 s.
func window(role string, endS int, cpu int64) perfv1alpha1.UsageWindow {
	return perfv1alpha1.UsageWindow{Role: role, End: metav1.NewTime(t0.Add(time.Duration(endS) * time.Second)), Seconds: 10, CPU: cpu, Memory: 40 << 20}
}

func TestAttributeCountsOnlyWindowsInsideAPhase(t *testing.T) {
	// Warm-up 0-5 s, baseline 5-35 s, Dapr 35-65 s; edges of 2 s are dropped.
	phases := []Phase{{"b", t0.Add(5 * time.Second), t0.Add(35 * time.Second)}, {"d", t0.Add(35 * time.Second), t0.Add(65 * time.Second)}}
	windows := []perfv1alpha1.UsageWindow{
		window("serverSidecar", 5, 20),   // warm-up
		window("serverSidecar", 18, 10),  // baseline, whole (8-18)
		window("serverSidecar", 28, 12),  // baseline, whole (18-28)
		window("serverSidecar", 36, 300), // straddles baseline and Dapr (26-36)
		window("serverSidecar", 46, 480), // Dapr (36-46): starts 1 s into it, inside the 2 s edge
		window("serverSidecar", 56, 500), // Dapr, whole (46-56)
		window("serverSidecar", 63, 520), // Dapr, whole (53-63), exactly at the trimmed end
		window("serverSidecar", 66, 900), // past the end
		window(roles.ControlPlanePrefix+"dapr-sentry", 56, 5),
		window("baselineApp", 26, 30),
	}
	got := Attribute(windows, phases, 2*time.Second)
	d, b := got["d"], got["b"]
	if d == nil || b == nil {
		t.Fatalf("attributed = %v", got)
	}
	if d.ServerSidecar.Samples != 2 || d.ServerSidecar.CPUAvg.MilliValue() != 510 || d.ServerSidecar.CPUMax.MilliValue() != 520 {
		t.Errorf("dapr sidecar = %+v, want the 500m and 520m windows only", d.ServerSidecar)
	}
	if b.ServerSidecar.Samples != 2 || b.ServerSidecar.CPUAvg.MilliValue() != 11 {
		t.Errorf("baseline-phase sidecar = %+v, want the idle 10m and 12m windows", b.ServerSidecar)
	}
	if len(d.ControlPlane) != 1 || d.ControlPlane[0].Component != "dapr-sentry" || d.ControlPlane[0].Usage.Samples != 1 {
		t.Errorf("control plane = %+v", d.ControlPlane)
	}
	if b.BaselineApp == nil || d.BaselineApp != nil {
		t.Errorf("baseline app: in b %v, in d %v", b.BaselineApp, d.BaselineApp)
	}
	if Attribute(windows, nil, 2*time.Second)["d"] != nil {
		t.Error("windows attributed without a timeline")
	}
}

func TestPer1kQPS(t *testing.T) {
	agg := &perfv1alpha1.RoleUsage{Samples: 4, CPUAvg: resource.NewMilliQuantity(240, resource.DecimalSI), MemoryAvg: resource.NewQuantity(23<<20, resource.BinarySI)}
	got := Per1kQPS(agg, 500)
	// CPU scales with the rate; memory is the working set, whatever the rate.
	if got.CPU.MilliValue() != 480 || got.Memory.Value() != 23<<20 {
		t.Errorf("per 1k qps = %v %v", got.CPU, got.Memory)
	}
	if Per1kQPS(&perfv1alpha1.RoleUsage{}, 500) != nil || Per1kQPS(agg, 0) != nil || Per1kQPS(nil, 1) != nil {
		t.Error("no samples or no rate must give nil")
	}
}

// With sidecar variants each variant's target is a role of its own: its windows count only
// in its own phases, never as another variant's (idle) sidecar.
func TestAttributeKeepsEachVariantsTargetToItsPhases(t *testing.T) {
	phases := []Phase{{"d", t0, t0.Add(30 * time.Second)}, {"d1", t0.Add(30 * time.Second), t0.Add(60 * time.Second)}}
	windows := []perfv1alpha1.UsageWindow{
		window(string(roles.OfVariant(roles.ServerSidecar, "d")), 20, 400),  // d measured
		window(string(roles.OfVariant(roles.ServerSidecar, "d1")), 20, 3),   // d1 idle while d is measured
		window(string(roles.OfVariant(roles.ServerSidecar, "d")), 50, 4),    // d idle while d1 is measured
		window(string(roles.OfVariant(roles.ServerSidecar, "d1")), 50, 600), // d1 measured
		window(string(roles.ClientSidecar), 50, 200),                        // the shared caller sidecar
	}
	got := Attribute(windows, phases, 2*time.Second)
	if d := got["d"]; d == nil || d.ServerSidecar == nil || d.ServerSidecar.Samples != 1 || d.ServerSidecar.CPUAvg.MilliValue() != 400 {
		t.Errorf("variant d sidecar = %+v, want its own 400m window only", got["d"])
	}
	d1 := got["d1"]
	if d1 == nil || d1.ServerSidecar == nil || d1.ServerSidecar.Samples != 1 || d1.ServerSidecar.CPUAvg.MilliValue() != 600 {
		t.Fatalf("variant d1 sidecar = %+v, want its own 600m window only", d1)
	}
	if d1.ClientSidecar == nil || d1.ClientSidecar.CPUAvg.MilliValue() != 200 {
		t.Errorf("the shared caller sidecar = %+v", d1.ClientSidecar)
	}
}
