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
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// runScheduler plays a Dapr install's scheduler: one running pod of its StatefulSet.
func runScheduler() {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "dapr-system", Name: "dapr-scheduler-server-0",
		Labels: map[string]string{"app": "dapr-scheduler-server"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "dapr-scheduler-server", Image: "ghcr.io/dapr/scheduler:1.16.0"}}}}
	Expect(client.IgnoreAlreadyExists(k8sClient.Create(suiteCtx, pod))).To(Succeed())
	setPodStatus(pod, corev1.PodRunning, func(string) corev1.ContainerState {
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
	}, true)
}

// setInjectorImage makes the suite's Dapr another version (the preflight reads it from the
// sidecar injector's image tag).
func setInjectorImage(image string) {
	d := deployment("dapr-system", "dapr-sidecar-injector")
	Eventually(func() error {
		if err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(d), d); err != nil {
			return err
		}
		d.Spec.Template.Spec.Containers[0].Image = image
		return k8sClient.Update(suiteCtx, d)
	}).Should(Succeed())
}

var _ = Describe("PerfRun Workflow scenario", Ordered, func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("fails with DaprFeatureMissing on a Dapr older than 1.15", func() {
		run := createRun(ns, "olddapr", perfv1alpha1.ScenarioWorkflow)
		c := failedWith(run, perfv1alpha1.ReasonDaprFeatureMissing)
		Expect(c.Message).To(ContainSubstring("scenario Workflow needs Dapr 1.15 or later"))
		Expect(c.Message).To(ContainSubstring("the control plane is Dapr 1.14.4"))
	})

	It("fails with DaprFeatureMissing, creating nothing, on a cluster whose Dapr runs no scheduler", func() {
		setInjectorImage("ghcr.io/dapr/dapr:1.16.0")
		DeferCleanup(setInjectorImage, injectorImage)
		run := createRun(ns, "nosched", perfv1alpha1.ScenarioWorkflow)
		c := failedWith(run, perfv1alpha1.ReasonDaprFeatureMissing)
		Expect(c.Message).To(ContainSubstring(`scenario Workflow needs Dapr's scheduler, and no pod labelled app=dapr-scheduler-server runs in namespace "dapr-system"`))
		Expect(exists(daprObj("Component", ns, "nosched-statestore"))()).To(BeFalse(), "nothing is created")
	})

	It("hosts the workflows in the load tester on an in-memory actor store it owns, and reports completion and the instances", func() {
		setInjectorImage("ghcr.io/dapr/dapr:1.16.0")
		DeferCleanup(setInjectorImage, injectorImage)
		runScheduler()
		run := createRun(ns, "orders", perfv1alpha1.ScenarioWorkflow, func(s *perfv1alpha1.PerfRunSpec) {
			s.Workflow = &perfv1alpha1.WorkflowSpec{Pattern: perfv1alpha1.WorkflowChain, Activities: 3}
			s.Thresholds = &perfv1alpha1.Thresholds{MaxCompletionP99: &metav1.Duration{Duration: time.Second}, MaxFailedWorkflows: ptr.To[int64](0), FailRun: true}
		})
		store := daprObj("Component", ns, "orders-statestore")
		Eventually(exists(store)).Should(BeTrue())
		Expect(store.Object["spec"]).To(HaveKeyWithValue("type", "state.in-memory"))
		Expect(metav1.IsControlledBy(store, latest(run))).To(BeTrue(), "the run owns its store: it goes with the run")
		job := currentJobOf(run)
		Expect(exists(deployment(ns, "orders-target"))()).To(BeFalse(), "a Workflow run has no target app")
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("dapr-workflow+http://localhost:3500/Chain?activities=3&grpc=localhost%3A50001"))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(BeEmpty())

		sum := result.Summary{RequestedQPS: 50, Runs: []result.Run{summaryRun(result.Dapr, 0, 900)}}
		completion := deliveryPath(result.Dapr, 40000, result.Messages{Published: 500, Delivered: 498, Lost: 2, Failed: 1})
		completion.Interval = &result.Added{Confidence: 0.95, Resamples: 1000, Reps: 3, Avg: result.Interval{Us: 40050, LowUs: 39000, HighUs: 41000},
			Percentiles: []result.AddedPercentile{{P: 50, Interval: result.Interval{Us: 40000, LowUs: 38000, HighUs: 42000}}}}
		completion.Activities = result.Spectrum{Percentiles: []result.Percentile{{P: 50, Us: 3000}}, AvgUs: 3100, MaxUs: 9000}
		sum.Delivery = &result.Delivery{Paths: []result.DeliveryPath{completion}}
		finishLoad(run, sum, true)
		f := failedWith(run, perfv1alpha1.ReasonThresholdsViolated)
		Expect(f.Message).To(ContainSubstring("failed workflows 3 of 500 (1 failed, 2 unfinished) (limit <= 0): VIOLATED"))
		// 497 completed: too few for a p99 gate, which says how many it takes.
		Expect(f.Message).To(MatchRegexp(`completion p99 [0-9.]+ms from 497 completed: a p99 is judged from 1000 or more \(10 beyond it\) \(limit <= 1s\): inconclusive`))
		res := resultOf(run)
		Expect(res.Delivery).To(BeNil(), "a workflow's figures are its completion's, not a delivery's")
		Expect(res.Completion).NotTo(BeNil())
		Expect(res.Completion.Latency.P50.Duration).To(Equal(40000 * time.Microsecond))
		iv := res.Completion.LatencyInterval
		Expect(iv).NotTo(BeNil())
		Expect(iv.Basis).To(Equal(perfv1alpha1.IntervalBetweenRepetitions), "three repetitions: the interval covers a rerun")
		Expect(iv.Low.P50.Duration).To(Equal(38 * time.Millisecond))
		Expect(iv.High.P50.Duration).To(Equal(42 * time.Millisecond))
		Expect(res.Completion.ActivityDispatch.P50.Duration).To(Equal(3 * time.Millisecond))
		Expect(*res.Completion.Workflows).To(Equal(perfv1alpha1.WorkflowCounts{Started: 500, Completed: 497, Failed: 1, Unfinished: 2}))
	})

	It("registers reminders on an actor type the load tester hosts, and reports each trigger's lateness and the counts", func() {
		setInjectorImage("ghcr.io/dapr/dapr:1.16.0")
		DeferCleanup(setInjectorImage, injectorImage)
		runScheduler()
		run := createRun(ns, "remind", perfv1alpha1.ScenarioScheduler, func(s *perfv1alpha1.PerfRunSpec) {
			s.Scheduler = &perfv1alpha1.SchedulerSpec{API: perfv1alpha1.SchedulerActorReminders, Actors: 10}
		})
		store := daprObj("Component", ns, "remind-statestore")
		Eventually(exists(store)).Should(BeTrue(), "reminders need an actor store")
		job := currentJobOf(run)
		Expect(job.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/app-port", "3001"), "its daprd triggers on the load tester's app server")
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("dapr-reminders+http://localhost:3500/" + latest(run).ActorType() + "?actors=10&due=1s"))
		sum := result.Summary{RequestedQPS: 50, Runs: []result.Run{summaryRun(result.Dapr, 0, 900)}}
		sum.Delivery = &result.Delivery{Paths: []result.DeliveryPath{
			// One trigger of a registration whose call failed: received, not one of the registered's.
			deliveryPath(result.Dapr, 3000, result.Messages{Published: 500, Delivered: 500, Lost: 1, Duplicated: 2, Unacknowledged: 1}),
		}}
		finishLoad(run, sum, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		res := resultOf(run)
		Expect(res.Delivery).To(BeNil(), "a trigger's figures are its lateness, not a delivery's")
		Expect(res.Triggers.Lateness.P50.Duration).To(Equal(3000 * time.Microsecond))
		Expect(*res.Triggers.Counts).To(Equal(perfv1alpha1.TriggerCounts{Registered: 500, Triggered: 499, Missed: 1, Doubled: 2}))
	})
})
