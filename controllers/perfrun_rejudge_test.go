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
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
)

// editSpec changes a run's spec as a user would (a new generation).
func editSpec(run *perfv1alpha1.PerfRun, edit func(*perfv1alpha1.PerfRunSpec)) {
	Eventually(func() error {
		current := latest(run)
		edit(&current.Spec)
		return k8sClient.Update(suiteCtx, current)
	}).Should(Succeed())
}

func configMap(ns, name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

var _ = Describe("A run's result document", func() {
	It("is written once into an immutable ConfigMap the run owns, which the API server keeps from being changed and readers refuse when replaced", func() {
		ns := newNamespace()
		run := createRun(ns, "doc", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "doc-target")
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		h := latest(run).Status.Result
		Expect(h.Document).To(HavePrefix("doc-result-"))
		Expect(h.Digest).To(MatchRegexp("^sha256:[0-9a-f]{64}$"))
		doc := documentOf(run)
		Expect(doc.Run.UID).To(Equal(string(latest(run).UID)))
		Expect(doc.Result.Added.P90).To(Equal(h.Added.P90), "the headline is the document's")
		Expect(doc.Result.Repetitions).To(HaveLen(2*perfv1alpha1.DefaultRepetitions), "every repetition of both paths")
		Expect(doc.Histograms).To(HaveLen(2))

		cm := configMap(ns, h.Document)
		Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(cm), cm)).To(Succeed())
		Expect(metav1.IsControlledBy(cm, latest(run))).To(BeTrue())
		Expect(ptr.Deref(cm.Immutable, false)).To(BeTrue())
		version := cm.ResourceVersion

		By("the API server refuses a change of its data")
		cm.BinaryData[document.Key] = []byte("forged")
		Expect(apierrors.IsInvalid(k8sClient.Update(suiteCtx, cm))).To(BeTrue(), "an immutable ConfigMap's data cannot change")

		By("passes over the finished run write nothing again")
		touched := latest(run)
		touched.Annotations = map[string]string{"example.com/touched": "yes"}
		Expect(k8sClient.Update(suiteCtx, touched)).To(Succeed())
		Consistently(func() string { return latest(run).Status.Result.Document }, 2*time.Second).Should(Equal(h.Document))
		Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(cm), cm)).To(Succeed())
		Expect(cm.ResourceVersion).To(Equal(version), "never rewritten")

		By("a document replaced by anyone who may write ConfigMaps is not read as the run's")
		Expect(k8sClient.Delete(suiteCtx, cm)).To(Succeed())
		forged := doc.DeepCopy()
		forged.Result.Added.P90 = &metav1.Duration{Duration: time.Microsecond}
		enc, err := document.Encode(forged)
		Expect(err).NotTo(HaveOccurred())
		replacement := document.ConfigMap(latest(run), enc, nil)
		replacement.GenerateName, replacement.Name = "", h.Document
		Expect(k8sClient.Create(suiteCtx, replacement)).To(Succeed())
		_, _, err = document.Read(suiteCtx, k8sClient, latest(run))
		Expect(err).To(MatchError(ContainSubstring("not the run's " + h.Digest)))
	})
})

var _ = Describe("PerfRun reruns", func() {
	It("re-judges a thresholds-only edit without measuring again, and keeps the last good result through a failed rerun", func() {
		ns := newNamespace()
		run := createRun(ns, "rejudged", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Thresholds = &perfv1alpha1.Thresholds{MaxP99: &metav1.Duration{Duration: time.Hour}, FailRun: true}
			s.Cleanup = perfv1alpha1.CleanupNever // envtest collects no garbage: the target stays, as on a cluster it would be recreated
		})
		markAvailable(ns, "rejudged-target")
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		first := latest(run).Status
		Expect(first.LastSuccessful).NotTo(BeNil())
		Expect(first.LastSuccessful.Generation).To(Equal(int64(1)))
		Expect(first.LastSuccessful.Latency.P99).To(Equal(first.Result.Latency.P99))
		Expect(first.LastSuccessful.Document).To(Equal(first.Result.Document))

		By("a stricter threshold: the same result, judged again")
		editSpec(run, func(s *perfv1alpha1.PerfRunSpec) { s.Thresholds.MaxP99 = &metav1.Duration{Duration: time.Microsecond} })
		c := failedWith(run, perfv1alpha1.ReasonThresholdsViolated)
		Expect(c.Message).To(ContainSubstring("re-judged: generation 2 changed only the thresholds"))
		st := latest(run).Status
		rejudged := st.Result
		Expect(st.ObservedGeneration).To(Equal(int64(2)))
		Expect(st.Result.Generation).To(Equal(int64(2)), "the result answers generation 2")
		Expect(st.Result.Latency).To(Equal(first.Result.Latency), "not measured again")
		Expect(st.Result.Document).NotTo(Equal(first.Result.Document), "a new document holds the new verdict")
		Expect(documentOf(run).Conditions).To(ContainElement(HaveField("Reason", perfv1alpha1.ReasonThresholdsViolated)))
		Expect(documentOf(run).Result.Generation).To(Equal(int64(2)))
		Expect(exists(configMap(ns, first.Result.Document))()).To(BeTrue(), "the last good result's document stays")
		Expect(exists(&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rejudged-load-2"}})()).To(BeFalse(), "no load for a thresholds-only edit")
		Expect(st.LastSuccessful.Generation).To(Equal(int64(1)))

		By("a change to what is measured reruns; its failure keeps the last good result")
		editSpec(run, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.QPS = 500
			s.Thresholds.MaxP99 = &metav1.Duration{Duration: time.Hour}
		})
		markAvailable(ns, "rejudged-target")
		finishLoad(run, result.Summary{RequestedQPS: 500, Error: "dapr path, repetition 1: connection refused",
			Runs: []result.Run{summaryRun(result.Baseline, 0, 600)}}, false)
		failedWith(run, perfv1alpha1.ReasonLoadTesterFailed)
		st = latest(run).Status
		Expect(st.ObservedGeneration).To(Equal(int64(3)))
		Expect(st.LastSuccessful.Generation).To(Equal(int64(1)), "a failed rerun never replaces the last good result")
		Expect(st.LastSuccessful.RequestedQPS).To(Equal(int32(1000)))
		Expect(documentOf(run).Result.Generation).To(Equal(int64(3)), "the failed rerun's partial result is the run's")
		Eventually(exists(configMap(ns, rejudged.Document))).Should(BeFalse(), "generation 2's document is retired: neither result nor lastSuccessful names it")
		Expect(exists(configMap(ns, first.LastSuccessful.Document))()).To(BeTrue(), "the last good result's document stays")
	})
})

var _ = Describe("PerfSweep edits", func() {
	It("stop the previous generation's runs before planning anew, keeping their points until they are gone", func() {
		ns := newNamespace()
		sw := createSweep(ns, "edited", func(s *perfv1alpha1.PerfSweepSpec) {
			s.Points = &perfv1alpha1.SweepPoints{QPS: []int32{10, 20}}
		})
		old := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "edited-1-0"}}
		Eventually(exists(old)).Should(BeTrue())
		// A finalizer holds the old run as a slow deletion would on a cluster (its Job's pods
		// stopping): meanwhile it still loads.
		Eventually(func() error {
			r := latest(old)
			r.Finalizers = append(r.Finalizers, "test.daprbench.io/hold")
			return k8sClient.Update(suiteCtx, r)
		}).Should(Succeed())

		Eventually(func() error {
			current := sweepOf(sw)
			current.Spec.Points.QPS = []int32{30}
			return k8sClient.Update(suiteCtx, current)
		}).Should(Succeed())
		Eventually(func() bool { return !latest(old).DeletionTimestamp.IsZero() }).Should(BeTrue(), "the old generation's run is stopped")
		Consistently(func() int64 { return sweepOf(sw).Status.ObservedGeneration }, 2*time.Second).Should(Equal(int64(1)),
			"the points stay while the old run still loads")
		Expect(sweepOf(sw).Status.Points).To(HaveLen(2))
		Expect(exists(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "edited-2-0"}})()).To(BeFalse(), "nothing measures beside it")

		Eventually(func() error {
			r := latest(old)
			r.Finalizers = nil
			return k8sClient.Update(suiteCtx, r)
		}).Should(Succeed())
		Eventually(func() int64 { return sweepOf(sw).Status.ObservedGeneration }, 10*time.Second).Should(Equal(int64(2)))
		Expect(sweepOf(sw).Status.Points).To(HaveLen(1))
		Eventually(exists(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "edited-2-0"}})).Should(BeTrue())
	})
})
