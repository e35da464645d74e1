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

package perfschedule

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/internal/kit/textcut"
)

// checkTemplate asks the API server whether it would admit a run made from the template —
// a dry-run create of the very run a slot would create — and says so in TemplateAdmitted.
// What only a run's admission checks (the grammar of a template label, which CEL cannot
// afford over the schedule's map; a ValidatingAdmissionPolicy; a quota) is then refused when
// the schedule is applied, not at its first slot, which may be a week away. An admitted
// template is not asked again until the spec changes; a refused one, or one the API server
// could not answer for, is asked again at the next pass (a quota may have room by then).
// Nothing here holds a slot back: a slot still tries its run and says what happened.
func (r *Reconciler) checkTemplate(ctx context.Context, s *perfv1alpha1.PerfSchedule, q *pass.Events) {
	old := meta.FindStatusCondition(s.Status.Conditions, perfv1alpha1.ConditionTemplateAdmitted)
	if old != nil && old.ObservedGeneration == s.Generation && old.Status == metav1.ConditionTrue {
		return
	}
	status, reason, msg := metav1.ConditionTrue, perfv1alpha1.ReasonTemplateAdmitted, "a run made from this template is admitted (dry run)"
	run, err := r.slotRun(s, r.Clock.Now())
	if err == nil {
		// A fixed name, not generateName: the API server's words name the run, and a
		// generated name would make every answer new, so the status would be written (and
		// the schedule reconciled again) on every pass.
		run.Name = s.Name + "-dry-run" // shorter than a slot's <schedule>-<minute>
		err = r.Create(ctx, run, client.DryRunAll)
	}
	switch {
	case err == nil:
	case apierrors.IsAlreadyExists(err) || strings.Contains(err.Error(), "does not support dry run"):
		// A run of that name exists, or an admission webhook with side effects answers every
		// dry run so: no answer.
		status, reason = metav1.ConditionUnknown, perfv1alpha1.ReasonTemplateNotChecked
		msg = "the template's run could not be checked (dry run): " + textcut.Truncate(err.Error(), 1000)
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err):
		status, reason = metav1.ConditionFalse, perfv1alpha1.ReasonTemplateRefused
		msg = "the API server refuses a run made from this template (dry run): " + textcut.Truncate(err.Error(), 1000)
	default:
		status, reason = metav1.ConditionUnknown, perfv1alpha1.ReasonTemplateNotChecked
		msg = "the template's run could not be checked (dry run), asked again at the next pass: " + textcut.Truncate(err.Error(), 1000)
	}
	c := metav1.Condition{Type: perfv1alpha1.ConditionTemplateAdmitted, Status: status, Reason: reason, Message: msg, ObservedGeneration: s.Generation}
	// Only trouble (a refused template) is an event, a Warning: the API's one table says so.
	if perfv1alpha1.ConditionIsTrouble(c) && (old == nil || old.Status != status || old.Message != msg) {
		q.Eventf(corev1.EventTypeWarning, reason, "Template", "%s", msg)
	}
	meta.SetStatusCondition(&s.Status.Conditions, c)
}
