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
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/internal/textcut"
)

// checkTemplate asks the API server, once per generation, whether it would admit a run made
// from the template — a dry-run create of the very run a slot would create — and says so in
// TemplateAdmitted. What only a run's admission checks (the grammar of a template label,
// which CEL cannot afford over the schedule's map; a ValidatingAdmissionPolicy; a quota) is
// then refused when the schedule is applied, not at its first slot, which may be a week
// away. A transient error is returned for a retry; a refusal is the answer.
func (r *Reconciler) checkTemplate(ctx context.Context, s *perfv1alpha1.PerfSchedule, q *pass.Events) error {
	if c := meta.FindStatusCondition(s.Status.Conditions, perfv1alpha1.ConditionTemplateAdmitted); c != nil && c.ObservedGeneration == s.Generation {
		return nil
	}
	run, err := r.slotRun(s, r.Clock.Now())
	if err != nil {
		return err
	}
	run.Name, run.GenerateName = "", s.Name+"-"
	err = r.Create(ctx, run, client.DryRunAll)
	status, reason, msg := metav1.ConditionTrue, perfv1alpha1.ReasonTemplateAdmitted, "a run made from this template is admitted (dry run)"
	switch {
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err):
		status, reason = metav1.ConditionFalse, perfv1alpha1.ReasonTemplateRefused
		msg = "the API server refuses a run made from this template (dry run): " + textcut.Truncate(err.Error(), 1000)
		q.Eventf(corev1.EventTypeWarning, reason, "Template", "%s", msg)
	case err != nil:
		return fmt.Errorf("dry-run of the template's run: %w", err)
	}
	meta.SetStatusCondition(&s.Status.Conditions, metav1.Condition{Type: perfv1alpha1.ConditionTemplateAdmitted, Status: status,
		Reason: reason, Message: msg, ObservedGeneration: s.Generation})
	return nil
}
