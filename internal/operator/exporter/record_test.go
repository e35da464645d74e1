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
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// resetRuns drops every run's series: the metrics are package state shared by the tests.
func resetRuns() {
	for _, g := range runGauge {
		g.Reset()
	}
}

// The exposition of one finished run, pinned in testdata/run.prom (UPDATE_GOLDEN=1 rewrites
// it): what dashboards and alerts read must not change by accident.
func TestRecordExportsEveryFigureOfARun(t *testing.T) {
	resetRuns()
	t.Cleanup(resetRuns)
	Record(ctx, testDocs, finishedRun("nightly-1", time.Unix(1_800_000_000, 0), 400*time.Microsecond))
	checkGolden(t, filepath.Join("testdata", "run.prom"), exposition(t, Collectors()...))

	Forget("perf", "nightly-1")
	if got := exposition(t, Collectors()...); got != "" {
		t.Errorf("after Forget:\n%s", got)
	}
}

// failingReader answers every read with err.
type failingReader struct{ err error }

func (f failingReader) Get(context.Context, client.ObjectKey, client.Object, ...client.GetOption) error {
	return f.err
}

func (f failingReader) List(context.Context, client.ObjectList, ...client.ListOption) error {
	return f.err
}

// A read that fails for a moment leaves a run's series as they were (and says so, for the
// caller to try again); a document gone for good leaves its state figures alone.
func TestRecordKeepsARunsSeriesWhenItsDocumentCannotBeReadForAMoment(t *testing.T) {
	resetRuns()
	t.Cleanup(resetRuns)
	run := finishedRun("nightly-1", time.Unix(1_800_000_000, 0), 400*time.Microsecond)
	if err := Record(ctx, testDocs, run); err != nil {
		t.Fatal(err)
	}
	before := exposition(t, Collectors()...)
	edited := run.DeepCopy()
	edited.ResourceVersion = "2" // a later status of the run: read again
	unavailable := failingReader{apierrors.NewServiceUnavailable("the API server is restarting")}
	if err := Record(ctx, unavailable, edited); err == nil {
		t.Error("a failed read was not returned")
	}
	if got := exposition(t, Collectors()...); got != before {
		t.Errorf("a read that failed for a moment changed the series:\n%s", got)
	}
	gone := failingReader{apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, run.Status.Result.Document)}
	if err := Record(ctx, gone, edited); err == nil {
		t.Error("a document gone was not said")
	}
	got := exposition(t, Collectors()...)
	if strings.Contains(got, "daprbench_perfrun_latency_seconds{") || !strings.Contains(got, "daprbench_perfrun_outcome{") {
		t.Errorf("a run whose document is gone exports its state alone:\n%s", got)
	}
}

// The quantile labels are the ones docs/observability.md promises and dashboards match on:
// 99.9/100 printed in full is 0.9990000000000001, which no query for "0.999" finds.
func TestLatencyQuantileLabelsAreTheDocumentedOnes(t *testing.T) {
	resetRuns()
	t.Cleanup(resetRuns)
	Record(ctx, testDocs, finishedRun("nightly-1", time.Unix(1_800_000_000, 0), 400*time.Microsecond))
	got := exposition(t, runGauge[famLatency])
	for _, q := range []string{"0.5", "0.75", "0.9", "0.99", "0.999", "avg", "max"} {
		if !strings.Contains(got, `quantile="`+q+`"`) {
			t.Errorf(`no series with quantile="%s"`, q)
		}
	}
	if n := strings.Count(got, "quantile="); n != 7*5 {
		t.Errorf("%d latency series, want 7 figures of 5 variants:\n%s", n, got)
	}
}

// Each asynchronous scenario's own latency joins the latency family under its own variants
// (PubSub's delivery, Workflow's completion and activity dispatch, Scheduler's trigger
// lateness), and its counts are a family of their own, by outcome. The whole exposition is
// pinned in testdata/scenarios.prom (UPDATE_GOLDEN=1 rewrites it), which the dashboard's
// test checks its panels against.
func TestRecordExportsEachAsyncScenariosOwnFigures(t *testing.T) {
	resetRuns()
	t.Cleanup(resetRuns)
	for _, run := range asyncRuns() {
		Record(ctx, testDocs, run)
	}
	got := exposition(t, Collectors()...)
	for _, want := range []string{
		`daprbench_perfrun_latency_seconds{namespace="perf",perfrun="orders-1",quantile="0.99",schedule="nightly",variant="delivery"} 0.003`,
		`daprbench_perfrun_latency_seconds{namespace="perf",perfrun="orders-1",quantile="0.99",schedule="nightly",variant="delivery_added"} 0.002`,
		`daprbench_perfrun_messages{namespace="perf",outcome="lost",path="dapr",perfrun="orders-1",schedule="nightly"} 2`,
		`daprbench_perfrun_messages{namespace="perf",outcome="published",path="dapr",perfrun="orders-1",schedule="nightly"} 3000`,
		`daprbench_perfrun_latency_seconds{namespace="perf",perfrun="flows-1",quantile="0.99",schedule="nightly",variant="completion"} 0.25`,
		`daprbench_perfrun_latency_seconds{namespace="perf",perfrun="flows-1",quantile="0.5",schedule="nightly",variant="activity_dispatch"} 0.004`,
		`daprbench_perfrun_workflows{namespace="perf",outcome="started",perfrun="flows-1",schedule="nightly"} 3000`,
		`daprbench_perfrun_workflows{namespace="perf",outcome="unfinished",perfrun="flows-1",schedule="nightly"} 3`,
		`daprbench_perfrun_latency_seconds{namespace="perf",perfrun="jobs-1",quantile="0.99",schedule="nightly",variant="trigger_lateness"} 0.04`,
		`daprbench_perfrun_triggers{namespace="perf",outcome="missed",perfrun="jobs-1",schedule="nightly"} 1`,
		`daprbench_perfrun_triggers{namespace="perf",outcome="doubled",perfrun="jobs-1",schedule="nightly"} 4`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("exposition lacks %s", want)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.Contains(line, `perfrun="flows-1"`) && (strings.Contains(line, `variant="delivery`) || strings.Contains(line, "_messages{") || strings.Contains(line, "_triggers{")) {
			t.Errorf("a Workflow run exports another scenario's figure: %s", line)
		}
	}
	checkGolden(t, filepath.Join("testdata", "scenarios.prom"), got)
}

// checkGolden compares got with a golden file; UPDATE_GOLDEN=1 rewrites it.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("exposition differs from %s (UPDATE_GOLDEN=1 rewrites it):\n%s", golden, got)
	}
}

// A fault run exports what each fault cost each path: the windows' error shares, the
// recovery's mean and slowest, and how its phases came back; a window without requests and a
// recovery no phase made are absent, not 0. The exposition is pinned in testdata/faults.prom
// (UPDATE_GOLDEN=1 rewrites it), which the dashboard's test checks its fault panels against.
func TestRecordExportsWhatAFaultCost(t *testing.T) {
	resetRuns()
	t.Cleanup(resetRuns)
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: "perf", Name: "killed-1", Generation: 1, Labels: map[string]string{perfv1alpha1.LabelSchedule: "nightly"}},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseSucceeded, CompletionTime: &metav1.Time{Time: time.Unix(1_800_000_000, 0)},
			Conditions: []metav1.Condition{{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonSucceeded, ObservedGeneration: 1}}},
	}
	res := &perfv1alpha1.Result{Generation: 1, RequestedQPS: 100, ActualQPS: "100"}
	res.Faults = []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "dapr", Applied: 4, Recovered: 3, NotRecovered: 1,
		Before: perfv1alpha1.FaultWindow{Requests: 4000}, During: perfv1alpha1.FaultWindow{Requests: 1000, Errors: 250},
		Recovery: &metav1.Duration{Duration: 5 * time.Second}, SlowestRecovery: &metav1.Duration{Duration: 9 * time.Second}},
		{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "other", Applied: 1, Unjudged: 1}}
	Record(ctx, testDocs, withDocument(run, res))
	got := exposition(t, runGauge[famFaultErrors], runGauge[famFaultRecovery], runGauge[famFaultPhases])
	for _, want := range []string{
		`daprbench_perfrun_fault_error_ratio{fault="0",namespace="perf",path="dapr",perfrun="killed-1",schedule="nightly",window="before"} 0`,
		`daprbench_perfrun_fault_error_ratio{fault="0",namespace="perf",path="dapr",perfrun="killed-1",schedule="nightly",window="during"} 0.25`,
		`daprbench_perfrun_fault_recovery_seconds{fault="0",namespace="perf",path="dapr",perfrun="killed-1",schedule="nightly",stat="mean"} 5`,
		`daprbench_perfrun_fault_recovery_seconds{fault="0",namespace="perf",path="dapr",perfrun="killed-1",schedule="nightly",stat="slowest"} 9`,
		`daprbench_perfrun_fault_phases{fault="0",namespace="perf",outcome="not_recovered",path="dapr",perfrun="killed-1",schedule="nightly"} 1`,
		`daprbench_perfrun_fault_phases{fault="0",namespace="perf",outcome="unjudged",path="other",perfrun="killed-1",schedule="nightly"} 1`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("exposition lacks %s:\n%s", want, got)
		}
	}
	for _, absent := range []string{`window="after"`, `path="other",perfrun="killed-1",schedule="nightly",stat=`} {
		if strings.Contains(got, absent) {
			t.Errorf("exposition has %s, which has no figure:\n%s", absent, got)
		}
	}
	checkGolden(t, filepath.Join("testdata", "faults.prom"), got)
}
