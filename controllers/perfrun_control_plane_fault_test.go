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
	"net/http"
	"net/http/httptest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/podkill"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// controlPlanePod is a pod of Dapr's service app in ns, made ready (the StatefulSet and the
// kubelet played by the spec).
func controlPlanePod(ns, name, app string) {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{NodeName: testNode, Containers: []corev1.Container{{Name: "c", Image: testImage}}}}
	Expect(k8sClient.Create(suiteCtx, p)).To(Succeed())
	podReady(ns, name)
}

// An outage of Dapr's control plane is every tenant's: the platform team allows it or the
// run fails before it creates anything; allowed, the run holds the whole cluster, and the
// kill route deletes every pod of the service and answers once as many are back.
var _ = Describe("A PodKill of Dapr's control plane", func() {
	outage := func(s *perfv1alpha1.PerfRunSpec) {
		s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
		s.Load.Repetitions = 2
		s.Exclusive = ptr.To(false)
		s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRolePlacement),
			At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}, Hold: &metav1.Duration{Duration: 2 * time.Second}}}
	}

	It("fails ControlPlaneFaultsNotAllowed where the operator may not, creating nothing", func() {
		ns := newNamespace()
		run := createRun(ns, "refused", perfv1alpha1.ScenarioServiceInvocation, outage)
		c := failedWith(run, perfv1alpha1.ReasonControlPlaneFaultsNotAllowed)
		Expect(c.Message).To(And(ContainSubstring("spec.faults[0] deletes every pod of Dapr's Placement"), ContainSubstring("faults.allowControlPlane")))
		Expect(exists(deployment(ns, "refused-target"))()).To(BeFalse(), "refused before anything is created")
	})

	It("where allowed, waits for a shared run on any node, and its route deletes every pod of the service", Serial, func() {
		emptyQueue()
		restartManagerWith(func(r *perfrun.Reconciler) { r.Policy.AllowControlPlaneFaults = true })
		ns, theirs := newNamespace(), newNamespace()
		busy := createRun(theirs, "busy", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Exclusive = ptr.To(false)
			s.Baseline = ptr.To(false)
		})
		markAvailable(theirs, "busy-target")
		startLoad(busy)
		Eventually(phaseOf(busy)).Should(Equal(perfv1alpha1.PhaseRunning))

		By("two shared runs would measure side by side; one that takes the control plane down waits")
		run := createRun(ns, "outage", perfv1alpha1.ScenarioServiceInvocation, outage)
		Eventually(queuedMessage(run)).Should(ContainSubstring("a run of another namespace (measuring on the whole cluster, as one of the two takes Dapr's control plane down)"))
		Consistently(exists(deployment(ns, "outage-target")), time.Second).Should(BeFalse(), "nothing is created while it waits")
		finishLoad(busy, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(exists(deployment(ns, "outage-target")), 10*time.Second).Should(BeTrue(), func() string { return fmt.Sprint(latest(run).Status.Conditions) })
		markAvailable(ns, "outage-target")
		job := currentJobOf(run)
		Expect(envValue(job, "DAPRBENCH_KILL_URL")).To(Equal(testKillURL))
		Expect(envValue(job, "DAPRBENCH_FAULT_URL")).To(BeEmpty(), "a control-plane kill goes through no target app")
		startLoad(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		token := runToken(run)

		// A namespace of its own plays Dapr's: the suite's other runs watch the real one.
		dapr := newNamespace()
		controlPlanePod(dapr, "dapr-placement-server-0", workload.PlacementApp)
		controlPlanePod(dapr, "dapr-placement-server-1", workload.PlacementApp)
		controlPlanePod(dapr, "dapr-sentry-5b6d", workload.SentryApp)
		order := ls.KillOrder{Namespace: ns, Run: "outage", Role: ls.RolePlacement, Wait: 10 * time.Second}

		By("a route that may not take the control plane down refuses, deleting nothing")
		shy := httptest.NewServer((&podkill.Server{Client: runReconciler.Client, APIReader: k8sClient, DaprNamespace: dapr, Log: GinkgoLogr}).Handler())
		DeferCleanup(shy.Close)
		status, _, msg := orderKill(shy.URL, token, order)
		Expect(status).To(Equal(http.StatusForbidden), msg)
		Expect(msg).To(ContainSubstring("--allow-control-plane-faults is off"))
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: dapr, Name: "dapr-placement-server-0"}, &corev1.Pod{})).To(Succeed())

		By("the route that may deletes both placement pods at once, and answers when both are back and ready")
		route := httptest.NewServer((&podkill.Server{Client: runReconciler.Client, APIReader: k8sClient, DaprNamespace: dapr, AllowControlPlane: true,
			Log: GinkgoLogr, Poll: 20 * time.Millisecond}).Handler())
		DeferCleanup(route.Close)
		answered := orderKillAsync(route.URL, token, order)
		for _, name := range []string{"dapr-placement-server-0", "dapr-placement-server-1"} {
			Eventually(func() bool {
				return apierrors.IsNotFound(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: dapr, Name: name}, &corev1.Pod{}))
			}).Should(BeTrue(), name+" was deleted")
		}
		Consistently(answered, 300*time.Millisecond).ShouldNot(Receive(), "no answer before the service is back")
		// The StatefulSet's replacements take their predecessors' names.
		controlPlanePod(dapr, "dapr-placement-server-0", workload.PlacementApp)
		Consistently(answered, 300*time.Millisecond).ShouldNot(Receive(), "no answer while one of two is back")
		controlPlanePod(dapr, "dapr-placement-server-1", workload.PlacementApp)
		var got killAnswer
		Eventually(answered, 5*time.Second).Should(Receive(&got))
		Expect(got.status).To(Equal(http.StatusOK), got.msg)
		both := "dapr-placement-server-0, dapr-placement-server-1"
		Expect(got.ans).To(Equal(ls.KillAnswer{Deleted: both, Replacement: both, Ready: true}))
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: dapr, Name: "dapr-sentry-5b6d"}, &corev1.Pod{})).To(Succeed(), "another service's pod is left alone")

		By("held down: a pod the StatefulSet makes during the hold goes as it comes, and the answer waits for the pods let back after it")
		const hold = 1500 * time.Millisecond
		held := order
		held.Hold = hold
		sent := time.Now()
		answered = orderKillAsync(route.URL, token, held)
		gone := func(name string) func() bool {
			return func() bool {
				return apierrors.IsNotFound(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: dapr, Name: name}, &corev1.Pod{}))
			}
		}
		Eventually(gone("dapr-placement-server-0")).Should(BeTrue())
		Eventually(gone("dapr-placement-server-1")).Should(BeTrue())
		// Not yet scheduled, as a new pod is at first: the hold's graceful deletion ends such a
		// pod at once (a scheduled one waits for its kubelet, which envtest has none of).
		early := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "dapr-placement-server-0", Namespace: dapr, Labels: map[string]string{"app": workload.PlacementApp}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: testImage}}}}
		Expect(k8sClient.Create(suiteCtx, early)).To(Succeed())
		Expect(time.Since(sent)).To(BeNumerically("<", hold), "the spec made its pod within the hold")
		Eventually(gone("dapr-placement-server-0"), hold).Should(BeTrue(), "a pod made while the service is held down is deleted before the hold ends")
		// The hold is timed from the order's arrival, after sent: a second's margin.
		time.Sleep(time.Until(sent.Add(hold + time.Second)))
		Expect(answered).NotTo(Receive(), "no answer before the service is back")
		controlPlanePod(dapr, "dapr-placement-server-0", workload.PlacementApp)
		controlPlanePod(dapr, "dapr-placement-server-1", workload.PlacementApp)
		Eventually(answered, 5*time.Second).Should(Receive(&got))
		Expect(got.status).To(Equal(http.StatusOK), got.msg)
		Expect(got.ans).To(Equal(ls.KillAnswer{Deleted: both, Replacement: both, Ready: true}), "the names deleted once each, and both let back")
	})
})
