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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// An older CRD admitted what the current one refuses; such an object stays stored, and
// its kind's typed list cannot be decoded while it exists.
var _ = Describe("A stored PerfRun that cannot be decoded", Serial, func() {
	It("stops neither the other runs nor a restarted manager's cache", func() {
		ns := newNamespace()
		By("an older CRD, without the duration's checks, admits a duration that overflows Go's")
		restore := loosenMaxP90()
		DeferCleanup(restore)
		bad := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfRun",
			"metadata": map[string]any{"name": "undecodable", "namespace": ns},
			"spec": map[string]any{"scenario": "ServiceInvocation", "load": map[string]any{"qps": int64(10)},
				"dapr": map[string]any{"enabled": false}, "exclusive": false,
				"thresholds": map[string]any{"maxP90": "2562048h"}},
		}}
		Eventually(func() error { return k8sClient.Create(suiteCtx, bad) }).Should(Succeed(), "the older schema takes a while to serve")
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(suiteCtx, bad))).To(Succeed()) })
		restore()

		By("a run created beside it is reconciled")
		good := createRun(ns, "decodable", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Enabled = ptrTo(false)
		})
		Eventually(phaseOf(good)).Should(Equal(perfv1alpha1.PhaseProvisioning))

		By("a restarted manager syncs its cache and reconciles a new run")
		stopManager()
		stopManager = startManager()
		after := createRun(ns, "after-restart", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Enabled = ptrTo(false)
		})
		Eventually(phaseOf(after), 30e9).Should(Equal(perfv1alpha1.PhaseProvisioning))
	})
})

// A run the cache holds that stops decoding (changed under an older CRD) or is deleted
// while it does not decode must leave the cache: a ghost of its last version (a Running
// exclusive run) would hold the queue until the manager restarts.
var _ = Describe("A cached PerfRun that stops decoding", Serial, func() {
	It("leaves the cache as a deletion", func() {
		ns := newNamespace()
		run := createRun(ns, "turns-bad", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Enabled = ptrTo(false)
		})
		cached := func() error {
			return managerCache.Get(suiteCtx, client.ObjectKeyFromObject(run), &perfv1alpha1.PerfRun{})
		}
		Eventually(cached).Should(Succeed())

		By("an older CRD admits a duration that overflows Go's, and the run is changed to hold one")
		restore := loosenMaxP90()
		DeferCleanup(restore)
		patch := []byte(`{"spec":{"thresholds":{"maxP90":"2562048h"}}}`)
		// Unstructured: the API server's answer holds the duration, which the Go type cannot.
		target := &unstructured.Unstructured{}
		target.SetGroupVersionKind(perfv1alpha1.GroupVersion.WithKind("PerfRun"))
		target.SetNamespace(run.Namespace)
		target.SetName(run.Name)
		Eventually(func() error {
			return k8sClient.Patch(suiteCtx, target, client.RawPatch(types.MergePatchType, patch))
		}).Should(Succeed(), "the older schema takes a while to serve")
		Eventually(func() bool { return apierrors.IsNotFound(cached()) }, 10*time.Second).Should(BeTrue(),
			"the cache drops a run whose new version does not decode")
		restore()
	})
})

// loosenMaxP90 serves an older PerfRun CRD whose thresholds.maxP90 is any string; the
// returned func restores the current CRD.
func loosenMaxP90() func() {
	crd := &unstructured.Unstructured{}
	crd.SetGroupVersionKind(schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"})
	Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Name: "perfruns.perf.daprbench.io"}, crd)).To(Succeed())
	current := crd.DeepCopy()
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	maxP90 := []string{"schema", "openAPIV3Schema", "properties", "spec", "properties", "thresholds", "properties", "maxP90"}
	Expect(unstructured.SetNestedField(versions[0].(map[string]any), map[string]any{"type": "string"}, maxP90...)).To(Succeed())
	Expect(unstructured.SetNestedSlice(crd.Object, versions, "spec", "versions")).To(Succeed())
	Expect(k8sClient.Update(suiteCtx, crd)).To(Succeed())
	return func() {
		Eventually(func() error {
			latestCRD := crd.DeepCopy()
			if err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(crd), latestCRD); err != nil {
				return err
			}
			current.SetResourceVersion(latestCRD.GetResourceVersion())
			return k8sClient.Update(suiteCtx, current.DeepCopy())
		}).Should(Succeed())
	}
}

func ptrTo[T any](v T) *T { return &v }
