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

package assess

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// The pods a PodKill made leave the run Undisturbed, and the condition says how many there
// were, so a reader of the run's conditions alone is not told no pod came and went.
func TestAKillsOwnPodsLeaveTheRunUndisturbedAndAreCounted(t *testing.T) {
	start := time.Unix(1_000, 0)
	applied := []result.AppliedFault{{Fault: 0, Variant: result.Dapr, StartUnixNano: start.UnixNano(), EndUnixNano: start.Add(5 * time.Second).UnixNano(),
		Pod: "orders-store-6d4f-abcde", Replacement: "orders-store-6d4f-fghij", Ready: true}}
	made := perfv1alpha1.Disturbance{Kind: perfv1alpha1.DisturbanceCreated, Pod: "orders-store-6d4f-fghij", Time: metav1.NewTime(start.Add(2 * time.Second))}
	disturbed := func(ds ...perfv1alpha1.Disturbance) *metav1.Condition {
		var a Assessment
		a.judgeDisturbances(&perfv1alpha1.PerfRun{}, ds, nil, applied)
		return meta.FindStatusCondition(a.Conditions, perfv1alpha1.ConditionDisturbed)
	}
	c := disturbed(made)
	if c == nil || c.Status != metav1.ConditionFalse || !strings.Contains(c.Message, "besides the 1 the run's PodKill made on purpose") {
		t.Errorf("with the kill's own pod: %+v", c)
	}
	if c := disturbed(); c == nil || c.Status != metav1.ConditionFalse || strings.Contains(c.Message, "PodKill") {
		t.Errorf("with no pod at all: %+v", c)
	}
	stranger := perfv1alpha1.Disturbance{Kind: perfv1alpha1.DisturbanceCreated, Pod: "orders-target-77-zzzzz", Time: metav1.NewTime(start.Add(2 * time.Second))}
	if c := disturbed(made, stranger); c == nil || c.Status != metav1.ConditionTrue {
		t.Errorf("with another pod beside it: %+v", c)
	}
}
