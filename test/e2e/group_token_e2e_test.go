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
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// forger is a pod in another namespace that joins a run's load-tester group as pod 1 with a
// token of its own: the load tester itself, pointed at the run's leader.
func forger(ns string, run *perfv1alpha1.PerfRun) *corev1.Pod {
	job := workload.NamesFor(run).Job
	leader := fmt.Sprintf("http://%s-0.%s.%s.svc.cluster.local:%d", job, job, run.Namespace, workload.GroupPort)
	target := fmt.Sprintf("http://%s.%s.svc.cluster.local:%d/test", workload.NamesFor(run).Target, run.Namespace, workload.AppPort)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "forger", Namespace: ns},
		Spec: corev1.PodSpec{
			RestartPolicy:                corev1.RestartPolicyNever,
			AutomountServiceAccountToken: ptr.To(false),
			SecurityContext:              &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](65532), SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
			Containers: []corev1.Container{{
				Name: "forger", Image: image(), ImagePullPolicy: corev1.PullIfNotPresent, Command: []string{"/loadtester"},
				Args: []string{"--qps=10", "--connections=2", "--duration=5s", "--warmup=0s", "--direct-url=" + target, "--target-wait=2m",
					"--group-size=2", "--group-index=1", "--group-leader=" + leader, "--group-wait=2m",
					"--group-token=" + strings.Repeat("f", 64)},
				SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false), Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}},
			}},
		},
	}
}

var _ = Describe("A load-tester group's leader on a real cluster", func() {
	It("refuses a pod of another namespace that joins the group without the run's token, and the run's figures are its own", func() {
		ns := newNamespace()
		run := directRun(ns, "guarded", func(s *perfv1alpha1.PerfRunSpec) {
			s.LoadTester.Replicas = 2
			s.Load.Duration = &metav1.Duration{Duration: 30 * time.Second}
		})
		pod := forger(newNamespace(), run)
		Expect(k8sClient.Create(ctx, pod)).To(Succeed())

		var message string
		Eventually(func() string {
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), pod)).To(Succeed())
			for _, s := range pod.Status.ContainerStatuses {
				if t := s.State.Terminated; t != nil {
					message = t.Message
				}
			}
			return message
		}, 4*time.Minute, 2*time.Second).ShouldNot(BeEmpty(), func() string { return describe(run) })
		GinkgoWriter.Println("forger:", message)
		Expect(message).To(ContainSubstring("the leader pod refused this pod: this run's group token is required"))

		expectSucceeded(run, 4*time.Minute)
		res := resultOf(run)
		Expect(res.LoadTesters).To(HaveLen(2))
		Expect(res.Requests).To(BeNumerically("~", 200*30, 200*30/10), "the run's two pods' requests, nobody else's")
	})
})
