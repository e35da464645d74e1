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

package export

import (
	"testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// A PubSub run's CSV row carries its delivery figures and lost messages.
func TestAPubSubRunsCSVRowCarriesItsDelivery(t *testing.T) {
	run := clitest.WithResult(&perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioPubSub}},
		&perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
			Latency:  &perfv1alpha1.LatencySummary{P50: clitest.Ms(1.5), P99: clitest.Ms(4)},
			Added:    &perfv1alpha1.LatencySummary{P99: clitest.Ms(3)},
			Messages: &perfv1alpha1.MessageCounts{Published: 10, Delivered: 9, Lost: 1}}})
	row := Row(run)
	if row.DeliveryP50 != "1.5ms" || row.DeliveryP99 != "4ms" || row.AddedDeliveryP99 != "3ms" || row.LostMessages != "1" {
		t.Errorf("row %+v", row)
	}
}

// A Workflow run's CSV row carries its completion and its failed and unfinished instances, a
// Scheduler run's its trigger lateness and missed triggers.
func TestWorkflowAndSchedulerCSVRowsCarryTheirFigures(t *testing.T) {
	wf := Row(clitest.WithResult(&perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioWorkflow}},
		&perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
			Latency:   &perfv1alpha1.LatencySummary{P50: clitest.Ms(57.8), P99: clitest.Ms(96.8)},
			Workflows: &perfv1alpha1.WorkflowCounts{Started: 200, Completed: 197, Failed: 1, Unfinished: 2}}}))
	if wf.CompletionP50 != "57.8ms" || wf.CompletionP99 != "96.8ms" || wf.FailedWorkflows != "1" || wf.UnfinishedWorkflows != "2" || wf.TriggerLatenessP50 != "" {
		t.Errorf("workflow row %+v", wf)
	}
	sched := Row(clitest.WithResult(&perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioScheduler}},
		&perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
			Lateness: &perfv1alpha1.LatencySummary{P50: clitest.Ms(12), P99: clitest.Ms(40)},
			Counts:   &perfv1alpha1.TriggerCounts{Registered: 300, Triggered: 299, Missed: 1}}}))
	if sched.TriggerLatenessP50 != "12ms" || sched.TriggerLatenessP99 != "40ms" || sched.MissedTriggers != "1" || sched.CompletionP50 != "" {
		t.Errorf("scheduler row %+v", sched)
	}
}
