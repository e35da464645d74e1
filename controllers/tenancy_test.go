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
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// What one tenant, who may only create PerfRuns in its namespace, must not be able to do
// to the cluster or to other tenants (issue #34's findings 1-3 and 7).
var _ = Describe("A tenant on a shared cluster", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("cannot widen the image allowlist with a look-alike injector in a namespace it controls", func() {
		fake := deploymentSkeleton(ns, "dapr-sidecar-injector", map[string]string{"app": "dapr-sidecar-injector"}, "evil.io/x/y:1")
		fake.Spec.Replicas = ptr.To[int32](0)
		Expect(k8sClient.Create(suiteCtx, fake)).To(Succeed())
		run := createRun(ns, "lookalike", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.ControlPlaneNamespace = ns
			s.Target.Image = "evil.io/x/anything:1"
		})
		c := failedWith(run, perfv1alpha1.ReasonControlPlaneNotAllowed)
		Expect(c.Message).To(ContainSubstring(`spec.dapr.controlPlaneNamespace is "` + ns + `", but this operator reads Dapr's control plane only in "dapr-system"`))
		Expect(latest(run).Status.Environment.DaprVersion).To(BeEmpty(), "nothing is read from the named namespace")
		Expect(exists(deployment(ns, "lookalike-target"))()).To(BeFalse(), "nothing is created")

		By("the image alone, with the operator's control plane, is still refused")
		again := createRun(ns, "evil-image", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Target.Image = "evil.io/x/anything:1"
		})
		Expect(failedWith(again, perfv1alpha1.ReasonImageNotAllowed).Message).To(HavePrefix(`spec.target.image "evil.io/x/anything:1": not under an allowed repository path`))
	})

	It("cannot land load on tainted nodes the platform team did not open", func() {
		run := createRun(ns, "onmaster", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.LoadTester.Tolerations = []corev1.Toleration{{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
		})
		c := failedWith(run, perfv1alpha1.ReasonPlacementNotAllowed)
		Expect(c.Message).To(HavePrefix(`spec.loadTester.tolerations[0] (key "node-role.kubernetes.io/control-plane"): not allowed on this cluster`))
		Expect(exists(deployment(ns, "onmaster-target"))()).To(BeFalse(), "nothing is created")
	})

	It("cannot leave load running by editing its measuring run into one the preflight refuses", func() {
		run := createRun(ns, "edited", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "edited-target")
		job := currentJobOf(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		Eventually(func() error { // the controller writes the run meanwhile: retry on a conflict
			edited := latest(run)
			edited.Spec.Dapr.ControlPlaneNamespace = "elsewhere"
			return k8sClient.Update(suiteCtx, edited)
		}).Should(Succeed())
		failedWith(run, perfv1alpha1.ReasonControlPlaneNotAllowed)
		Eventually(func() bool {
			Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(job), job)).To(Succeed())
			return ptr.Deref(job.Spec.Suspend, false)
		}).Should(BeTrue(), "the earlier generation's Job is suspended: a run out of the queue sends no load")
	})

	It("learns nothing of another tenant's runs and nodes from its queued run", Serial, func() {
		emptyQueue()
		theirs := newNamespace()
		busy := createRun(theirs, "secret-project", perfv1alpha1.ScenarioServiceInvocation, exclusive)
		markAvailable(theirs, "secret-project-target")
		startLoad(busy)
		mine := createRun(ns, "mine", perfv1alpha1.ScenarioServiceInvocation, exclusive)
		Eventually(queuedMessage(mine)).Should(ContainSubstring("waiting for a run of another namespace (measuring on a node this run may use)"))
		Expect(queuedMessage(mine)()).NotTo(Or(ContainSubstring("secret-project"), ContainSubstring(theirs), ContainSubstring(testNode)))
		finishLoad(busy, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		markAvailable(ns, "mine-target")
		Eventually(jobCount(mine), 10*time.Second).Should(Equal(1))
	})

	It("cannot hold more than its share of runs, and its backlog creates nothing", Serial, func() {
		restartManagerWith(func(r *perfrun.Reconciler) { r.MaxRunsPerNamespace = 1 })
		first := createRun(ns, "first", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Timeout = &metav1.Duration{Duration: 3 * time.Hour} // it measures through the hour below
			s.Baseline = ptr.To(false)
		})
		markAvailable(ns, "first-target")
		startLoad(first)
		time.Sleep(10 * time.Millisecond) // a later creation time
		second := createRun(ns, "second", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.MaxQueueWait = &metav1.Duration{Duration: 2 * time.Hour} // past the hour below
		})
		Eventually(queuedReason(second)).Should(Equal(perfv1alpha1.ReasonNamespaceLimit))
		Expect(conditionOf(second, perfv1alpha1.ConditionQueued).Message).To(ContainSubstring("namespace " + ns + " has 1 earlier unfinished runs and the operator allows 1 at once"))
		Consistently(exists(deployment(ns, "second-target")), time.Second).Should(BeFalse(), "nothing is created while it waits")

		By("another tenant's run is not held back by this backlog")
		other := newNamespace()
		createRun(other, "elsewhere", perfv1alpha1.ScenarioServiceInvocation)
		Eventually(exists(deployment(other, "elsewhere-target"))).Should(BeTrue())

		By("the first run ends: the second takes the share, its wait counted as queue time")
		fakeClock.Step(time.Hour)
		finishLoad(first, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(first), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded), func() string { return fmt.Sprint(latest(first).Status.Conditions) })
		Eventually(exists(deployment(ns, "second-target")), 10*time.Second).Should(BeTrue(), func() string { return fmt.Sprint(latest(second).Status) })
		Eventually(func() *metav1.Duration { return latest(second).Status.QueueWait }).ShouldNot(BeNil())
		Expect(latest(second).Status.QueueWait.Duration).To(BeNumerically(">=", time.Hour))
	})
})
