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
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/retry"
)

// minReferenceRuns is the fewest earlier runs a regression is judged against (or the
// window, when smaller): fewer have no spread worth the name (the outlier test needs five,
// and a change point in five runs or fewer cannot be significant); maxHistory the most
// earlier runs a history holds.
const (
	minReferenceRuns = 5
	maxHistory       = 100
	stepReach        = 3
)

// acceptedBaseline is when the history a schedule's runs are judged against starts: the
// scheduled time of the run the schedule's AnnotationAcceptedBaseline names (a user accepts
// a step as the new normal by naming the first run of it), zero when none is named or the
// run is gone.
func acceptedBaseline(sched *perfv1alpha1.PerfSchedule, runs []perfv1alpha1.PerfRun) time.Time {
	name := sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline]
	for i := range runs {
		if name != "" && runs[i].Name == name {
			return runs[i].ScheduledTime()
		}
	}
	return time.Time{}
}

// regressionEvidence is a scheduled run's history, for judging regression; nil for a run
// no schedule made, or whose schedule is gone.
func (r *Reconciler) regressionEvidence(ctx context.Context, run *perfv1alpha1.PerfRun) (*assess.History, error) {
	name := run.Labels[perfv1alpha1.LabelSchedule]
	if name == "" {
		return nil, nil
	}
	sched := &perfv1alpha1.PerfSchedule{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, sched); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	var list perfv1alpha1.PerfRunList
	if err := r.List(ctx, &list, client.InNamespace(run.Namespace), client.MatchingLabels{perfv1alpha1.LabelSchedule: name}); err != nil {
		return nil, err
	}
	// A run whose document is gone or not its own is left out; a read that failed for a
	// moment fails the pass instead, so a blip never changes the verdict kept in status.
	var blip error
	read := func(other *perfv1alpha1.PerfRun) *perfv1alpha1.Result {
		doc, _, err := document.Read(ctx, r.APIReader, other)
		switch {
		case retry.Transient(err):
			blip = cmp.Or(blip, err)
		case err != nil:
			log.FromContext(ctx).Info("An earlier run's result is left out of the schedule's history", "run", other.Name, "error", err.Error())
		default:
			return doc.Result
		}
		return nil
	}
	history, earlier, reference := regressionHistory(run, sched, list.Items, read)
	if blip != nil {
		return nil, fmt.Errorf("reading the schedule's earlier results: %w", blip)
	}
	h := &assess.History{Schedule: name, AcceptedBaseline: sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline],
		Earlier: history, Reference: reference, Need: min(regressionWindow(sched), minReferenceRuns),
		TolerancePercent: sched.Spec.Regression.TolerancePercent}
	// Calibrations of the same workload only: other versions do not compare.
	_, workload, _ := run.Status.Environment.TargetCalibration()
	for i := range earlier[:min(len(history), len(earlier))] {
		if v, w, ok := earlier[i].Status.Environment.TargetCalibration(); ok && w == workload {
			h.CalibrationScores = append(h.CalibrationScores, v)
		}
	}
	return h, nil
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

// regressionWindow is the number of reference runs a schedule's runs are judged against.
func regressionWindow(sched *perfv1alpha1.PerfSchedule) int {
	if w := int(sched.Spec.Regression.Window); w > 0 {
		return w
	}
	return 10
}

// regressionHistory is what a scheduled run is judged against, from its schedule's runs
// and their results (resultOf reads a run's document; nil leaves the run out): the history
// oldest first (runs judged Regressed marked, data for the change points but never
// reference), the earlier runs it came from newest first, and how many reference runs it
// holds. Only runs of the same template are history: a changed template measures something
// else and starts a new one. A disturbed run measured a recovery; a saturated or
// CPU-limit-bound run measured its bound; a run held on purpose (the known-answer knob)
// measured the instrument; runs before the accepted baseline are done with.
func regressionHistory(run *perfv1alpha1.PerfRun, sched *perfv1alpha1.PerfSchedule, runs []perfv1alpha1.PerfRun,
	resultOf func(*perfv1alpha1.PerfRun) *perfv1alpha1.Result) (history []regression.Earlier, earlier []perfv1alpha1.PerfRun, reference int) {
	template := run.Annotations[perfv1alpha1.AnnotationTemplateHash]
	since := acceptedBaseline(sched, runs)
	for _, other := range runs {
		// The same spec too: an owner reference and a template-hash annotation are anyone's to
		// write, and a run edited after the schedule made it measured something else.
		if other.UID != run.UID && other.ControlledBy(sched, "PerfSchedule") && equality.Semantic.DeepEqual(other.Spec, run.Spec) &&
			other.Succeeded() && other.Status.Result != nil && other.Status.Result.Document != "" &&
			!other.ConditionTrue(perfv1alpha1.ConditionDisturbed) && !other.ConditionTrue(perfv1alpha1.ConditionSaturated) &&
			!other.ConditionTrue(perfv1alpha1.ConditionCPULimitBound) && !hasKey(other.Annotations, perfv1alpha1.AnnotationKnownAnswerDelay) &&
			other.Annotations[perfv1alpha1.AnnotationTemplateHash] == template && other.ScheduledTime().Before(run.ScheduledTime()) &&
			!other.ScheduledTime().Before(since) {
			earlier = append(earlier, other)
		}
	}
	slices.SortFunc(earlier, func(a, b perfv1alpha1.PerfRun) int { return b.ScheduledTime().Compare(a.ScheduledTime()) })
	// Accepting a step is accepting its runs: a run from the accepted baseline on that was
	// judged Regressed before this acceptance is reference again; one judged under it (a
	// later step) is a flag like any other.
	acceptedName := sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline]
	accepted := func(other *perfv1alpha1.PerfRun) bool {
		return !since.IsZero() && other.Status.RegressionBaseline != acceptedName
	}
	window := regressionWindow(sched)
	// The history reaches back until it holds window runs that were not themselves judged
	// Regressed, so a step whose runs are flagged never pushes the reference out of it — and
	// at least stepReach × window runs: a small step's first runs pass unflagged until its
	// change point is significant, and without the runs before them it never becomes so (a
	// +10% step at 3% noise was flagged by its 10th run in 74% of modelled histories with
	// window runs, 92% with three times as many). The reference is then every unflagged run
	// of the first segment, up to three windows of them.
	for i := range earlier {
		if (reference >= window && len(history) >= stepReach*window) || len(history) >= maxHistory {
			break
		}
		res := resultOf(&earlier[i])
		if res == nil {
			continue
		}
		flagged := earlier[i].ConditionTrue(perfv1alpha1.ConditionRegressed) && !accepted(&earlier[i])
		history = append(history, regression.Earlier{Result: res, Regressed: flagged})
		if !flagged {
			reference++
		}
	}
	slices.Reverse(history) // oldest first
	return history, earlier, reference
}
