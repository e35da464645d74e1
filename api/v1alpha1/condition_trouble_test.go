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

package v1alpha1

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Every condition type, in every status, reads as trouble or not as its meaning says: a run
// that was disturbed, throttled or saturated is trouble (it was Normal before), one that was
// not is none (it was a Warning); a gate not shown met is trouble; waiting in the queue,
// provisioning and a suspended schedule are not.
func TestEveryConditionStatusReadsAsItsMeaningSays(t *testing.T) {
	T, F, U := metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown
	want := map[string]map[metav1.ConditionStatus]bool{
		ConditionDaprReady:              {T: false, F: true, U: false},
		ConditionWorkloadsReady:         {T: false, F: true, U: false},
		ConditionSucceeded:              {T: false, F: true, U: false},
		ConditionFailed:                 {T: true, F: false, U: false},
		ConditionResourceUsageAvailable: {T: false, F: true, U: false},
		ConditionThresholdsMet:          {T: false, F: true, U: true},
		ConditionRegressed:              {T: true, F: false, U: false},
		ConditionSaturated:              {T: true, F: false, U: false},
		ConditionDisturbed:              {T: true, F: false, U: false},
		ConditionCPULimitBound:          {T: true, F: false, U: false},
		ConditionQueued:                 {T: false, F: false, U: false},
		ConditionScheduled:              {T: false, F: true, U: false},
		ConditionTemplateAdmitted:       {T: false, F: true, U: false},
	}
	if got := ConditionTypes(); len(got) != len(want) {
		t.Fatalf("condition types %v: the table covers %d", got, len(want))
	}
	for _, typ := range ConditionTypes() {
		for status, trouble := range want[typ] {
			if got := ConditionIsTrouble(metav1.Condition{Type: typ, Status: status, Reason: "AnyReason"}); got != trouble {
				t.Errorf("%s=%s reads as trouble %v, want %v", typ, status, got, trouble)
			}
		}
	}
	for _, c := range []metav1.Condition{
		{Type: ConditionWorkloadsReady, Status: F, Reason: ReasonProvisioning},
		{Type: ConditionScheduled, Status: F, Reason: ReasonSuspended},
		{Type: "SomethingNew", Status: F, Reason: "AnyReason"},
	} {
		if ConditionIsTrouble(c) {
			t.Errorf("%s=%s (%s) reads as trouble: all goes as asked", c.Type, c.Status, c.Reason)
		}
	}
}
