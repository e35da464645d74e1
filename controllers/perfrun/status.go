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
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess"
)

// The status is computed in memory during a reconcile and written once at its end. These
// setters are the only code that changes a PerfRun's phase; conditions that only describe
// (usage, CPU, disturbances, thresholds) are set through setCondition by the step that
// finds them.

// beginGeneration starts a fresh run when the spec changed: conditions and times are
// reset, the previous result stays visible until the new run replaces it.
func beginGeneration(run *perfv1alpha1.PerfRun, now metav1.Time) {
	st := &run.Status
	if st.ObservedGeneration == run.Generation && st.StartTime != nil {
		return
	}
	st.ObservedGeneration = run.Generation
	st.MeasuredSpec = measuredSpec(&run.Spec)
	st.Conditions = nil
	st.StartTime = &now
	st.CompletionTime = nil
	st.Environment = nil
	st.LiveUsage = nil
	st.Disturbances = nil
	st.Progress = nil
	st.Phase = perfv1alpha1.PhasePending
}

func setCondition(run *perfv1alpha1.PerfRun, condType string, status metav1.ConditionStatus, reason, msg string) {
	meta.SetStatusCondition(&run.Status.Conditions, metav1.Condition{
		Type:               condType,
		Status:             status,
		Reason:             reason,
		Message:            msg,
		ObservedGeneration: run.Generation,
	})
}

// setDaprReady records the preflight's verdict.
func setDaprReady(run *perfv1alpha1.PerfRun, ready bool, reason, msg string) {
	setCondition(run, perfv1alpha1.ConditionDaprReady, boolStatus(ready), reason, msg)
}

// setWorkloadsReady records whether the target (and baseline twin) are Available.
func setWorkloadsReady(run *perfv1alpha1.PerfRun, ready bool, reason, msg string) {
	setCondition(run, perfv1alpha1.ConditionWorkloadsReady, boolStatus(ready), reason, msg)
	if !ready {
		run.Status.Phase = perfv1alpha1.PhaseProvisioning
	}
}

// setQueued holds the run Pending behind the run ahead of it in the queue.
func setQueued(run *perfv1alpha1.PerfRun, ahead string) {
	setCondition(run, perfv1alpha1.ConditionQueued, metav1.ConditionTrue, perfv1alpha1.ReasonWaitingForRun,
		"waiting for "+ahead+" to finish measuring (in turns by namespace, then first come, first served; "+
			"spec.exclusive=false waits only for exclusive runs)")
	run.Status.Phase = perfv1alpha1.PhasePending
}

// setRunning marks the load as under way.
func setRunning(run *perfv1alpha1.PerfRun) {
	run.Status.Phase = perfv1alpha1.PhaseRunning
}

// markSucceeded ends the run with a result; reason is Succeeded, or Saturated when a path's
// latency is that of a lower rate than requested. status.lastSuccessful follows once the
// result's document is kept (keepResult): until then it names the last one kept.
func markSucceeded(run *perfv1alpha1.PerfRun, now metav1.Time, reason, msg string) {
	setCondition(run, perfv1alpha1.ConditionSucceeded, metav1.ConditionTrue, reason, msg)
	setCondition(run, perfv1alpha1.ConditionFailed, metav1.ConditionFalse, perfv1alpha1.ReasonSucceeded, "")
	run.Status.Phase = perfv1alpha1.PhaseSucceeded
	run.Status.CompletionTime = &now
	run.Status.Progress = nil
}

// applyVerdict sets an assessment's judging conditions, in order, then ends the run as its
// verdict says.
func applyVerdict(run *perfv1alpha1.PerfRun, a assess.Assessment, now metav1.Time) {
	for _, c := range a.Conditions {
		meta.SetStatusCondition(&run.Status.Conditions, c)
	}
	if a.Verdict.Failed {
		markFailed(run, now, a.Verdict.Reason, "%s", a.Verdict.Message)
	} else {
		markSucceeded(run, now, a.Verdict.Reason, a.Verdict.Message)
	}
}

// markFailed ends the run without (or with a partial) result, saying why.
func markFailed(run *perfv1alpha1.PerfRun, now metav1.Time, reason, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	setCondition(run, perfv1alpha1.ConditionFailed, metav1.ConditionTrue, reason, msg)
	setCondition(run, perfv1alpha1.ConditionSucceeded, metav1.ConditionFalse, reason, msg)
	run.Status.Phase = perfv1alpha1.PhaseFailed
	run.Status.CompletionTime = &now
	run.Status.Progress = nil
}

func boolStatus(b bool) metav1.ConditionStatus {
	if b {
		return metav1.ConditionTrue
	}
	return metav1.ConditionFalse
}
