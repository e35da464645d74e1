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
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/podkill"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// orderKill posts a kill order to the route as a load tester would; it returns the status
// and the answer (or the refusal's words).
func orderKill(url, token string, order ls.KillOrder) (int, ls.KillAnswer, string) {
	body, _ := json.Marshal(order)
	req, err := http.NewRequest(http.MethodPost, url+ls.KillPath, bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var ans ls.KillAnswer
	if resp.StatusCode == http.StatusOK {
		Expect(json.Unmarshal(raw, &ans)).To(Succeed())
	}
	return resp.StatusCode, ans, string(raw)
}

// runToken is the run's token, read from the Secret its status names, as its pods get it.
func runToken(run *perfv1alpha1.PerfRun) string {
	secret := &corev1.Secret{}
	ExpectWithOffset(1, k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: run.Namespace, Name: latest(run).Status.TokenSecret}, secret)).To(Succeed())
	return string(secret.Data[workload.RunTokenKey])
}

// killAnswer is the route's answer to an order: its status, and the answer or the refusal.
type killAnswer struct {
	status int
	ans    ls.KillAnswer
	msg    string
}

// orderKillAsync orders a kill as orderKill does, the answer arriving on the channel: the
// route holds it until the replacement the spec plays is ready.
func orderKillAsync(url, token string, order ls.KillOrder) <-chan killAnswer {
	answered := make(chan killAnswer, 1)
	go func() {
		defer GinkgoRecover()
		s, a, m := orderKill(url, token, order)
		answered <- killAnswer{s, a, m}
	}()
	return answered
}

// podReady plays the kubelet's readiness: the pod's Ready condition True, as a Service's
// endpoints and the kill route read it.
func podReady(ns, name string) {
	Eventually(func() error {
		p := &corev1.Pod{}
		if err := k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: name}, p); err != nil {
			return err
		}
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()})
		return k8sClient.Status().Update(suiteCtx, p)
	}).Should(Succeed())
}

// The kill route: the real manager's cache and a real API server, the kubelet and the
// Deployment controller played by the spec.
var _ = Describe("A PodKill fault's kill route", func() {
	It("deletes the run's own target pod on its token alone, and answers with the replacement once ready", func() {
		ns := newNamespace()
		killing := func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
			s.Load.Repetitions = 2
			s.Baseline = ptr.To(false)
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
				At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}}
		}
		run := createRun(ns, "killed", perfv1alpha1.ScenarioServiceInvocation, killing)
		// Beside it: a run of the same namespace, and one with a PodKill still provisioning.
		createRun(ns, "bystander", perfv1alpha1.ScenarioServiceInvocation)
		waiting := createRun(ns, "waiting", perfv1alpha1.ScenarioServiceInvocation, killing)
		// A pod a tenant labelled as the run's target, older than the real one: the route
		// must never take it for the run's.
		stray := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "stray", Namespace: ns, Labels: map[string]string{
			workload.LabelRun: "killed", workload.LabelComponent: string(workload.RoleTarget)}},
			Spec: corev1.PodSpec{NodeName: testNode, Containers: []corev1.Container{{Name: "c", Image: testImage}}}}
		Expect(k8sClient.Create(suiteCtx, stray)).To(Succeed())
		setPodStatus(stray, corev1.PodRunning, func(string) corev1.ContainerState {
			return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
		}, true)
		podReady(ns, "stray")
		markAvailable(ns, "killed-target")
		podReady(ns, "killed-target-pod")
		job := currentJobOf(run)
		Expect(envValue(job, "DAPRBENCH_KILL_URL")).To(Equal(testKillURL))
		Expect(envValue(job, "DAPRBENCH_RUN_NAMESPACE")).To(Equal(ns))
		Expect(envValue(job, "DAPRBENCH_RUN_NAME")).To(Equal("killed"))
		startLoad(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))

		token := runToken(run)
		Expect(latest(run).Status.TokenDigest).To(Equal(workload.TokenDigest(token)), "the route checks the digest: the operator reads no Secret")

		route := httptest.NewServer((&podkill.Server{Client: runReconciler.Client, Log: GinkgoLogr, Poll: 20 * time.Millisecond}).Handler())
		DeferCleanup(route.Close)
		order := ls.KillOrder{Namespace: ns, Run: "killed", Role: ls.RoleTarget, Wait: 10 * time.Second}

		By("refusing a wrong token, another run and a role the run does not kill, deleting nothing")
		status, _, msg := orderKill(route.URL, "not-the-token", order)
		Expect(status).To(Equal(http.StatusForbidden), msg)
		for _, name := range []string{"someone-else", "bystander"} { // none, and a run that is not this token's
			other := order
			other.Run = name
			status, _, msg = orderKill(route.URL, token, other)
			Expect(status).To(Equal(http.StatusForbidden), msg)
			Expect(msg).To(Equal(fmt.Sprintf("not authorised to kill pods of run %s/%s\n", ns, name)), "the same words as a wrong token: nothing said of other runs")
		}
		Eventually(func() string { return latest(waiting).Status.TokenDigest }).ShouldNot(BeEmpty())
		waitingToken := &corev1.Secret{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: latest(waiting).Status.TokenSecret}, waitingToken)).To(Succeed())
		early := order
		early.Run = "waiting"
		status, _, msg = orderKill(route.URL, string(waitingToken.Data[workload.RunTokenKey]), early)
		Expect(status).To(Equal(http.StatusConflict), msg)
		Expect(msg).To(ContainSubstring("not Running: its pods are killed only while its load runs"))
		bad := order
		bad.Role = "Broker"
		status, _, msg = orderKill(route.URL, token, bad)
		Expect(status).To(Equal(http.StatusBadRequest), msg)
		undeclared := order
		undeclared.Role = ls.RoleStore
		status, _, msg = orderKill(route.URL, token, undeclared)
		Expect(status).To(Equal(http.StatusForbidden), msg)
		Expect(msg).To(ContainSubstring("has no PodKill of role Store in spec.faults"))
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "killed-target-pod"}, &corev1.Pod{})).To(Succeed())

		By("deleting the run's own target pod, and answering once its replacement is ready")
		answered := orderKillAsync(route.URL, token, order)
		Eventually(func() string {
			p := &corev1.Pod{}
			if err := k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "killed-target-pod"}, p); apierrors.IsNotFound(err) {
				return "deleted"
			}
			select {
			case a := <-answered:
				return fmt.Sprintf("answered %d %s", a.status, a.msg)
			default:
			}
			return fmt.Sprintf("deletion %v, finalizers %v", p.DeletionTimestamp, p.Finalizers)
		}).Should(Equal("deleted"), "the target pod was deleted at once")
		Consistently(answered, 300*time.Millisecond).ShouldNot(Receive(), "no answer before a replacement is ready")
		d := &appsv1.Deployment{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "killed-target"}, d)).To(Succeed())
		replacement := podFromTemplate(d, "killed-target-pod-2", d.Spec.Template)
		Expect(k8sClient.Create(suiteCtx, replacement)).To(Succeed())
		setPodStatus(replacement, corev1.PodRunning, func(string) corev1.ContainerState {
			return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
		}, true)
		podReady(ns, replacement.Name)
		var got killAnswer
		Eventually(answered, 5*time.Second).Should(Receive(&got))
		Expect(got.status).To(Equal(http.StatusOK), got.msg)
		Expect(got.ans).To(Equal(ls.KillAnswer{Deleted: "killed-target-pod", Replacement: "killed-target-pod-2", Ready: true, ReplacementIP: replacement.Status.PodIP}))
		Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(stray), &corev1.Pod{})).To(Succeed(), "the stray pod is not the run's")

		By("answering without a replacement when none is ready within the wait")
		short := order
		short.Wait = 300 * time.Millisecond
		status, ans, msg := orderKill(route.URL, token, short)
		Expect(status).To(Equal(http.StatusOK), msg)
		Expect(ans).To(Equal(ls.KillAnswer{Deleted: "killed-target-pod-2"}), "no pod was made in its place")

		By("refusing a kill past as many as the run has faulted phases")
		status, _, msg = orderKill(route.URL, token, short)
		Expect(status).To(Equal(http.StatusTooManyRequests), msg)
		Expect(msg).To(ContainSubstring("has had its 2 kills, as many as its faulted phases"))
	})

	It("evicts the last load-tester pod of a group, never the leader, so its Job replaces it, and answers with the replacement", func() {
		ns := newNamespace()
		run := createRun(ns, "callers", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
			s.Load.Repetitions = 2
			s.Baseline = ptr.To(false)
			s.LoadTester.Replicas = 2
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleLoadTester),
				At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}}
		})
		markAvailable(ns, "callers-target")
		job := currentJobOf(run)
		Expect(job.Spec.PodFailurePolicy).To(Equal(&batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
			Action:          batchv1.PodFailurePolicyActionIgnore,
			OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}},
		}}}), "the Job replaces a pod the kill evicted, and fails on any other failure (backoffLimit 0)")
		Expect(envValue(job, "DAPRBENCH_FAULT_URL")).To(BeEmpty(), "a load tester's kill goes through no target app")
		startLoad(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		// The group's pods as the Job controller makes them, one per completion index; a
		// finalizer keeps the evicted one readable.
		indexed := func(name, index string) *corev1.Pod {
			pod := podFromTemplate(job, name, job.Spec.Template)
			pod.Labels[batchv1.JobNameLabel] = job.Name
			pod.Annotations = map[string]string{batchv1.JobCompletionIndexAnnotation: index}
			pod.Finalizers = []string{"test.daprbench.io/keep"}
			Expect(k8sClient.Create(suiteCtx, pod)).To(Succeed())
			setPodStatus(pod, corev1.PodRunning, func(string) corev1.ContainerState {
				return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
			}, true)
			podReady(ns, name)
			DeferCleanup(func() {
				p := &corev1.Pod{}
				if k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(pod), p) == nil {
					p.Finalizers = nil
					Expect(client.IgnoreNotFound(k8sClient.Update(suiteCtx, p))).To(Succeed())
				}
			})
			return pod
		}
		indexed("callers-load-0", "0")
		indexed("callers-load-1", "1")
		token := runToken(run)
		route := httptest.NewServer((&podkill.Server{Client: runReconciler.Client, Log: GinkgoLogr, Poll: 20 * time.Millisecond}).Handler())
		DeferCleanup(route.Close)

		answered := orderKillAsync(route.URL, token, ls.KillOrder{Namespace: ns, Run: "callers", Role: ls.RoleLoadTester, Wait: 10 * time.Second})
		evicted := &corev1.Pod{}
		Eventually(func() *metav1.Time {
			Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "callers-load-1"}, evicted)).To(Succeed())
			return evicted.DeletionTimestamp
		}).ShouldNot(BeNil(), "the last pod of the group is deleted")
		Expect(evicted.Status.Conditions).To(ContainElement(And(HaveField("Type", corev1.DisruptionTarget), HaveField("Status", corev1.ConditionTrue))),
			"evicted, not deleted: the condition the Job's podFailurePolicy ignores")
		leader := &corev1.Pod{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "callers-load-0"}, leader)).To(Succeed())
		Expect(leader.DeletionTimestamp).To(BeNil(), "the leader, which holds the clock, is never killed")
		Consistently(answered, 300*time.Millisecond).ShouldNot(Receive(), "no answer before a replacement is ready")
		replacement := indexed("callers-load-1-b", "1")
		var got killAnswer
		Eventually(answered, 5*time.Second).Should(Receive(&got))
		Expect(got.status).To(Equal(http.StatusOK), got.msg)
		Expect(got.ans).To(Equal(ls.KillAnswer{Deleted: "callers-load-1", Replacement: "callers-load-1-b", Ready: true, ReplacementIP: latestPod(replacement).Status.PodIP}))
	})

	It("tells the load tester of a run with sidecar variants each variant's target app, once every one has an address", func() {
		ns := newNamespace()
		run := createRun(ns, "sides", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
			s.Load.Repetitions = 2
			s.Baseline = ptr.To(false)
			s.Variants = []perfv1alpha1.SidecarVariant{{Name: "plain"}, {Name: "retried"}}
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
				At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}}
		})
		markAvailable(ns, "sides-target")
		// Both Deployments Available, the second's pod made but Pending, without an address
		// (as a pod is before the kubelet runs it): the load waits for it.
		d := &appsv1.Deployment{}
		Eventually(func() error {
			return k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "sides-target-retried"}, d)
		}).Should(Succeed())
		pending := podFromTemplate(d, "sides-target-retried-pod", d.Spec.Template)
		Expect(k8sClient.Create(suiteCtx, pending)).To(Succeed())
		deploymentAvailable(d)
		Consistently(func() error {
			return k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "sides-load-1"}, &batchv1.Job{})
		}, 2*time.Second).ShouldNot(Succeed(), "no load while a variant's target has no address to order its faults from")
		setPodStatus(pending, corev1.PodRunning, func(string) corev1.ContainerState {
			return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
		}, true)
		job := currentJobOf(run)
		ip := func(name string) string {
			p := &corev1.Pod{}
			Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: name}, p)).To(Succeed())
			return "http://" + p.Status.PodIP + ":3000"
		}
		Expect(envValue(job, "DAPRBENCH_FAULT_URL")).To(Equal(ip("sides-target-pod")))
		Expect(envValue(job, "DAPRBENCH_VARIANT_FAULT_URLS")).To(Equal(ip("sides-target-retried-pod")), "the second variant's faults go through its own target")
	})

	It("deletes a PubSub run's own broker on its token, and tells the load tester no target address", func() {
		ns := newNamespace()
		run := createRun(ns, "broker", perfv1alpha1.ScenarioPubSub, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
			s.Load.Repetitions = 2
			s.Baseline = ptr.To(false)
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleStore),
				At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}}
		})
		markAvailable(ns, "broker-store")
		podReady(ns, "broker-store-pod")
		job := currentJobOf(run)
		Expect(envValue(job, "DAPRBENCH_KILL_URL")).To(Equal(testKillURL))
		Expect(envValue(job, "DAPRBENCH_FAULT_URL")).To(BeEmpty(), "a broker kill goes through no target app")
		startLoad(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		token := runToken(run)
		route := httptest.NewServer((&podkill.Server{Client: runReconciler.Client, Log: GinkgoLogr, Poll: 20 * time.Millisecond}).Handler())
		DeferCleanup(route.Close)

		By("refusing a kill of the target, which the run does not declare")
		order := ls.KillOrder{Namespace: ns, Run: "broker", Role: ls.RoleTarget, Wait: 300 * time.Millisecond}
		status, _, msg := orderKill(route.URL, token, order)
		Expect(status).To(Equal(http.StatusForbidden), msg)
		Expect(msg).To(ContainSubstring("has no PodKill of role Target"))

		By("deleting the broker's pod, and answering without a replacement when none is made within the wait")
		order.Role = ls.RoleStore
		status, ans, msg := orderKill(route.URL, token, order)
		Expect(status).To(Equal(http.StatusOK), msg)
		Expect(ans).To(Equal(ls.KillAnswer{Deleted: "broker-store-pod"}))
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "broker-store-pod"}, &corev1.Pod{}))
		}).Should(BeTrue(), "the broker's pod was deleted")
	})
})

// latestPod is pod as the API server has it now.
func latestPod(pod *corev1.Pod) *corev1.Pod {
	p := &corev1.Pod{}
	ExpectWithOffset(1, k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(pod), p)).To(Succeed())
	return p
}
