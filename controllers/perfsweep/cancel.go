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

package perfsweep

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
)

// cancel ends a sweep someone cancelled (perf.daprbench.io/cancel): its unfinished runs
// are cancelled in turn, so the one measuring stops its load, and no further point is
// made. Points already measured stay in the status. It reports whether the sweep was
// cancelled.
func (r *Reconciler) cancel(ctx context.Context, sw *perfv1alpha1.PerfSweep, q *pass.Events) (bool, error) {
	why, ok := perfv1alpha1.CancelRequested(sw.Annotations)
	if !ok || r.finishedSweep(sw) && !cancelledSweep(sw) {
		return false, nil
	}
	// Every pass of a cancelled sweep, not only the first: a run the cache had not yet
	// seen when the sweep was marked (created just before) is cancelled when it appears.
	var runs perfv1alpha1.PerfRunList
	if err := r.List(ctx, &runs, client.InNamespace(sw.Namespace), client.MatchingLabels{perfv1alpha1.LabelSweep: sw.Name}); err != nil {
		return true, err
	}
	for i := range runs.Items {
		run := &runs.Items[i]
		if !run.ControlledBy(sw, "PerfSweep") || run.Finished() {
			continue
		}
		if _, asked := perfv1alpha1.CancelRequested(run.Annotations); asked {
			continue
		}
		patch := client.MergeFrom(run.DeepCopy())
		metav1.SetMetaDataAnnotation(&run.ObjectMeta, perfv1alpha1.AnnotationCancel, "its sweep "+sw.Name+" was cancelled")
		if err := r.Patch(ctx, run, patch); client.IgnoreNotFound(err) != nil {
			return true, fmt.Errorf("cancelling run %s: %w", run.Name, err)
		}
	}
	if r.finishedSweep(sw) {
		return true, nil
	}
	if why == "" {
		why = "no reason given"
	}
	why = diagnose.Quote(why, 1024) // the annotation may hold 256 KiB of anything; a message, 32 KiB of one line
	for i := range sw.Status.Points {
		if p := &sw.Status.Points[i]; !pointFinished(p) {
			p.Phase, p.Message = perfv1alpha1.PhaseFailed, "cancelled with its sweep"
		}
	}
	now := metav1.NewTime(r.Clock.Now())
	sw.Status.Phase, sw.Status.CompletionTime = perfv1alpha1.PhaseFailed, &now
	msg := "cancelled: " + why
	meta.SetStatusCondition(&sw.Status.Conditions, metav1.Condition{Type: perfv1alpha1.ConditionFailed, Status: metav1.ConditionTrue,
		Reason: perfv1alpha1.ReasonCancelled, Message: msg, ObservedGeneration: sw.Generation})
	q.Eventf(corev1.EventTypeWarning, perfv1alpha1.ReasonCancelled, "Cancel", "%s", msg)
	return true, nil
}

func cancelledSweep(sw *perfv1alpha1.PerfSweep) bool {
	c := meta.FindStatusCondition(sw.Status.Conditions, perfv1alpha1.ConditionFailed)
	return c != nil && c.Reason == perfv1alpha1.ReasonCancelled
}
