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
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// testScheme knows the API's kinds and Kubernetes' own, for the fake clients that stand in
// for the manager's cache.
func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := perfv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return scheme
}

// A run whose spec was edited since it was admitted orders no kill: the queue weighed the
// spec it measures, and an edit may add a kill it never weighed (a control-plane kill
// holds the whole cluster). Its twin, the same run measuring the spec it holds, passes
// this check and is refused further on, for having no pod to kill.
//
// A fake client (controller-runtime's) stands in for the manager's cache: beside a real
// API server the controller resets an edited run to Pending within a reconcile, and the
// moment this check guards, between the edit and the reset, cannot be held still there.
func TestAKillIsRefusedForASpecEditedSinceAdmission(t *testing.T) {
	const token = "the-run's-token"
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: "edited", Namespace: "team", UID: "u1", Generation: 2},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{Repetitions: 2},
			Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
				At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}}},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseRunning, ObservedGeneration: 1, TokenDigest: workload.TokenDigest(token)},
	}
	order := func(run *perfv1alpha1.PerfRun) (int, string) {
		s := &Server{Client: fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(run).Build(), Log: logr.Discard(), Poll: time.Millisecond}
		body, _ := json.Marshal(ls.KillOrder{Namespace: run.Namespace, Run: run.Name, Role: ls.RoleTarget, Wait: time.Second})
		req := httptest.NewRequest(http.MethodPost, ls.KillPath, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}

	status, msg := order(run)
	if want := "run team/edited changed since it was admitted (generation 2, measuring 1)"; status != http.StatusConflict || !strings.Contains(msg, want) {
		t.Errorf("an edited run's order: %d %q, want %d with %q", status, msg, http.StatusConflict, want)
	}

	measuring := run.DeepCopy()
	measuring.Status.ObservedGeneration = 2
	status, msg = order(measuring)
	if want := "has no ready Target pod to kill"; status != http.StatusConflict || !strings.Contains(msg, want) {
		t.Errorf("the twin measuring its own spec: %d %q, want %d with %q", status, msg, http.StatusConflict, want)
	}
}
