//go:build e2e

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

package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// testerStarted is when the run's load-tester container started, zero before it has.
func testerStarted(run *perfv1alpha1.PerfRun) time.Time {
	var pods corev1.PodList
	Expect(k8sClient.List(ctx, &pods, client.InNamespace(run.Namespace),
		client.MatchingLabels{workload.LabelRun: run.Name, workload.LabelComponent: string(workload.RoleLoadTester)})).To(Succeed())
	for _, p := range pods.Items {
		for _, s := range p.Status.ContainerStatuses {
			if s.Name == workload.ContainerTester && s.State.Running != nil {
				return s.State.Running.StartedAt.Time
			}
		}
	}
	return time.Time{}
}

var _ = Describe("Disturbances on a real cluster", func() {
	It("names Dapr's placement pod, deleted during an actor run, with its time and the phase it hit", func() {
		ns := newNamespace()
		run := daprRun(ns, "placement", perfv1alpha1.ScenarioActorActivation, 200, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 40 * time.Second}
		})
		var started time.Time
		Eventually(func() time.Time { started = testerStarted(run); return started }, 5*time.Minute, time.Second).ShouldNot(BeZero(),
			func() string { return describe(run) })

		By("deleting the placement pod 15 s into the measured run (after the 5 s warm-up)")
		time.Sleep(time.Until(started.Add(20 * time.Second)))
		var placement corev1.PodList
		Expect(k8sClient.List(ctx, &placement, client.InNamespace("dapr-system"), client.MatchingLabels{"app": "dapr-placement-server"})).To(Succeed())
		Expect(placement.Items).NotTo(BeEmpty())
		deleted := time.Now()
		for i := range placement.Items {
			Expect(k8sClient.Delete(ctx, &placement.Items[i])).To(Succeed())
		}

		Eventually(func() bool { return get(run).Finished() }, 4*time.Minute, 2*time.Second).Should(BeTrue(), func() string { return describe(run) })
		done := get(run)
		verdict := meta.FindStatusCondition(done.Status.Conditions, perfv1alpha1.ConditionSucceeded)
		GinkgoWriter.Printf("verdict: %s %s: %s\ndisturbances: %+v\n", verdict.Status, verdict.Reason, verdict.Message, done.Status.Disturbances)
		Expect(verdict.Message).To(MatchRegexp(`control-plane pod dapr-placement-server-0 \(dapr-placement-server\) (deleted|created) at \d\d:\d\d:\d\d \(dapr run 1 of 1, \d+s in`))
		disturbed := meta.FindStatusCondition(done.Status.Conditions, perfv1alpha1.ConditionDisturbed)
		Expect(disturbed).NotTo(BeNil())
		Expect(disturbed.Status).To(Equal(metav1.ConditionTrue))

		var seen *perfv1alpha1.Disturbance
		for i, d := range done.Status.Disturbances {
			if d.Role == "controlPlane/dapr-placement-server" && seen == nil {
				seen = &done.Status.Disturbances[i]
			}
		}
		Expect(seen).NotTo(BeNil())
		// The deletion itself when a poll saw the pod terminating, else its successor's
		// creation: within the old pod's shutdown of the deletion.
		Expect(seen.Time.Time).To(BeTemporally("~", deleted, 35*time.Second))
		Expect(seen.Time.Time).NotTo(BeTemporally("<", deleted.Add(-time.Second).Truncate(time.Second)))
	})
})
