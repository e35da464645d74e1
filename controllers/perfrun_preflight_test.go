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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
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

// TestPreflightRefusesPodsThatNeverFit: a pod asking for more than any node it may land on
// has allocatable is refused before anything is created (it used to wait out the image-start
// grace and fail PodsUnschedulable); its twin that fits goes on, and placement SameNode
// counts the target and a load-tester pod together.
func TestPreflightRefusesPodsThatNeverFit(t *testing.T) {
	c := ownAPIServer(t)
	ctx := context.Background()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "tiny", Labels: map[string]string{"pool": "bench"}}}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Create(ctx, node))
	node.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("4Gi")}
	must(c.Status().Update(ctx, node))

	r := &perfrun.Reconciler{Client: c, APIReader: c, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{}, PollInterval: time.Second, ImageStartGrace: time.Minute}
	preflight := func(name string, edit func(*perfv1alpha1.PerfRunSpec)) (*perfv1alpha1.PerfRun, *metav1.Condition) {
		t.Helper()
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: perfv1alpha1.PerfRunSpec{
			Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}, Dapr: perfv1alpha1.DaprSpec{Enabled: ptr.To(false)}}}
		run.Spec.Target.NodeSelector = map[string]string{"pool": "bench"}
		edit(&run.Spec)
		must(c.Create(ctx, run))
		_, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)})
		must(err)
		must(c.Get(ctx, client.ObjectKeyFromObject(run), run))
		return run, meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed)
	}
	cpu := func(q string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(q)}}
	}

	big, failed := preflight("too-big", func(s *perfv1alpha1.PerfRunSpec) { s.Target.Resources = cpu("3") })
	if big.Status.Phase != perfv1alpha1.PhaseFailed || failed == nil || failed.Reason != perfv1alpha1.ReasonPodsNeverFit {
		t.Fatalf("phase %s, failed %+v; want Failed with PodsNeverFit", big.Status.Phase, failed)
	}
	for _, w := range []string{"the target pod asks for cpu 3", "largest: tiny, cpu 2, memory 4Gi", "spec.target.resources"} {
		if !strings.Contains(failed.Message, w) {
			t.Errorf("message %q does not say %q", failed.Message, w)
		}
	}
	var deploys appsv1.DeploymentList
	must(c.List(ctx, &deploys, client.InNamespace("default")))
	if len(deploys.Items) != 0 {
		t.Errorf("a refused run created %d Deployments", len(deploys.Items))
	}

	// Past the preflight (DaprReady), a run goes on to the queue, which this bare client
	// cannot serve: only the preflight's verdict is checked.
	passed := func(run *perfv1alpha1.PerfRun) bool {
		return meta.IsStatusConditionTrue(run.Status.Conditions, perfv1alpha1.ConditionDaprReady)
	}
	if fits, failed := preflight("fits", func(s *perfv1alpha1.PerfRunSpec) { s.Target.Resources = cpu("1500m") }); !passed(fits) {
		t.Errorf("a run that fits was refused: %s %+v", fits.Status.Phase, failed)
	}
	together, failed := preflight("together", func(s *perfv1alpha1.PerfRunSpec) {
		s.Target.Resources, s.LoadTester.Resources, s.Placement = cpu("1500m"), cpu("1"), perfv1alpha1.PlacementSameNode
	})
	if failed == nil || failed.Reason != perfv1alpha1.ReasonPodsNeverFit || !strings.Contains(failed.Message, "placement SameNode") ||
		!strings.Contains(failed.Message, "cpu 2500m") {
		t.Errorf("%s: failed %+v; want PodsNeverFit for the target and the load tester on one node (2500m)", together.Status.Phase, failed)
	}
	// Where a node autoscaler adds larger nodes (--preflight-fit=false) the same run goes on.
	r.SkipFitCheck = true
	if allowed, failed := preflight("too-big-autoscaled", func(s *perfv1alpha1.PerfRunSpec) { s.Target.Resources = cpu("3") }); !passed(allowed) {
		t.Errorf("--preflight-fit=false still refused: %+v", failed)
	}
	r.SkipFitCheck = false
	// A selector no node matches is the scheduler's to answer: a pool may scale up from zero.
	if elsewhere, failed := preflight("elsewhere", func(s *perfv1alpha1.PerfRunSpec) {
		s.Target.Resources, s.Target.NodeSelector = cpu("3"), map[string]string{"pool": "large"}
	}); !passed(elsewhere) {
		t.Errorf("a run for a pool with no node yet was refused: %+v", failed)
	}
}
