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

package usage

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// podMetrics is what metrics-server serves for one pod: labels copied from the pod, a
// window ending at ts, usage per container ("cpu in millicores/memory in MiB").
func podMetrics(ns, name string, labels map[string]string, ts time.Time, containers map[string][2]int64) *metricsv1beta1.PodMetrics {
	pm := &metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Timestamp:  metav1.NewTime(ts),
		Window:     metav1.Duration{Duration: 15 * time.Second},
	}
	for c, u := range containers {
		pm.Containers = append(pm.Containers, metricsv1beta1.ContainerMetrics{Name: c, Usage: corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(u[0], resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(u[1]<<20, resource.BinarySI),
		}})
	}
	return pm
}

// gvr is where metrics-server's PodMetrics live; the fake clientset guesses a different
// resource from the kind, so objects are put in the tracker under it explicitly.
var gvr = metricsv1beta1.SchemeGroupVersion.WithResource("pods")

func fakeMetrics(t *testing.T, objs ...*metricsv1beta1.PodMetrics) *metricsfake.Clientset {
	c := metricsfake.NewSimpleClientset()
	for _, o := range objs {
		if err := c.Tracker().Create(gvr, o, o.Namespace); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func runLabels(component workload.Role) map[string]string {
	return map[string]string{workload.LabelRun: "bench", workload.LabelComponent: string(component)}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		component workload.Role
		container string
		want      Role
		ok        bool
	}{
		{workload.RoleTarget, "app", ServerApp, true},
		{workload.RoleTarget, "daprd", ServerSidecar, true},
		{workload.RoleTarget, "istio-proxy", ServerApp, true}, // every other container is "app"
		{workload.RoleLoadTester, "loadtester", LoadTester, true},
		{workload.RoleLoadTester, "daprd", ClientSidecar, true},
		{workload.RoleBaseline, "app", BaselineApp, true},
		{"", "app", "", false},
	} {
		got, ok := Classify(tc.component, tc.container)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Classify(%q, %q) = %q %v, want %q %v", tc.component, tc.container, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFoldCountsEachWindowOnce(t *testing.T) {
	var agg perfv1alpha1.RoleUsage
	steps := []struct {
		r       Reading
		counted bool
	}{
		{Reading{CPUMilli: 400, MemoryBytes: 20 << 20, Timestamp: t0}, true},
		{Reading{CPUMilli: 999, MemoryBytes: 99 << 20, Timestamp: t0}, false}, // the same window again
		{Reading{CPUMilli: 500, MemoryBytes: 24 << 20, Timestamp: t0.Add(15 * time.Second)}, true},
		{Reading{CPUMilli: 600, MemoryBytes: 22 << 20, Timestamp: t0.Add(30 * time.Second)}, true},
		{Reading{CPUMilli: 1, MemoryBytes: 1, Timestamp: t0.Add(10 * time.Second)}, false}, // older than the last
		{Reading{}, false}, // no window at all
	}
	for i, s := range steps {
		if got := Fold(&agg, s.r); got != s.counted {
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

func TestSampleRecordsEachWindowOnce(t *testing.T) {
	ctx := context.Background()
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "bench", Namespace: "perf"},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation}}
	since := t0

	// Listing 1: target (app + daprd), load tester (+ its daprd), an unrelated pod, a pod of
	// another run, a window from before the load, and the control plane.
	client := fakeMetrics(t,
		podMetrics("perf", "bench-target-1", runLabels(workload.RoleTarget), t0.Add(15*time.Second), map[string][2]int64{"app": {50, 10}, "daprd": {480, 23}}),
		podMetrics("perf", "bench-load-1-x", runLabels(workload.RoleLoadTester), t0.Add(15*time.Second), map[string][2]int64{"loadtester": {200, 30}, "daprd": {300, 21}}),
		podMetrics("perf", "bench-baseline-1", runLabels(workload.RoleBaseline), t0.Add(-5*time.Second), map[string][2]int64{"app": {40, 9}}),
		podMetrics("perf", "other", map[string]string{"app": "other"}, t0.Add(15*time.Second), map[string][2]int64{"c": {900, 900}}),
		podMetrics("perf", "other-run", map[string]string{workload.LabelRun: "other", workload.LabelComponent: "target"}, t0.Add(15*time.Second), map[string][2]int64{"app": {900, 900}}),
		podMetrics("dapr-system", "dapr-sentry-1", map[string]string{"app": "dapr-sentry"}, t0.Add(15*time.Second), map[string][2]int64{"dapr-sentry": {5, 14}}),
		podMetrics("dapr-system", "dapr-placement-0", map[string]string{"app": "dapr-placement-server"}, t0.Add(15*time.Second), map[string][2]int64{"dapr-placement-server": {1, 21}}),
	)
	s := &Sampler{Client: client, ControlPlaneNamespace: "dapr-system"}
	live := &perfv1alpha1.LiveUsage{}
	n, err := s.Sample(ctx, run, live, since)
	if err != nil || n != 6 { // 4 data-plane roles (the baseline's window predates since) + 2 components
		t.Fatalf("Sample = %d, %v", n, err)
	}
	byRole := map[string]perfv1alpha1.UsageWindow{}
	for _, w := range live.Windows {
		byRole[w.Role] = w
	}
	if w := byRole["serverSidecar"]; w.CPU != 480 || w.Memory != 23<<20 || w.Seconds != 15 || !w.End.Time.Equal(t0.Add(15*time.Second)) {
		t.Errorf("server sidecar window = %+v", w)
	}
	if _, ok := byRole["baselineApp"]; ok {
		t.Error("a window from before the load was recorded")
	}
	if w := byRole[ControlPlanePrefix+"dapr-sentry"]; w.Memory != 14<<20 {
		t.Errorf("sentry window = %+v", w)
	}

	// Listing 2, same windows: nothing is recorded twice.
	if n, _ := s.Sample(ctx, run, live, since); n != 0 {
		t.Errorf("same windows recorded again: %d", n)
	}

	// Listing 3: the target's pod was replaced mid-run (new name, no daprd reading yet: a
	// missing container), the load tester has gone.
	tracker := client.Tracker()
	for _, name := range []string{"bench-target-1", "bench-load-1-x"} {
		if err := tracker.Delete(gvr, "perf", name); err != nil {
			t.Fatal(err)
		}
	}
	if err := tracker.Create(gvr, podMetrics("perf", "bench-target-2", runLabels(workload.RoleTarget), t0.Add(30*time.Second), map[string][2]int64{"app": {70, 12}}), "perf"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Sample(ctx, run, live, since); err != nil || n != 1 {
		t.Fatalf("third listing recorded %d (%v), want 1 (the new app window)", n, err)
	}
	if len(live.Windows) != 7 || live.Windows[len(live.Windows)-1].Role != "serverApp" {
		t.Errorf("windows = %+v", live.Windows)
	}
}

func TestSampleReportsTheAPIsOwnError(t *testing.T) {
	client := metricsfake.NewSimpleClientset()
	client.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("the server could not find the requested resource (get pods.metrics.k8s.io)")
	})
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "bench", Namespace: "perf"}}
	_, err := (&Sampler{Client: client, ControlPlaneNamespace: "dapr-system"}).Sample(context.Background(), run, &perfv1alpha1.LiveUsage{}, t0)
	if err == nil || !strings.Contains(err.Error(), "pods.metrics.k8s.io") {
		t.Errorf("err = %v", err)
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
		window(ControlPlanePrefix+"dapr-sentry", 56, 5),
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

func TestRecordThinsEvenlyBeyondTheBound(t *testing.T) {
	live := &perfv1alpha1.LiveUsage{}
	for i := range MaxWindows + 1 {
		Record(live, map[string]Reading{"serverSidecar": {CPUMilli: int64(i), Timestamp: t0.Add(time.Duration(i) * 10 * time.Second), Window: 10 * time.Second}})
	}
	if n := len(live.Windows); n > MaxWindows || n < MaxWindows/2 {
		t.Fatalf("%d windows kept", n)
	}
	first, last := live.Windows[0], live.Windows[len(live.Windows)-1]
	if first.CPU != 0 || last.CPU < MaxWindows-2 {
		t.Errorf("thinning lost an end of the run: first %d, last %d", first.CPU, last.CPU)
	}
	if n := Record(live, map[string]Reading{"serverSidecar": {Timestamp: last.End.Time}}); n != 0 {
		t.Error("a recorded window was recorded again")
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
		window(string(ofVariant(ServerSidecar, "d")), 20, 400),  // d measured
		window(string(ofVariant(ServerSidecar, "d1")), 20, 3),   // d1 idle while d is measured
		window(string(ofVariant(ServerSidecar, "d")), 50, 4),    // d idle while d1 is measured
		window(string(ofVariant(ServerSidecar, "d1")), 50, 600), // d1 measured
		window(string(ClientSidecar), 50, 200),                  // the shared caller sidecar
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
