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
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

var _ = Describe("PerfRun pods, matched by owner", func() {
	It("takes its result from its own Job's pod, not from a newer pod that copies the leader's labels", func() {
		ns := newNamespace()
		run := createRun(ns, "owned", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "owned-target")
		job := currentJobOf(run)
		startLoad(run)
		time.Sleep(1100 * time.Millisecond) // creation times are whole seconds: the forgery is newer

		// Anyone who may create pods in the namespace can copy the labels; only the Job
		// controller makes pods the Job controls.
		forged := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "forged-leader", Namespace: ns, Labels: job.Spec.Template.Labels},
			Spec:       *job.Spec.Template.Spec.DeepCopy(),
		}
		forged.Spec.NodeName = "node-forged"
		Expect(k8sClient.Create(suiteCtx, forged)).To(Succeed())
		fast := encoded(ns, forged.Name, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 10), summaryRun(result.Dapr, 0, 20)}})
		setPodStatus(forged, corev1.PodSucceeded, func(string) corev1.ContainerState {
			return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", Message: fast}}
		}, false)

		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		st := latest(run).Status
		Expect(st.Result.Latency.P50.Duration).To(BeNumerically(">=", 900*time.Microsecond), "the Job's own pod measured ~1 ms, the forgery 20 µs")
		Expect(st.Environment.LoadTesterNode).To(Equal(testNode), "the forged pod's node is not the load tester's")
	})
})

var _ = Describe("PerfRun children named like existing objects", func() {
	It("fails NameConflict rather than take over a Service it does not own, and leaves it as it was", func() {
		ns := newNamespace()
		theirs := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: "taken-target", Namespace: ns, Labels: map[string]string{"team": "payments"}},
			Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "payments"}, Ports: []corev1.ServicePort{{Port: 80}}},
		}
		Expect(k8sClient.Create(suiteCtx, theirs)).To(Succeed())

		run := createRun(ns, "taken", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Cleanup = perfv1alpha1.CleanupAlways
		})
		c := failedWith(run, perfv1alpha1.ReasonNameConflict)
		Expect(c.Message).To(ContainSubstring("Service taken-target already exists and is not this run's (no controller)"))

		after := &corev1.Service{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(theirs), after)).To(Succeed())
		Expect(after.Spec.Selector).To(Equal(map[string]string{"app": "payments"}), "its selector is not hijacked")
		Expect(after.OwnerReferences).To(BeEmpty())
		Consistently(exists(after), 2*time.Second).Should(BeTrue(), "cleanup leaves what the run does not own")
	})
})

var _ = Describe("PerfRun images", func() {
	It("fails ImageNotAllowed, creating nothing, for an image outside the operator's repository and Dapr's registry path", func() {
		ns := newNamespace()
		run := createRun(ns, "foreign", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.LoadTester.Image = testImage[:len("daprbench:")] + "other-tag" // the operator's repository: allowed
			s.Variants = []perfv1alpha1.SidecarVariant{
				{Name: "release", SidecarImage: "ghcr.io/dapr/daprd:1.15.0"}, // beside the injector's image: allowed
				{Name: "mine", SidecarImage: "quay.io/someone/daprd:latest"},
			}
		})
		c := failedWith(run, perfv1alpha1.ReasonImageNotAllowed)
		Expect(c.Message).To(HavePrefix(`spec.variants[1].sidecarImage "quay.io/someone/daprd:latest": not under an allowed repository path (daprbench (the operator's own), ghcr.io/dapr/)`))
		Expect(exists(deployment(ns, "foreign-target"))()).To(BeFalse(), "nothing is created for a refused image")
	})
})

var _ = Describe("PerfRun actor types", func() {
	It("gives each run a type of its own, hosted as the run says, and refuses a second live run with the same explicit type", func() {
		ns := newNamespace()
		targetOf := func(name string) *appsv1.Deployment {
			d := deployment(ns, name+"-target")
			Eventually(exists(d)).Should(BeTrue())
			return d
		}
		actorTypeOf := func(name string) string { return targetOf(name).Annotations[workload.AnnotationActorType] }
		createRun(ns, "first", perfv1alpha1.ScenarioActorActivation)
		createRun(ns, "second", perfv1alpha1.ScenarioActorActivation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Actors = &perfv1alpha1.ActorsSpec{Host: perfv1alpha1.ActorHostGoSDK}
		})
		Expect(actorTypeOf("first")).To(HavePrefix("PerfActor-"))
		Expect(actorTypeOf("first")).NotTo(Equal(actorTypeOf("second")), "two runs never share the default type")
		Expect(targetOf("first").Spec.Template.Spec.Containers[0].Args).NotTo(ContainElement(HavePrefix("--actor-host")), "Minimal is the app's default")
		Expect(targetOf("second").Spec.Template.Spec.Containers[0].Args).To(ContainElement("--actor-host=GoSDK"))

		explicit := func(s *perfv1alpha1.PerfRunSpec) { s.Actors = &perfv1alpha1.ActorsSpec{ActorType: "Counter"} }
		createRun(ns, "mine", perfv1alpha1.ScenarioActorActivation, explicit)
		Expect(actorTypeOf("mine")).To(Equal("Counter"))
		theirs := createRun(ns, "theirs", perfv1alpha1.ScenarioActorActivation, explicit)
		c := failedWith(theirs, perfv1alpha1.ReasonActorTypeInUse)
		Expect(c.Message).To(ContainSubstring(`spec.actors.actorType "Counter" is hosted by Deployment mine-target (run mine)`))
	})
})

var _ = Describe("PerfRun children the API server refuses", func() {
	It("fails ChildRefused in one pass, quoting the API server, for a template field only its validation rejects", func() {
		ns := newNamespace()
		run := createRun(ns, "badkey", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Target.NodeSelector = map[string]string{"pool": "not a label value!"}
		})
		c := failedWith(run, perfv1alpha1.ReasonChildRefused)
		Expect(c.Message).To(ContainSubstring(`Deployment.apps "badkey-target" is invalid`))
		Expect(c.Message).To(ContainSubstring("spec.template.spec.nodeSelector"))
	})
})
