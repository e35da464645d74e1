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
	"context"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// A hold outlives no run: once the run that ordered it stops measuring, the service's new
// pods are let back, though the hold had seconds left. Until then each new pod goes as it
// comes, unnamed in the answer (a Deployment's get a new name each time).
//
// A fake client (controller-runtime's) stands in for the API server and the manager's cache:
// the run's end is its status, which no controller here would write at a chosen moment.
func TestAHoldEndsWhenItsRunStopsMeasuring(t *testing.T) {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "outage", Namespace: "team", UID: "u1"},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseRunning}}
	pod := func(name string, isReady bool) *corev1.Pod {
		// Its own UID, as the API server gives each pod (the fake client gives none).
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "dapr-system", UID: types.UID("uid-" + name),
			Labels: map[string]string{"app": workload.SentryApp}}}
		if isReady {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		}
		return p
	}
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(run, pod("dapr-sentry-aaaaa", true)).WithStatusSubresource(run).Build()
	// The route's first look that finds the run stopped: no look that found it running is
	// under way after it (the hold looks, then deletes, one pass at a time).
	sawStopped := make(chan struct{})
	var once sync.Once
	route := interceptor.NewClient(c, interceptor.Funcs{Get: func(ctx context.Context, cl client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
		err := cl.Get(ctx, key, obj, opts...)
		if r, ok := obj.(*perfv1alpha1.PerfRun); ok && err == nil && r.Status.Phase != perfv1alpha1.PhaseRunning {
			once.Do(func() { close(sawStopped) })
		}
		return err
	}})
	s := &Server{Client: route, APIReader: c, DaprNamespace: "dapr-system", AllowControlPlane: true, Log: logr.Discard(), Poll: 10 * time.Millisecond}

	start := time.Now()
	const hold, deadline = 10 * time.Second, 2 * time.Second
	type answer struct {
		deleted string
		err     error
		took    time.Duration
	}
	done := make(chan answer, 1)
	go func() {
		ans, err := s.killControlPlane(context.Background(), run.DeepCopy(), workload.SentryApp, start.Add(hold), start.Add(deadline))
		done <- answer{ans.Deleted, err, time.Since(start)}
	}()
	gone := func(name string) bool {
		return apierrors.IsNotFound(c.Get(context.Background(), client.ObjectKey{Namespace: "dapr-system", Name: name}, &corev1.Pod{}))
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for end := time.Now().Add(time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%s: not within a second", what)
			}
		}
	}
	waitFor("the service's pod deleted at the order", func() bool { return gone("dapr-sentry-aaaaa") })
	if err := c.Create(context.Background(), pod("dapr-sentry-bbbbb", false)); err != nil {
		t.Fatal(err)
	}
	waitFor("a pod the Deployment made during the hold deleted", func() bool { return gone("dapr-sentry-bbbbb") })

	run.Status.Phase = perfv1alpha1.PhaseSucceeded
	if err := c.Status().Update(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sawStopped:
	case <-time.After(time.Second):
		t.Fatal("the hold did not look at its run within a second of its stopping")
	}
	if err := c.Create(context.Background(), pod("dapr-sentry-ccccc", false)); err != nil {
		t.Fatal(err)
	}
	a := <-done
	if a.err != nil || a.deleted != "dapr-sentry-aaaaa" {
		t.Errorf("answer deleted %q, %v: want the pod deleted at the order alone", a.deleted, a.err)
	}
	if a.took >= hold/2 {
		t.Errorf("answered after %v: the hold of %v went on after its run had stopped measuring", a.took, hold)
	}
	if gone("dapr-sentry-ccccc") {
		t.Error("a pod made after the run stopped was deleted: the hold went on")
	}
}
