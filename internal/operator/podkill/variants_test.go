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

package podkill

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// A run with sidecar variants has a target per variant, each its own Deployment: an order
// naming a variant deletes that variant's target pod and no other, one naming none the
// first's, and one naming a variant the run does not have is refused. A fake client stands
// in for the manager's cache (the route against a real API server is
// controllers/perfrun_podkill_test.go); no replacement appears in it, so each answer names
// the deleted pod alone, after the order's wait. One repetition: two kills in all, so a
// refused order that spent one would leave the last one refused.
func TestAKillOfAVariantsTargetDeletesThatVariantsPod(t *testing.T) {
	const token = "the-run's-token"
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: "sides", Namespace: "team", UID: "run-uid", Generation: 1},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{Repetitions: 1},
			Variants: []perfv1alpha1.SidecarVariant{{Name: "plain"}, {Name: "retried"}},
			Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
				At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}}},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseRunning, ObservedGeneration: 1, TokenDigest: workload.TokenDigest(token)},
	}
	objects := []client.Object{run}
	for _, v := range []string{"d", "d1"} {
		labels := workload.Selector(run, workload.RoleTarget)
		labels[workload.LabelVariant] = v
		owned := func(kind, name string, owner client.Object) metav1.ObjectMeta {
			return metav1.ObjectMeta{Name: name, Namespace: run.Namespace, UID: types.UID(name + "-uid"), Labels: labels,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "x/v1", Kind: kind, Name: owner.GetName(), UID: owner.GetUID(), Controller: ptr.To(true)}}}
		}
		d := &appsv1.Deployment{ObjectMeta: owned("PerfRun", "target-"+v, run)}
		rs := &appsv1.ReplicaSet{ObjectMeta: owned("Deployment", "target-"+v+"-rs", d)}
		pod := &corev1.Pod{ObjectMeta: owned("ReplicaSet", "target-"+v+"-pod", rs),
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}}
		objects = append(objects, d, rs, pod)
	}
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(objects...).Build()
	s := &Server{Client: c, Log: logr.Discard(), Poll: time.Millisecond}
	order := func(variant string) (int, string) {
		body, _ := json.Marshal(ls.KillOrder{Namespace: run.Namespace, Run: run.Name, Role: ls.RoleTarget, Variant: variant, Wait: 50 * time.Millisecond})
		req := httptest.NewRequest(http.MethodPost, ls.KillPath, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	exists := func(name string) bool {
		return c.Get(context.Background(), types.NamespacedName{Namespace: run.Namespace, Name: name}, &corev1.Pod{}) == nil
	}

	if status, msg := order("d7"); status != http.StatusBadRequest || !strings.Contains(msg, `has no sidecar variant "d7"`) {
		t.Errorf("an order for a variant the run lacks: %d %q, want %d naming it", status, msg, http.StatusBadRequest)
	}
	if !exists("target-d-pod") || !exists("target-d1-pod") {
		t.Fatal("a refused order deleted a pod")
	}
	if status, msg := order("d1"); status != http.StatusOK || !strings.Contains(msg, `"deleted":"target-d1-pod"`) {
		t.Errorf("the second variant's kill: %d %q, want its target pod deleted", status, msg)
	}
	if exists("target-d1-pod") || !exists("target-d-pod") {
		t.Errorf("after the second variant's kill: want its pod gone and the first's kept")
	}
	if status, msg := order(""); status != http.StatusOK || !strings.Contains(msg, `"deleted":"target-d-pod"`) {
		t.Errorf("the first variant's kill: %d %q, want its target pod deleted", status, msg)
	}
}
