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
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// cancel sets the annotation kubectl daprbench cancel sets.
func cancel(obj client.Object, why string) {
	Eventually(func() error {
		Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(obj), obj)).To(Succeed())
		patch := client.MergeFrom(obj.DeepCopyObject().(client.Object))
		annotations := obj.GetAnnotations()
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[perfv1alpha1.AnnotationCancel] = why
		obj.SetAnnotations(annotations)
		return k8sClient.Patch(suiteCtx, obj, patch)
	}).Should(Succeed())
}

// stopped: the Job sends no more load (suspended, or gone with the run's cleanup).
func stopped(job *batchv1.Job) func() bool {
	return func() bool {
		err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(job), job)
		return apierrors.IsNotFound(err) || err == nil && (ptr.Deref(job.Spec.Suspend, false) || !job.DeletionTimestamp.IsZero())
	}
}

var _ = Describe("Cancelling", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("stops a measuring run's load, keeps its record, and frees its place in the queue", Serial, func() {
		emptyQueue()
		run := createRun(ns, "doomed", perfv1alpha1.ScenarioServiceInvocation, exclusive)
		markAvailable(ns, "doomed-target")
		job := currentJobOf(run)
		startLoad(run)
		next := createRun(ns, "next", perfv1alpha1.ScenarioServiceInvocation, exclusive)
		Eventually(queuedReason(next)).Should(Equal(perfv1alpha1.ReasonWaitingForRun))

		cancel(run, "SIGINT in CI job 42")
		c := failedWith(run, perfv1alpha1.ReasonCancelled)
		Expect(c.Message).To(Equal("cancelled: SIGINT in CI job 42"))
		Eventually(stopped(job), 10*time.Second).Should(BeTrue(), "the load stops")
		Expect(exists(run)()).To(BeTrue(), "the run stays, with its record")
		// Cancel removes the workloads, as its help says (issue #62 item 10): under cleanup
		// OnSuccess a failed run keeps its pods for inspection, a cancelled one does not.
		target := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "doomed-target"}}
		Eventually(exists(target), 10*time.Second).Should(BeFalse(), "a cancelled run's target is removed (cleanup OnSuccess)")
		markAvailable(ns, "next-target") // the queued run takes the freed place, and creates its target
		Eventually(jobCount(next), 10*time.Second).Should(Equal(1), "the queued run takes the freed place")
	})

	It("removes a cancelled run's target whose daprd listened on the pod's address, whatever cleanup keeps", func() {
		run := createRun(ns, "opened", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
			s.Cleanup = perfv1alpha1.CleanupNever
		})
		markAvailable(ns, "opened-target")
		job := currentJobOf(run)
		startLoad(run)
		cancel(run, "seen enough")
		failedWith(run, perfv1alpha1.ReasonCancelled)
		target := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "opened-target"}}
		Eventually(exists(target), 10*time.Second).Should(BeFalse(), "the target's opened daprd API is closed")
		Expect(exists(job)()).To(BeTrue(), "the load tester's Job stays for inspection, as cleanup Never says")
	})

	It("ends a queued run before it creates anything", func() {
		run := createRun(ns, "never", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Timeout = &metav1.Duration{Duration: time.Hour}
		})
		cancel(run, strings.Repeat("x", 40000)) // an annotation may hold it; a condition's message may not
		Expect(len(failedWith(run, perfv1alpha1.ReasonCancelled).Message)).To(BeNumerically("<", 1100))
	})

	It("stops a sweep: its measuring run is cancelled and no further point is made", func() {
		sw := createSweep(ns, "doomed-sweep", func(s *perfv1alpha1.PerfSweepSpec) {
			s.Points = &perfv1alpha1.SweepPoints{Connections: []int32{1, 2, 4}}
		})
		first := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "doomed-sweep-1-0"}}
		Eventually(exists(first)).Should(BeTrue())
		cancel(sw, "kubectl daprbench cancel")
		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Phase }, 10*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		Expect(sweepOf(sw).Status.Conditions).To(ContainElement(And(
			HaveField("Type", perfv1alpha1.ConditionFailed), HaveField("Reason", perfv1alpha1.ReasonCancelled))))
		failedWith(first, perfv1alpha1.ReasonCancelled)
		Expect(sweepOf(sw).Status.Points).To(HaveEach(HaveField("Phase", perfv1alpha1.PhaseFailed)), "no point is left measuring")
		Consistently(exists(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "doomed-sweep-1-1"}}), 2*time.Second).Should(BeFalse())
	})
})
