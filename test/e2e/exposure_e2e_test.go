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
	"net"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// probeFromElsewhere calls each URL from a pod in a namespace of its own — a tenant's pod
// anywhere on the cluster; the local cluster's network plugin enforces no NetworkPolicy, so
// only what the pods themselves refuse stands between them. Each URL gets a container of
// its own running the load tester (the one HTTP and gRPC client the image holds): over
// HTTP its first request that is not 2xx ends it with "error CODE for URL" (-1: nothing
// listens there); over gRPC it counts each answer's status as its HTTP twin
// (Unauthenticated: 401). It returns each URL's outcome: that error, or "codes map[CODE:N]"
// when the load ran.
func probeFromElsewhere(urls ...string) []string {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "prober", Namespace: newNamespace()},
		Spec: corev1.PodSpec{
			RestartPolicy:                corev1.RestartPolicyNever,
			AutomountServiceAccountToken: ptr.To(false),
			SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](65532),
				SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
		},
	}
	for i, u := range urls {
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{
			Name: "probe-" + strconv.Itoa(i), Image: image(), ImagePullPolicy: corev1.PullIfNotPresent, Command: []string{"/loadtester"},
			Args:      []string{"--qps=2", "--connections=1", "--duration=1s", "--warmup=0s", "--target-wait=0", "--direct-url=" + u},
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}},
			SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false),
				Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}},
		})
	}
	Expect(k8sClient.Create(ctx, pod)).To(Succeed())
	outcomes := make([]string, len(urls))
	Eventually(func() int {
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), pod)).To(Succeed())
		done := 0
		for _, s := range pod.Status.ContainerStatuses {
			if t := s.State.Terminated; t != nil {
				i, _ := strconv.Atoi(s.Name[len("probe-"):])
				p, err := result.DecodePointer([]byte(t.Message))
				Expect(err).NotTo(HaveOccurred(), "%s: %q", s.Name, t.Message)
				Expect(p.Frame).NotTo(BeNil(), "%s wrote no report: %s", s.Name, p.Error)
				rep, err := result.ReadFrame(run(kubectlBin(), "logs", "-n", pod.Namespace, pod.Name, "-c", s.Name), *p.Frame)
				Expect(err).NotTo(HaveOccurred(), "%s's report", s.Name)
				sum := rep.Summary
				outcomes[i] = sum.Error
				if sum.Error == "" {
					codes := map[string]int64{}
					for _, r := range sum.Runs {
						for c, n := range r.Codes {
							codes[c] += n
						}
					}
					outcomes[i] = fmt.Sprintf("codes %v", codes)
				}
				done++
			}
		}
		return done
	}, 2*time.Minute, 2*time.Second).Should(Equal(len(urls)))
	for i, u := range urls {
		GinkgoWriter.Printf("from another namespace, %s: %q\n", u, outcomes[i])
	}
	return outcomes
}

// targetPodIP is the address of the run's (first) target pod.
func targetPodIP(run *perfv1alpha1.PerfRun) string {
	var pods corev1.PodList
	Expect(k8sClient.List(ctx, &pods, client.InNamespace(run.Namespace),
		client.MatchingLabels{workload.LabelRun: run.Name, workload.LabelComponent: string(workload.RoleTarget)})).To(Succeed())
	Expect(pods.Items).NotTo(BeEmpty(), "the run's target pod")
	Expect(pods.Items[0].Status.PodIP).NotTo(BeEmpty())
	return pods.Items[0].Status.PodIP
}

// at is http://ip:port + path.
func at(ip string, port int, path string) string {
	return fmt.Sprintf("http://%s%s", net.JoinHostPort(ip, strconv.Itoa(port)), path)
}

// refusedFor and unheard are the load tester's errors for a URL that answered 401 and for
// one where nothing listens.
func refusedFor(url string) string { return "error 401 for " + url }
func unheard(url string) string    { return "error -1 for " + url }
