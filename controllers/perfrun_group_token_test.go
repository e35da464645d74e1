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
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// groupPodEnded plays the Job controller and kubelet for pod index of an Indexed Job: a pod
// on node whose load tester ended with the summary (exit 0 or 1) at finished.
func groupPodEnded(job *batchv1.Job, index int, node string, sum result.Summary, exit int32, finished time.Time) {
	pod := podFromTemplate(job, job.Name+"-"+strconv.Itoa(index), job.Spec.Template)
	pod.Labels[batchv1.JobNameLabel] = job.Name
	pod.Annotations[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(index)
	pod.Spec.NodeName = node
	Expect(k8sClient.Create(suiteCtx, pod)).To(Succeed())
	msg := encoded(job.Namespace, pod.Name, sum)
	setPodStatus(pod, corev1.PodSucceeded, func(string) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: exit, Reason: "Completed",
			Message: msg, FinishedAt: metav1.NewTime(finished)}}
	}, false)
}

var _ = Describe("PerfRun with several load-tester pods", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("runs an Indexed Job of loadTester.replicas pods and reports the leader's merged result with each pod's rate", func() {
		run := createRun(ns, "group", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.LoadTester.Replicas = 3
			s.Load.Arrival = perfv1alpha1.ArrivalUniform
		})
		markAvailable(ns, "group-target")
		job := currentJobOf(run)
		Expect(*job.Spec.CompletionMode).To(Equal(batchv1.IndexedCompletion))
		Expect(*job.Spec.Completions).To(Equal(int32(3)))
		Expect(*job.Spec.Parallelism).To(Equal(int32(3)))
		Expect(*job.Spec.BackoffLimit).To(Equal(int32(0)), "a group missing a pod measures another load")
		pod := job.Spec.Template.Spec
		Expect(pod.Subdomain).To(Equal("group-load-1"))
		Expect(pod.TopologySpreadConstraints).To(HaveLen(1))
		Expect(pod.TopologySpreadConstraints[0].TopologyKey).To(Equal(corev1.LabelHostname))
		Expect(envValue(job, "DAPRBENCH_QPS")).To(Equal("1000"), "the whole rate: each pod takes its share")
		Expect(envValue(job, "DAPRBENCH_GROUP_SIZE")).To(Equal("3"))
		Expect(envValue(job, "DAPRBENCH_UNIFORM")).To(Equal("true"))
		Expect(envValue(job, "DAPRBENCH_GROUP_LEADER")).To(Equal("http://group-load-1-0.group-load-1:8079"))
		// The pods present a token only the run's Job reads: from a Secret the run owns,
		// named by the API server, so a Secret made in advance cannot stand in for it.
		tokenName := latest(run).Status.TokenSecret
		Expect(tokenName).To(HavePrefix("group-token-"))
		token := &corev1.Secret{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: tokenName}, token)).To(Succeed())
		Expect(metav1.IsControlledBy(token, latest(run))).To(BeTrue())
		Expect(string(token.Data["token"])).To(MatchRegexp("^[0-9a-f]{64}$"))
		Expect(secretEnv(job, "DAPRBENCH_GROUP_TOKEN")).To(Equal(tokenName))
		// Where the network plugin enforces them, only the run's load tester reaches the
		// leader's coordinator and the target's load ports.
		for _, name := range []string{"group-target", "group-load-1-group"} {
			policy := &networkingv1.NetworkPolicy{}
			Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: name}, policy)).To(Succeed(), name)
			Expect(metav1.IsControlledBy(policy, latest(run))).To(BeTrue(), name)
		}
		var index *corev1.EnvVar
		for i, e := range pod.Containers[0].Env {
			if e.Name == "DAPRBENCH_GROUP_INDEX" {
				index = &pod.Containers[0].Env[i]
			}
		}
		Expect(index).NotTo(BeNil())
		Expect(index.ValueFrom.FieldRef.FieldPath).To(Equal("metadata.annotations['batch.kubernetes.io/job-completion-index']"))

		svc := &corev1.Service{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "group-load-1"}, svc)).To(Succeed())
		Expect(svc.Spec.ClusterIP).To(Equal(corev1.ClusterIPNone))
		Expect(svc.Spec.PublishNotReadyAddresses).To(BeTrue(), "pods reach their leader before daprd is ready")
		Expect(svc.Spec.Selector).To(Equal(map[string]string{batchv1.JobNameLabel: "group-load-1"}))

		// The peers' own summaries hold their shares; the leader's is the group's.
		now := fakeClock.Now()
		share := result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 9000), summaryRun(result.Dapr, 0, 9900)}}
		groupPodEnded(job, 1, "node-b", share, 0, now)
		groupPodEnded(job, 2, "node-c", share, 0, now)
		merged := result.Summary{RequestedQPS: 1000,
			Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)},
			Pods: []result.PodLoad{{Pod: 0, RequestedQPS: 333.33, ActualQPS: 333.3}, {Pod: 1, RequestedQPS: 333.33, ActualQPS: 333.2},
				{Pod: 2, RequestedQPS: 333.33, ActualQPS: 280.1}}}
		groupPodEnded(job, 0, testNode, merged, 0, now)
		completeJob(job, true)

		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		res := resultOf(run)
		Expect(res.Latency.P90.Duration).To(Equal(1200*time.Microsecond), "the leader's merged latency, not a peer's")
		Expect(res.LoadTesters).To(Equal([]perfv1alpha1.LoadTesterPod{
			{Index: 0, Node: testNode, RequestedQPS: "333.3", ActualQPS: "333.3"},
			{Index: 1, Node: "node-b", RequestedQPS: "333.3", ActualQPS: "333.2"},
			{Index: 2, Node: "node-c", RequestedQPS: "333.3", ActualQPS: "280.1"},
		}))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).To(ContainSubstring("load-tester pod 2 sent 280.1 of its 333.3 qps"))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).NotTo(ContainSubstring("pod 1 sent"))
		Eventually(exists(svc)).Should(BeFalse(), "the group's Service goes with the run's other children")
	})

	It("names the pod that failed first, not the leader the Job controller stopped after it", func() {
		run := createRun(ns, "group-fail", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.LoadTester.Replicas = 2
		})
		markAvailable(ns, "group-fail-target")
		job := currentJobOf(run)
		now := fakeClock.Now()
		groupPodEnded(job, 1, testNode, result.Summary{RequestedQPS: 1000, Error: "dapr path, repetition 1: connection refused"}, 1, now)
		groupPodEnded(job, 0, testNode, result.Summary{RequestedQPS: 1000, Error: "context canceled"}, 1, now.Add(2*time.Second))
		completeJob(job, false)
		c := failedWith(run, perfv1alpha1.ReasonLoadTesterFailed)
		Expect(c.Message).To(ContainSubstring("pod 1 of the group: dapr path, repetition 1: connection refused"))
	})
})
