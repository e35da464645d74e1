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
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
)

// TestPreflightWithoutDaprCRDs runs the reconciler against an API server that has never
// heard of Dapr (its own envtest, without Dapr's CRDs): the run must fail at once with
// DaprNotInstalled, say how to fix it, and create nothing.
func TestPreflightWithoutDaprCRDs(t *testing.T) {
	c := ownAPIServer(t)
	ctx := context.Background()
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: "nodapr", Namespace: "default"},
		Spec:       perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}},
	}
	if err := c.Create(ctx, run); err != nil {
		t.Fatal(err)
	}
	recorder := events.NewFakeRecorder(10)
	r := &perfrun.Reconciler{Client: c, APIReader: c, Recorder: recorder, Clock: clock.RealClock{}, PollInterval: time.Second, ImageStartGrace: time.Minute}
	res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)})
	if err != nil || res.RequeueAfter != 0 {
		t.Fatalf("Reconcile = %+v, %v; want a final answer", res, err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(run), run); err != nil {
		t.Fatal(err)
	}
	failed := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed)
	if run.Status.Phase != perfv1alpha1.PhaseFailed || failed == nil || failed.Reason != perfv1alpha1.ReasonDaprNotInstalled {
		t.Fatalf("status = %+v", run.Status)
	}
	for _, want := range []string{"configurations.dapr.io", "spec.dapr.enabled=false"} {
		if !strings.Contains(failed.Message, want) {
			t.Errorf("message %q does not mention %q", failed.Message, want)
		}
	}
	if env := run.Status.Environment; env == nil || env.DaprInstalled == nil || *env.DaprInstalled {
		t.Errorf("environment = %+v, want daprInstalled=false", env)
	}
	var deploys appsv1.DeploymentList
	if err := c.List(ctx, &deploys, client.InNamespace("default")); err != nil || len(deploys.Items) != 0 {
		t.Errorf("deployments created: %d (%v)", len(deploys.Items), err)
	}
	select {
	case e := <-recorder.Events:
		if !strings.HasPrefix(e, "Warning DaprNotInstalled") {
			t.Errorf("event = %q", e)
		}
	default:
		t.Error("no event recorded")
	}
	// A second pass changes nothing and writes nothing.
	before := run.ResourceVersion
	if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)}); err != nil {
		t.Fatal(err)
	}
	_ = c.Get(ctx, client.ObjectKeyFromObject(run), run)
	if run.ResourceVersion != before {
		t.Error("a finished run's status was written again")
	}
}
