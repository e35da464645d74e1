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
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A condition's event says what its change means: a run disturbed, throttled or saturated
// warns, one that was not does not (the old rule warned on every False and on no True but
// Regressed, so Undisturbed, NotThrottled and NotSaturated came out as Warnings and their
// bad forms as Normal).
func TestAConditionsEventTypeSaysWhatItsChangeMeans(t *testing.T) {
	for _, c := range []struct {
		typ    string
		status metav1.ConditionStatus
		reason string
		want   string
	}{
		{perfv1alpha1.ConditionDisturbed, metav1.ConditionTrue, "PodRestarted", corev1.EventTypeWarning},
		{perfv1alpha1.ConditionDisturbed, metav1.ConditionFalse, perfv1alpha1.ReasonUndisturbed, corev1.EventTypeNormal},
		{perfv1alpha1.ConditionCPULimitBound, metav1.ConditionTrue, "Throttled", corev1.EventTypeWarning},
		{perfv1alpha1.ConditionCPULimitBound, metav1.ConditionFalse, "NotThrottled", corev1.EventTypeNormal},
		{perfv1alpha1.ConditionSaturated, metav1.ConditionTrue, "Saturated", corev1.EventTypeWarning},
		{perfv1alpha1.ConditionSaturated, metav1.ConditionFalse, "RateCarried", corev1.EventTypeNormal},
		{perfv1alpha1.ConditionWorkloadsReady, metav1.ConditionFalse, perfv1alpha1.ReasonProvisioning, corev1.EventTypeNormal},
		{perfv1alpha1.ConditionDaprReady, metav1.ConditionFalse, "DaprNotFound", corev1.EventTypeWarning},
		{perfv1alpha1.ConditionQueued, metav1.ConditionTrue, "WaitingForNode", corev1.EventTypeNormal},
		{perfv1alpha1.ConditionThresholdsMet, metav1.ConditionUnknown, perfv1alpha1.ReasonInconclusive, corev1.EventTypeWarning},
	} {
		if got := eventType(metav1.Condition{Type: c.typ, Status: c.status, Reason: c.reason}); got != c.want {
			t.Errorf("%s=%s (%s): %s event, want %s", c.typ, c.status, c.reason, got, c.want)
		}
	}
}
