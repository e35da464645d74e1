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

package perfrun

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// A run with a PodKill needs the operator's kill route: an operator that serves none
// (--kill-url empty, Helm value podKill.enabled false) refuses it before anything is made,
// saying so; its twin without the PodKill, or the same run with the route, passes.
func TestAPodKillNeedsTheOperatorsKillRoute(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
			At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 5 * time.Second}}}}}
	without := &Reconciler{}
	got := without.policyRefusal(run)
	if got == nil || got.reason != perfv1alpha1.ReasonPodKillUnavailable || !strings.Contains(got.message, "podKill.enabled") {
		t.Errorf("refusal %+v, want PodKillUnavailable naming the Helm value", got)
	}
	errorsOnly := run.DeepCopy()
	errorsOnly.Spec.Faults[0] = perfv1alpha1.Fault{Kind: perfv1alpha1.FaultTargetErrors, ErrorPercent: ptr.To[int32](20),
		At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 5 * time.Second}}
	if got := without.policyRefusal(errorsOnly); got != nil {
		t.Errorf("a run without a PodKill refused: %+v", got)
	}
	with := &Reconciler{Workload: workload.Options{KillURL: "http://kill:9444"}}
	if got := with.policyRefusal(run); got != nil {
		t.Errorf("a PodKill with the route refused: %+v", got)
	}
}

// A daprd that exited badly once its load tester had ended (told to stop, it hung on a
// request to a killed pod) is named; one that died while the load ran, or ended well, is not.
func TestADaprdThatEndedBadlyAfterTheLoadIsNamed(t *testing.T) {
	end := metav1.NewTime(time.Date(2026, 11, 28, 9, 59, 30, 0, time.UTC))
	pod := func(daprdExit int32, daprdAt time.Duration) []corev1.Pod {
		return []corev1.Pod{{Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{
			{Name: workload.ContainerTester, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, FinishedAt: end}}},
			{Name: workload.ContainerDaprd, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: daprdExit, Reason: "Error",
				FinishedAt: metav1.NewTime(end.Add(daprdAt))}}},
		}}}}
	}
	tester := &corev1.ContainerStateTerminated{ExitCode: 0, FinishedAt: end}
	if got := daprdEndedBadly(pod(1, 10*time.Second), tester); got != "its daprd exited 1 (Error) at 09:59:40, after the load tester ended" {
		t.Errorf("after the load: %q", got)
	}
	if got := daprdEndedBadly(pod(1, -20*time.Second), tester); got != "" {
		t.Errorf("a daprd that died under the load named as ending after it: %q", got)
	}
	if got := daprdEndedBadly(pod(0, 10*time.Second), tester); got != "" {
		t.Errorf("a daprd that ended well named: %q", got)
	}
}
