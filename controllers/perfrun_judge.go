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

package controllers

import (
	"context"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/assess/thresholds"
)

// conclude ends a run whose load is over: the load's outcome first, then, when its result
// stands, the judges of the result (saturation, regression, thresholds), then the verdict.
// Disturbances are judged in every case: they explain a failure as well as a success.
func (r *PerfRunReconciler) conclude(ctx context.Context, run *perfv1alpha1.PerfRun, o *loadOutcome) error {
	disturbed := judgeDisturbances(run, o.summary)
	v := firstVerdict(o, loadChecks)
	if v == nil {
		setSaturated(run, run.Status.Result)
		if err := r.judgeRegression(ctx, run); err != nil {
			return err
		}
		if fail, violations := judgeThresholds(run); fail {
			o.thresholdsViolated = violations
		}
		o.saturated = run.ConditionTrue(perfv1alpha1.ConditionSaturated)
		o.headline = report.Headline(run.Status.Result)
		v = firstVerdict(o, resultChecks)
	}
	if disturbed != "" {
		v.message += "; " + disturbed
	}
	if v.failed {
		markFailed(run, r.now(), v.reason, "%s", v.message)
	} else {
		markSucceeded(run, r.now(), v.reason, v.message)
	}
	return nil
}

// judgeThresholds sets ThresholdsMet from spec.thresholds and reports whether the run must
// fail for it (a violation with failRun).
func judgeThresholds(run *perfv1alpha1.PerfRun) (fail bool, msg string) {
	v, ok := thresholds.Evaluate(run.Spec.Thresholds, run.Status.Result)
	if !ok {
		return false, ""
	}
	switch v.Outcome {
	case thresholds.Met:
		setCondition(run, perfv1alpha1.ConditionThresholdsMet, metav1.ConditionTrue, perfv1alpha1.ReasonThresholdsMet, v.Message())
	case thresholds.Violated:
		setCondition(run, perfv1alpha1.ConditionThresholdsMet, metav1.ConditionFalse, perfv1alpha1.ReasonThresholdsViolated, v.Message())
		return run.Spec.Thresholds.FailRun, v.Message()
	default:
		setCondition(run, perfv1alpha1.ConditionThresholdsMet, metav1.ConditionUnknown, perfv1alpha1.ReasonInconclusive, v.Message())
	}
	return false, ""
}

// minReferenceRuns is the fewest earlier runs a regression is judged against (or the
// window, when smaller): fewer have no spread worth the name (the outlier test needs five,
// and a change point in five runs or fewer cannot be significant); maxHistory the most
// earlier runs a history holds.
const (
	minReferenceRuns = 5
	maxHistory       = 100
)

// acceptedBaseline is when the history a schedule's runs are judged against starts: the
// scheduled time of the run the schedule's AnnotationAcceptedBaseline names (a user accepts
// a step as the new normal by naming the first run of it), zero when none is named or the
// run is gone.
func acceptedBaseline(sched *perfv1alpha1.PerfSchedule, runs []perfv1alpha1.PerfRun) time.Time {
	name := sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline]
	for i := range runs {
		if name != "" && runs[i].Name == name {
			return scheduledTime(&runs[i])
		}
	}
	return time.Time{}
}

// judgeRegression compares a scheduled run's result with the schedule's earlier successful
// runs and sets Regressed. Runs not created by a schedule are not judged.
func (r *PerfRunReconciler) judgeRegression(ctx context.Context, run *perfv1alpha1.PerfRun) error {
	name := run.Labels[perfv1alpha1.LabelSchedule]
	if name == "" || run.Status.Result == nil {
		return nil
	}
	sched := &perfv1alpha1.PerfSchedule{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, sched); err != nil {
		return client.IgnoreNotFound(err)
	}
	var list perfv1alpha1.PerfRunList
	if err := r.List(ctx, &list, client.InNamespace(run.Namespace), client.MatchingLabels{perfv1alpha1.LabelSchedule: name}); err != nil {
		return err
	}
	run.Status.RegressionBaseline = sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline]
	history, earlier, reference := regressionHistory(run, sched, list.Items)
	// A few reference runs have no spread worth the name: their noise would be reported as
	// regressions. Judge once min(window, 5) earlier runs exist.
	if need := min(regressionWindow(sched), minReferenceRuns); reference < need {
		setCondition(run, perfv1alpha1.ConditionRegressed, metav1.ConditionFalse, perfv1alpha1.ReasonNoReference,
			fmt.Sprintf("%d earlier successful, undisturbed runs of schedule %s with this template; %d are needed to judge a regression", reference, name, need))
		return nil
	}
	tolerance := sched.Spec.Regression.TolerancePercent
	regressed, findings, _ := regression.Compare(run.Status.Result, history, tolerance)
	cur, workload, _ := run.Status.Environment.TargetCalibration()
	var scores []float64 // of the same calibration workload: other versions do not compare
	for i := range earlier[:min(len(history), len(earlier))] {
		if v, w, ok := earlier[i].Status.Environment.TargetCalibration(); ok && w == workload {
			scores = append(scores, v)
		}
	}
	warning := regression.CalibrationWarning(cur, scores)
	msg := regression.Message(findings)
	if warning != "" {
		msg += "; " + warning
	}
	switch {
	case regressed:
		setCondition(run, perfv1alpha1.ConditionRegressed, metav1.ConditionTrue, perfv1alpha1.ReasonRegressed, msg)
	default:
		setCondition(run, perfv1alpha1.ConditionRegressed, metav1.ConditionFalse, perfv1alpha1.ReasonNoRegression, msg)
	}
	return nil
}

// regressionWindow is the number of reference runs a schedule's runs are judged against.
func regressionWindow(sched *perfv1alpha1.PerfSchedule) int {
	if w := int(sched.Spec.Regression.Window); w > 0 {
		return w
	}
	return 10
}

// regressionHistory is what a scheduled run is judged against, from its schedule's runs:
// the history oldest first (runs judged Regressed marked, data for the change points but
// never reference), the earlier runs it came from newest first, and how many reference runs
// it holds. Only runs of the same template are history: a changed template measures
// something else and starts a new one. A disturbed run measured a recovery; a saturated or
// CPU-limit-bound run measured its bound; runs before the accepted baseline are done with.
func regressionHistory(run *perfv1alpha1.PerfRun, sched *perfv1alpha1.PerfSchedule, runs []perfv1alpha1.PerfRun) (history []regression.Earlier, earlier []perfv1alpha1.PerfRun, reference int) {
	template := run.Annotations[perfv1alpha1.AnnotationTemplateHash]
	since := acceptedBaseline(sched, runs)
	for _, other := range runs {
		if other.UID != run.UID && metav1.IsControlledBy(&other, sched) && other.Succeeded() && other.Status.Result != nil &&
			!other.ConditionTrue(perfv1alpha1.ConditionDisturbed) && !other.ConditionTrue(perfv1alpha1.ConditionSaturated) &&
			!other.ConditionTrue(perfv1alpha1.ConditionCPULimitBound) &&
			other.Annotations[perfv1alpha1.AnnotationTemplateHash] == template && scheduledTime(&other).Before(scheduledTime(run)) &&
			!scheduledTime(&other).Before(since) {
			earlier = append(earlier, other)
		}
	}
	slices.SortFunc(earlier, func(a, b perfv1alpha1.PerfRun) int { return scheduledTime(&b).Compare(scheduledTime(&a)) })
	// Accepting a step is accepting its runs: a run from the accepted baseline on that was
	// judged Regressed before this acceptance is reference again; one judged under it (a
	// later step) is a flag like any other.
	acceptedName := sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline]
	accepted := func(other *perfv1alpha1.PerfRun) bool {
		return !since.IsZero() && other.Status.RegressionBaseline != acceptedName
	}
	window := regressionWindow(sched)
	// The history reaches back until it holds window runs that were not themselves judged
	// Regressed, so a step that persists never pushes the reference out of the history.
	for i := range earlier {
		if reference >= window || len(history) >= maxHistory {
			break
		}
		flagged := earlier[i].ConditionTrue(perfv1alpha1.ConditionRegressed) && !accepted(&earlier[i])
		history = append(history, regression.Earlier{Result: earlier[i].Status.Result, Regressed: flagged})
		if !flagged {
			reference++
		}
	}
	slices.Reverse(history) // oldest first
	return history, earlier, reference
}

// scheduledTime is the slot a scheduled run was created for (creation time, whole seconds,
// cannot order runs created within one second).
func scheduledTime(run *perfv1alpha1.PerfRun) time.Time {
	if t, err := time.Parse(time.RFC3339, run.Annotations[perfv1alpha1.AnnotationScheduledTime]); err == nil {
		return t
	}
	return run.CreationTimestamp.Time
}
