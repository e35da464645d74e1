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

package cli

import (
	"strings"
	"testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A Workflow run's report shows its completion latency and instances, a Scheduler run's its
// trigger lateness and registrations; other runs show neither.
func TestWorkflowAndSchedulerReportsShowTheirOwnFigures(t *testing.T) {
	wf := &perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
		Latency:   &perfv1alpha1.LatencySummary{P50: msDur(57.8), P99: msDur(96.8)},
		Workflows: &perfv1alpha1.WorkflowCounts{Started: 200, Completed: 197, Failed: 1, Unfinished: 2},
	}}
	sched := &perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
		Lateness: &perfv1alpha1.LatencySummary{P50: msDur(12)},
		Counts:   &perfv1alpha1.TriggerCounts{Registered: 300, Triggered: 299, Missed: 1, Doubled: 4},
	}}
	for _, c := range []struct {
		out  string
		want []string
	}{
		{completionTable(wf), []string{"completion: from each instance's scheduled start", "dapr   57.8ms", "200       197         1        2"}},
		{triggerTable(sched), []string{"trigger lateness: each trigger's receipt", "dapr   12ms", "300          299         1        4"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("the table lacks %q:\n%s", w, c.out)
			}
		}
	}
	if completionTable(&perfv1alpha1.Result{}) != "" || triggerTable(wf) != "" {
		t.Error("a run without the figures shows their table")
	}
}

// A Workflow run's CSV row carries its completion and its failed and unfinished instances, a
// Scheduler run's its trigger lateness and missed triggers.
func TestWorkflowAndSchedulerCSVRowsCarryTheirFigures(t *testing.T) {
	wf := runRow(&perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioWorkflow},
		Status: perfv1alpha1.PerfRunStatus{Result: &perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
			Latency:   &perfv1alpha1.LatencySummary{P50: msDur(57.8), P99: msDur(96.8)},
			Workflows: &perfv1alpha1.WorkflowCounts{Started: 200, Completed: 197, Failed: 1, Unfinished: 2}}}}})
	if wf.CompletionP50 != "57.8ms" || wf.CompletionP99 != "96.8ms" || wf.FailedWorkflows != "1" || wf.UnfinishedWorkflows != "2" || wf.TriggerLatenessP50 != "" {
		t.Errorf("workflow row %+v", wf)
	}
	sched := runRow(&perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioScheduler},
		Status: perfv1alpha1.PerfRunStatus{Result: &perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
			Lateness: &perfv1alpha1.LatencySummary{P50: msDur(12), P99: msDur(40)},
			Counts:   &perfv1alpha1.TriggerCounts{Registered: 300, Triggered: 299, Missed: 1}}}}})
	if sched.TriggerLatenessP50 != "12ms" || sched.TriggerLatenessP99 != "40ms" || sched.MissedTriggers != "1" || sched.CompletionP50 != "" {
		t.Errorf("scheduler row %+v", sched)
	}
}
