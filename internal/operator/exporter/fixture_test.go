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

package exporter

import (
	"bytes"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// finishedRun is a finished run of schedule "nightly" with every figure the exporter
// exports, including the cases it skips (a warm-up disturbance, an untrusted calibration, a
// role without samples), so a test sees all of Record's paths.
func finishedRun(name string, completed time.Time, addedP90 time.Duration) *perfv1alpha1.PerfRun {
	d := func(x time.Duration) *metav1.Duration { return &metav1.Duration{Duration: x} }
	q := func(s string) *resource.Quantity { v := resource.MustParse(s); return &v }
	lat := func(base time.Duration) *perfv1alpha1.LatencySummary {
		return &perfv1alpha1.LatencySummary{P50: d(base), P75: d(base + time.Microsecond), P90: d(base + 2*time.Microsecond),
			P99: d(base + 3*time.Microsecond), P999: d(base + 4*time.Microsecond), Avg: d(base), Max: d(base + time.Millisecond)}
	}
	role := &perfv1alpha1.RoleUsage{CPUAvg: q("480m"), CPUMax: q("510m"), MemoryAvg: q("23Mi"), MemoryMax: q("24Mi"), Samples: 4}
	return withDocument(&perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: "perf", Name: name, Generation: 1,
			Labels: map[string]string{perfv1alpha1.LabelSchedule: "nightly"}},
		Status: perfv1alpha1.PerfRunStatus{
			Phase:          perfv1alpha1.PhaseSucceeded,
			CompletionTime: &metav1.Time{Time: completed},
			Conditions: []metav1.Condition{
				{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonSucceeded, ObservedGeneration: 1},
				{Type: perfv1alpha1.ConditionRegressed, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonRegressed, ObservedGeneration: 1},
			},
			Disturbances: []perfv1alpha1.Disturbance{
				{Role: "target", Phase: "dapr run 1"}, {Role: "target", Phase: "dapr run 2"},
				{Role: "controlPlane/dapr-sentry", Phase: "baseline run 1"}, {Role: "loadTester", Phase: "warm-up"},
			},
			Environment: &perfv1alpha1.Environment{Calibration: []perfv1alpha1.NodeCalibration{
				{Node: "node-a", PerCPUSecond: "12500"}, {Node: "node-b", PerCPUSecond: "9000", SlowWindowsPercent: 75},
			}},
		},
	}, &perfv1alpha1.Result{
		Generation: 1, RequestedQPS: 1000, ActualQPS: "998.4", Errors: 2,
		Latency: lat(time.Millisecond + addedP90), Baseline: lat(time.Millisecond), Added: lat(addedP90),
		ServiceTime: lat(time.Millisecond), SendLag: lat(0),
		Saturated: []perfv1alpha1.SaturatedPath{{Path: "baseline", ActualQPS: "900"}},
		SidecarCost: []perfv1alpha1.SidecarCost{
			{Role: "serverSidecar", CPUPerRequest: metav1.Duration{Duration: 480 * time.Microsecond}},
			{Role: "clientSidecar", CPUPerRequest: metav1.Duration{Duration: 400 * time.Microsecond}},
		},
		CPU: &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{
			{Role: "serverSidecar", ThrottledPeriodsPercent: "12.5"}, {Role: "clientSidecar"},
		}, Variants: []perfv1alpha1.VariantCPU{{Name: "tight", Measured: []perfv1alpha1.ContainerCPU{
			{Role: "serverSidecar@d1", ThrottledPeriodsPercent: "60.0"}, {Role: "clientSidecar@d1", ThrottledPeriodsPercent: "5.0"},
		}}}},
		Resources: &perfv1alpha1.ResourceUsage{ServerSidecar: role, ClientSidecar: role, ServerApp: &perfv1alpha1.RoleUsage{},
			ControlPlane: []perfv1alpha1.ComponentUsage{{Component: "dapr-sentry", Usage: *role}}},
	})
}

// exposition is the text format of the collectors' series, sorted as Prometheus sorts them.
func exposition(t *testing.T, cs ...prometheus.Collector) string {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	for _, c := range cs {
		reg.MustRegister(c)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := expfmt.NewEncoder(&b, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// asyncRuns are finished PubSub, Workflow and Scheduler runs of schedule "nightly", each
// with its scenario's own figures; their exposition is pinned in testdata/scenarios.prom,
// which config/grafana's test reads to check the dashboard's panels of them.
func asyncRuns() []*perfv1alpha1.PerfRun {
	lat := func(p50, p99 time.Duration) *perfv1alpha1.LatencySummary {
		return &perfv1alpha1.LatencySummary{P50: &metav1.Duration{Duration: p50}, P90: &metav1.Duration{Duration: p50 + (p99-p50)/2},
			P99: &metav1.Duration{Duration: p99}}
	}
	run := func(name string, scenario perfv1alpha1.Scenario, res perfv1alpha1.Result) *perfv1alpha1.PerfRun {
		res.Generation, res.RequestedQPS, res.ActualQPS, res.Latency = 1, 100, "100", lat(time.Millisecond, 3*time.Millisecond)
		return withDocument(&perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Namespace: "perf", Name: name, Generation: 1, Labels: map[string]string{perfv1alpha1.LabelSchedule: "nightly"}},
			Spec:       perfv1alpha1.PerfRunSpec{Scenario: scenario},
			Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseSucceeded, CompletionTime: &metav1.Time{Time: time.Unix(1_800_000_000, 0)},
				Conditions: []metav1.Condition{{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonSucceeded, ObservedGeneration: 1}}},
		}, &res)
	}
	return []*perfv1alpha1.PerfRun{
		run("orders-1", perfv1alpha1.ScenarioPubSub, perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
			Latency: lat(2*time.Millisecond, 3*time.Millisecond), Baseline: lat(time.Millisecond, time.Millisecond), Added: lat(time.Millisecond, 2*time.Millisecond),
			Messages: &perfv1alpha1.MessageCounts{Published: 3000, Delivered: 2998, Lost: 2, Duplicated: 1}}}),
		run("flows-1", perfv1alpha1.ScenarioWorkflow, perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
			Latency: lat(60*time.Millisecond, 250*time.Millisecond), ActivityDispatch: lat(4*time.Millisecond, 20*time.Millisecond),
			Workflows: &perfv1alpha1.WorkflowCounts{Started: 3000, Completed: 2996, Failed: 1, Unfinished: 3}}}),
		run("jobs-1", perfv1alpha1.ScenarioScheduler, perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
			Lateness: lat(12*time.Millisecond, 40*time.Millisecond),
			Counts:   &perfv1alpha1.TriggerCounts{Registered: 3000, Triggered: 2999, Missed: 1, Doubled: 4}}}),
	}
}
