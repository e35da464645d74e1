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
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

func exclusive(s *perfv1alpha1.PerfRunSpec) { s.Exclusive = nil; s.Baseline = ptr.To(false) }

// emptyQueue deletes the unfinished PerfRuns earlier specs left behind (envtest runs no
// namespace controller: deleting their namespaces keeps them), and first the sweeps and
// schedules that would make them again. An admitted run holds its nodes until it ends, and
// theirs never end; a spec of the queue starts from none.
func emptyQueue() {
	var sweeps perfv1alpha1.PerfSweepList
	Expect(k8sClient.List(suiteCtx, &sweeps)).To(Succeed())
	for i := range sweeps.Items {
		Expect(client.IgnoreNotFound(k8sClient.Delete(suiteCtx, &sweeps.Items[i]))).To(Succeed())
	}
	var schedules perfv1alpha1.PerfScheduleList
	Expect(k8sClient.List(suiteCtx, &schedules)).To(Succeed())
	for i := range schedules.Items {
		Expect(client.IgnoreNotFound(k8sClient.Delete(suiteCtx, &schedules.Items[i]))).To(Succeed())
	}
	unfinished := func() []perfv1alpha1.PerfRun {
		var runs perfv1alpha1.PerfRunList
		Expect(k8sClient.List(suiteCtx, &runs)).To(Succeed())
		return slices.DeleteFunc(runs.Items, func(r perfv1alpha1.PerfRun) bool { return r.Finished() })
	}
	for _, run := range unfinished() {
		Expect(client.IgnoreNotFound(k8sClient.Delete(suiteCtx, &run))).To(Succeed())
	}
	Eventually(func() int { return len(unfinished()) }).Should(BeZero())
}

func queuedMessage(run *perfv1alpha1.PerfRun) func() string {
	return func() string {
		c := meta.FindStatusCondition(latest(run).Status.Conditions, perfv1alpha1.ConditionQueued)
		if c == nil || c.Status != metav1.ConditionTrue {
			return ""
		}
		return c.Message
	}
}

// queuedReason is the reason of the run's Queued condition, empty while it has none.
func queuedReason(run *perfv1alpha1.PerfRun) func() string {
	return func() string {
		if c := conditionOf(run, perfv1alpha1.ConditionQueued); c != nil {
			return c.Reason
		}
		return ""
	}
}

func jobCount(run *perfv1alpha1.PerfRun) func() int {
	return func() int {
		var jobs batchv1.JobList
		Expect(k8sClient.List(suiteCtx, &jobs, client.InNamespace(run.Namespace))).To(Succeed())
		n := 0
		for _, j := range jobs.Items {
			if j.Labels["perf.daprbench.io/run"] == run.Name {
				n++
			}
		}
		return n
	}
}

var _ = Describe("The run queue", Serial, func() {
	var ns string
	BeforeEach(func() {
		emptyQueue()
		ns = newNamespace()
	})

	It("holds exclusive runs while another measures on their node, first come first served; a deleted run leaves the queue", func() {
		first := createRun(ns, "first", perfv1alpha1.ScenarioServiceInvocation, exclusive, func(s *perfv1alpha1.PerfRunSpec) {
			s.Timeout = &metav1.Duration{Duration: 3 * time.Hour} // it measures through the hour below
		})
		markAvailable(ns, "first-target")
		startLoad(first)

		waitLong := func(s *perfv1alpha1.PerfRunSpec) { s.MaxQueueWait = &metav1.Duration{Duration: 2 * time.Hour} } // past the hour below
		second := createRun(ns, "second", perfv1alpha1.ScenarioServiceInvocation, exclusive, waitLong)
		Eventually(queuedMessage(second)).Should(ContainSubstring("waiting for PerfRun " + ns + "/first (measuring on node " + testNode))
		time.Sleep(10 * time.Millisecond) // a later creation time for the third
		third := createRun(ns, "third", perfv1alpha1.ScenarioServiceInvocation, exclusive, waitLong)
		Eventually(queuedMessage(third)).ShouldNot(BeEmpty())
		Consistently(jobCount(second), time.Second).Should(BeZero(), "no load while the first measures")
		Expect(jobCount(third)()).To(BeZero())
		// A queued run holds nothing: no target, no pods, no CPU request on the node.
		for _, name := range []string{"second-target", "third-target"} {
			Expect(exists(deployment(ns, name))()).To(BeFalse(), "%s exists while its run waits in the queue", name)
		}
		// Time spent queued does not count against the timeout (5m20s for the second).
		fakeClock.Step(time.Hour)
		Consistently(phaseOf(second), time.Second).ShouldNot(Equal(perfv1alpha1.PhaseFailed))

		By("the first run ends: the second, queued first, goes; the third waits for it")
		finishLoad(first, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(first)).Should(Equal(perfv1alpha1.PhaseSucceeded))
		markAvailable(ns, "second-target") // admitted, it creates its target
		Eventually(jobCount(second), 10*time.Second).Should(Equal(1))
		Eventually(queuedMessage(third)).Should(ContainSubstring(ns + "/second (measuring"))
		Expect(exists(deployment(ns, "third-target"))()).To(BeFalse())
		Expect(latest(second).Status.QueueWait.Duration).To(BeNumerically(">=", time.Hour))
		// The Job is created before the status that says so is written.
		Eventually(queuedReason(second)).Should(Equal(perfv1alpha1.ReasonAdmitted))

		By("deleting the measuring run frees the node for the third")
		Expect(k8sClient.Delete(suiteCtx, latest(second))).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(second), &perfv1alpha1.PerfRun{}))
		}).Should(BeTrue())
		markAvailable(ns, "third-target")
		Eventually(jobCount(third), 10*time.Second).Should(Equal(1))
		finishLoad(third, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(third)).Should(Equal(perfv1alpha1.PhaseSucceeded))
	})

	It("admits one of several runs applied together, before the cache shows any of them; the others create nothing", func() {
		var runs []*perfv1alpha1.PerfRun
		for _, name := range []string{"burst-1", "burst-2", "burst-3", "burst-4"} {
			runs = append(runs, createRun(ns, name, perfv1alpha1.ScenarioServiceInvocation, exclusive))
		}
		admitted := func() (n int) {
			for _, run := range runs {
				if latest(run).Admitted() {
					n++
				}
			}
			return n
		}
		targets := func() (n int) {
			for _, run := range runs {
				if exists(deployment(ns, run.Name+"-target"))() {
					n++
				}
			}
			return n
		}
		Eventually(admitted).Should(Equal(1))
		Consistently(func() []int { return []int{admitted(), targets()} }, 2*time.Second).Should(HaveEach(BeNumerically("<=", 1)),
			"one run holds the node; the others wait without a target")
	})

	It("stops an edited run's old load before the run queues again", func() {
		edited := createRun(ns, "edited", perfv1alpha1.ScenarioServiceInvocation, exclusive)
		markAvailable(ns, "edited-target")
		old := currentJobOf(edited)
		startLoad(edited)
		updated := latest(edited)
		updated.Spec.Load.QPS = 2000
		Expect(k8sClient.Update(suiteCtx, updated)).To(Succeed())
		Eventually(exists(old), 10*time.Second).Should(BeFalse(), "the old generation's Job, whose load would run on while the queue gives its node away")
		markAvailable(ns, "edited-target")
		Eventually(func() string { return currentJobOf(edited).Name }, 10*time.Second).Should(Equal("edited-load-2"))
	})

	It("fails a run queued past its maxQueueWait with QueueTimeout, naming the run it waited for", func() {
		hog := createRun(ns, "hog", perfv1alpha1.ScenarioServiceInvocation, exclusive, func(s *perfv1alpha1.PerfRunSpec) {
			s.Timeout = &metav1.Duration{Duration: 72 * time.Hour}
		})
		markAvailable(ns, "hog-target")
		startLoad(hog)
		patient := createRun(ns, "patient", perfv1alpha1.ScenarioServiceInvocation, exclusive, func(s *perfv1alpha1.PerfRunSpec) {
			s.MaxQueueWait = &metav1.Duration{Duration: 10 * time.Minute}
		})
		Eventually(queuedMessage(patient)).Should(ContainSubstring(ns + "/hog (measuring"))
		fakeClock.Step(9 * time.Minute)
		Consistently(phaseOf(patient), time.Second).ShouldNot(Equal(perfv1alpha1.PhaseFailed), "within its maxQueueWait")
		fakeClock.Step(2 * time.Minute)
		c := failedWith(patient, perfv1alpha1.ReasonQueueTimeout)
		Expect(c.Message).To(ContainSubstring("past spec.maxQueueWait (10m0s), behind PerfRun " + ns + "/hog (measuring"))
		Expect(jobCount(patient)()).To(BeZero(), "it never loaded")
		Expect(exists(deployment(ns, "patient-target"))()).To(BeFalse(), "nor created anything")
		finishLoad(hog, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(hog)).Should(Equal(perfv1alpha1.PhaseSucceeded))
	})

	It("starts a run that opts out beside other shared runs, never beside an exclusive one", func() {
		sharedQueued := func(name string) *perfv1alpha1.PerfRun {
			return createRun(ns, name, perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
				s.Exclusive = ptr.To(false)
				s.Baseline = ptr.To(false)
			})
		}
		shared := func(name string) *perfv1alpha1.PerfRun {
			run := sharedQueued(name)
			markAvailable(ns, name+"-target")
			return run
		}
		done := func(run *perfv1alpha1.PerfRun) {
			finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
			Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseSucceeded))
		}
		first := shared("shared-1")
		Eventually(jobCount(first), 10*time.Second).Should(Equal(1))
		second := shared("shared-2")
		Eventually(jobCount(second), 10*time.Second).Should(Equal(1), "two shared runs measure side by side")
		Eventually(queuedReason(second)).Should(Equal(perfv1alpha1.ReasonAdmitted), "the Job is created before the status that says so")

		By("an exclusive run waits for the shared runs measuring on its node")
		alone := createRun(ns, "alone", perfv1alpha1.ScenarioServiceInvocation, exclusive)
		Eventually(queuedMessage(alone)).Should(ContainSubstring("waiting for PerfRun " + ns + "/shared-1 (measuring on node " + testNode))

		By("a shared run created now waits behind the queued exclusive run: a tenant cannot pin load beside it")
		time.Sleep(10 * time.Millisecond)
		late := sharedQueued("shared-3")
		Eventually(queuedMessage(late)).Should(ContainSubstring("waiting for PerfRun " + ns + "/alone (queued ahead"))
		done(first)
		done(second)
		markAvailable(ns, "alone-target")
		Eventually(jobCount(alone), 10*time.Second).Should(Equal(1))
		Eventually(queuedMessage(late)).Should(ContainSubstring(ns + "/alone (measuring"))
		Consistently(jobCount(late), time.Second).Should(BeZero())
		done(alone)
		markAvailable(ns, "shared-3-target")
		Eventually(jobCount(late), 10*time.Second).Should(Equal(1))
		done(late)
	})
})
