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

package report

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// A Workflow sweep's table carries each point's completion beside its start call's latency;
// an invocation sweep's has no such column.
func TestAWorkflowSweepsTableShowsEachPointsCompletion(t *testing.T) {
	spec := &perfv1alpha1.PerfSweep{Spec: perfv1alpha1.PerfSweepSpec{Template: perfv1alpha1.PerfRunTemplate{
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioWorkflow}}}}
	sw := sweep.Measured{PerfSweep: spec, Points: []sweep.MeasuredPoint{{
		SweepPointStatus: perfv1alpha1.SweepPointStatus{Step: 0, QPS: 20, Setting: "fanout", Phase: perfv1alpha1.PhaseSucceeded},
		Figures:          sweep.Figures{Latency: &perfv1alpha1.PointLatency{P50: clitest.Dur("15ms")}, Outcome: &perfv1alpha1.PointLatency{P50: clitest.Dur("113ms"), P99: clitest.Dur("251ms")}}}}}
	out := sweepTable(sw)
	if !strings.Contains(out, "COMPLETION P50") || !strings.Contains(out, "COMPLETION P99") || !strings.Contains(out, "113ms") || !strings.Contains(out, "251ms") {
		t.Errorf("workflow sweep table lacks its completion:\n%s", out)
	}
	sw.Spec.Template.Spec.Scenario = perfv1alpha1.ScenarioServiceInvocation
	if out := sweepTable(sw); strings.Contains(out, "COMPLETION") || strings.Contains(out, "113ms") {
		t.Errorf("an invocation sweep's table shows a completion:\n%s", out)
	}
}

func TestReportListsTheDisturbedPodsWithTheirPhases(t *testing.T) {
	at := metav1.NewTime(time.Date(2026, 11, 23, 10, 0, 15, 0, time.UTC))
	out := disturbancesTable([]perfv1alpha1.Disturbance{{Time: at, Kind: perfv1alpha1.DisturbanceCreated,
		Role: "controlPlane/dapr-placement-server", Pod: "dapr-placement-server-0", Phase: "dapr run 1 of 3, 15s in", Detail: "ready after 3s"}})
	for _, want := range []string{"pods disturbed while the load ran", "10:00:15", "Created", "dapr-placement-server-0", "dapr run 1 of 3, 15s in", "ready after 3s"} {
		if !strings.Contains(out, want) {
			t.Errorf("disturbances table lacks %q:\n%s", want, out)
		}
	}
	if disturbancesTable(nil) != "" {
		t.Error("an undisturbed run has no disturbances table")
	}
}
