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

package perfsweep

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
)

// A point whose run finished but whose result document cannot be read fails with why when
// the document is gone for good, and is read again on a later pass when the API server only
// failed for a moment: a sweep never stalls on a point, nor drops one on a blip.
func TestAPointsUnreadableDocumentFailsItUnlessTheReadFailedForAMoment(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := perfv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	sw := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "conns", UID: "sweep-1", Generation: 1},
		Spec: perfv1alpha1.PerfSweepSpec{Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{
			Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 10}}}}}
	point := perfv1alpha1.SweepPointStatus{Step: 0, Connections: 1, QPS: 10, Run: "conns-1-0"}
	run := pointRun(sw, &point)
	run.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(sw, perfv1alpha1.GroupVersion.WithKind("PerfSweep"))}
	run.Status.Phase = perfv1alpha1.PhaseSucceeded
	meta.SetStatusCondition(&run.Status.Conditions, metav1.Condition{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonSucceeded})
	run.Status.Result = &perfv1alpha1.ResultHeadline{Generation: run.Generation, RequestedQPS: 10,
		Document: "conns-1-0-result-gone", Digest: "sha256:" + strings.Repeat("0", 64)}

	for name, tc := range map[string]struct {
		getConfigMap error
		done         bool
		message      string
	}{
		"gone":            {done: true, message: "the point's result cannot be read: reading the result document ns/conns-1-0-result-gone"},
		"for a moment":    {getConfigMap: apierrors.NewServiceUnavailable("the API server is restarting")},
		"a timeout":       {getConfigMap: apierrors.NewServerTimeout(schema.GroupResource{Resource: "configmaps"}, "get", 1)},
		"forbidden to it": {getConfigMap: apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "x", nil), done: true, message: "forbidden"},
	} {
		t.Run(name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(run.DeepCopy()).
				WithInterceptorFuncs(interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
					if _, ok := obj.(*corev1.ConfigMap); ok && tc.getConfigMap != nil {
						return tc.getConfigMap
					}
					return c.Get(ctx, key, obj, opts...)
				}}).Build()
			r := &Reconciler{Client: c, APIReader: c}
			s, p := sw.DeepCopy(), point
			done, err := r.measure(context.Background(), s, &p, &pass.Events{})
			if done != tc.done || (err != nil) == tc.done {
				t.Fatalf("measure: done %v, error %v", done, err)
			}
			if tc.done && (p.Phase != perfv1alpha1.PhaseFailed || !strings.Contains(p.Message, tc.message) || p.Document != "") {
				t.Errorf("the point: %s %q (document %q)", p.Phase, p.Message, p.Document)
			}
			if !tc.done && p.Phase != "" {
				t.Errorf("a point read again later was recorded %s", p.Phase)
			}
		})
	}
}
