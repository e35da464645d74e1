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
	"github.com/daprbench/daprbench/internal/contract/roles"
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
		want      roles.Role
		ok        bool
	}{
		{workload.RoleTarget, "app", roles.ServerApp, true},
		{workload.RoleTarget, "daprd", roles.ServerSidecar, true},
		{workload.RoleTarget, "istio-proxy", roles.ServerApp, true}, // every other container is "app"
		{workload.RoleLoadTester, "loadtester", roles.LoadTester, true},
		{workload.RoleLoadTester, "daprd", roles.ClientSidecar, true},
		{workload.RoleBaseline, "app", roles.BaselineApp, true},
		{"", "app", "", false},
	} {
		got, ok := Classify(tc.component, tc.container)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Classify(%q, %q) = %q %v, want %q %v", tc.component, tc.container, got, ok, tc.want, tc.ok)
		}
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
	if w := byRole[roles.ControlPlanePrefix+"dapr-sentry"]; w.Memory != 14<<20 {
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

// However long a run, the windows kept stay evenly spread over its time: a run four times
// longer than the bound keeps as many of its first quarter's windows as of its last.
func TestRecordKeepsALongRunsWindowsEvenlySpread(t *testing.T) {
	live := &perfv1alpha1.LiveUsage{}
	const n = 4 * MaxWindows
	for i := range n {
		at := t0.Add(time.Duration(i) * 15 * time.Second)
		Record(live, map[string]Reading{"serverSidecar": {Timestamp: at, Window: 15 * time.Second},
			"clientSidecar": {Timestamp: at, Window: 15 * time.Second}})
	}
	end := t0.Add(n * 15 * time.Second)
	quarter := end.Sub(t0) / 4
	count := func(from time.Time) int {
		k := 0
		for _, w := range live.Windows {
			if w.Role == "serverSidecar" && !w.End.Time.Before(from) && w.End.Time.Before(from.Add(quarter)) {
				k++
			}
		}
		return k
	}
	first, last := count(t0), count(t0.Add(3*quarter))
	if first < 20 || last < 20 || first > 2*last || last > 2*first {
		t.Errorf("serverSidecar windows: %d in the first quarter, %d in the last (%d in all, spacing %v): want about as many",
			first, last, len(live.Windows), live.Spacing)
	}
}
