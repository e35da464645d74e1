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
	"os/exec"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Dapr's pub/sub API against a real Redis the run deploys (Debian's redis-server, the State
// scenario's image): the load tester publishes through its own daprd, which delivers every
// message back to the load tester's subscriber; the baseline publishes with XADD and
// consumes with its own consumer group on the same Redis. A functional check at a low rate,
// short: the pubsub-perf-suite sample measures Dapr's suite setting.
var _ = Describe("The PubSub scenario", func() {
	It("measures publish and delivery through Dapr against the broker's own client, counts every message, and removes the broker", func() {
		ns := newNamespace()
		// 100 rps: the load tester also receives every delivery, through its own daprd. At
		// 200 a rehearsal of 2026-11-28 (15% of the CPU stolen) saw its lateness pass the
		// 2 ms limit at p90 in both of two runs, so neither claimed added latency.
		const qps = 100
		run := daprRun(ns, "orders", perfv1alpha1.ScenarioPubSub, qps, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration, s.Load.Warmup = &metav1.Duration{Duration: 15 * time.Second}, &metav1.Duration{Duration: 2 * time.Second}
			s.Load.Connections = 4
		})
		expectClaimed(run, 4*time.Minute)
		st := get(run).Status
		res := resultOf(run)
		d := res.Delivery
		Expect(d).NotTo(BeNil(), "a PubSub run reports delivery")
		GinkgoWriter.Printf("broker %s\npublish: dapr %s\nbaseline %s\nadded %s\ndelivery: dapr %s\nbaseline %s\nadded %s\nmessages: dapr %+v baseline %+v\n",
			st.Environment.Store, summary(res.Latency), summary(res.Baseline), summary(res.Added),
			summary(d.Latency), summary(d.Baseline), summary(d.Added), d.Messages, d.BaselineMessages)
		expectActualQPS(res, qps)
		Expect(res.Errors).To(BeZero(), "every publish succeeded: %v", res.ReturnCodes)
		for name, n := range map[string]*perfv1alpha1.MessageCounts{"dapr": d.Messages, "baseline": d.BaselineMessages} {
			Expect(n).NotTo(BeNil(), name)
			Expect(n.Published).To(BeNumerically(">=", qps*15*99/100), name)
			Expect(n.Lost).To(BeZero(), "%s: every published message was delivered", name)
			Expect(n.Delivered).To(Equal(n.Published), name)
		}
		// Delivery through daprd takes the publish, Redis, daprd's consumer and an HTTP
		// delivery to the app: it is slower than the publish call, and than the baseline's.
		Expect(d.Latency.P50.Duration).To(BeNumerically(">", res.Latency.P50.Duration))
		Expect(d.Added).NotTo(BeNil())
		Expect(d.AddedInterval.Low.P50.Duration).To(BeNumerically(">", 0))

		By("the load tester's daprd's cost and the broker's own usage")
		expectDaprdCost(res, "clientSidecar", 1, 0)
		expectNoTargetCPU(res)

		By("Prometheus scrapes the run, and the dashboard's PubSub panels show it")
		expectScraped(ns, run.Name, perfv1alpha1.ScenarioPubSub, qps, res.Added.P90.Duration)

		By("cleanup removes the broker")
		Eventually(func() bool {
			err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "orders-store"}, &appsv1.Deployment{})
			return apierrors.IsNotFound(err)
		}, time.Minute).Should(BeTrue())
	})

	It("names a broker restarted mid-run as a disturbance of its phase and counts what the outage cost", func() {
		ns := newNamespace()
		const qps = 200
		off := false
		sideBySide := func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration, s.Load.Warmup = &metav1.Duration{Duration: 20 * time.Second}, &metav1.Duration{Duration: 2 * time.Second}
			s.Baseline = &off // one phase, so the restart lands in it
			// Side by side, not queued: disturbances and counts are judged, not latency.
			s.Exclusive = ptr.To(false)
			s.Dapr.Sidecar.CPURequest = ptr.To(resource.MustParse("100m"))
		}
		run := daprRun(ns, "restart", perfv1alpha1.ScenarioPubSub, qps, sideBySide)
		// Beside it, the same broker killed on purpose: the operator deletes it 5 s into each of
		// two Dapr phases on the load tester's order (a PodKill of the Store). Its pods are the
		// fault's, not a disturbance, and the result says what the outage cost the messages.
		killed := daprRun(newNamespace(), "killed-broker", perfv1alpha1.ScenarioPubSub, qps, func(s *perfv1alpha1.PerfRunSpec) {
			sideBySide(s)
			s.Load.Repetitions = 2
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleStore),
				At: metav1.Duration{Duration: 5 * time.Second}, Duration: metav1.Duration{Duration: 12 * time.Second}}}
		})
		By("deleting the broker's pod 6 s into the measured phase (the load tester logs its start)")
		Eventually(func() string { return testerLog(run) }, 3*time.Minute, time.Second).Should(ContainSubstring("measure: repetition 1/1, dapr"),
			func() string { return describe(run) })
		time.Sleep(6 * time.Second)
		var store corev1.PodList
		Expect(k8sClient.List(ctx, &store, client.InNamespace(ns),
			client.MatchingLabels{workload.LabelRun: run.Name, workload.LabelComponent: string(workload.RoleStore)})).To(Succeed())
		Expect(store.Items).To(HaveLen(1))
		Expect(k8sClient.Delete(ctx, &store.Items[0])).To(Succeed())

		Eventually(func() bool { return get(run).Finished() }, 3*time.Minute, 2*time.Second).Should(BeTrue(), func() string { return describe(run) })
		st := get(run).Status
		GinkgoWriter.Printf("disturbances: %+v\nconditions: %+v\n", st.Disturbances, st.Conditions)
		Expect(st.Disturbances).To(ContainElement(SatisfyAll(
			HaveField("Role", string(workload.RoleStore)), HaveField("Pod", store.Items[0].Name), HaveField("Phase", ContainSubstring("dapr")))),
			"the broker's pod, named with the phase it hit")
		disturbed := meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionDisturbed)
		Expect(disturbed).NotTo(BeNil())
		Expect(disturbed.Status).To(Equal(metav1.ConditionTrue))

		Expect(resultOf(run)).NotTo(BeNil())
		Expect(resultOf(run).Delivery).NotTo(BeNil())
		n := resultOf(run).Delivery.Messages
		GinkgoWriter.Printf("publishes failed %d of %d; messages %+v\n", resultOf(run).Errors, resultOf(run).Requests, n)
		Expect(n.Published).To(BeNumerically(">", 0))
		Expect(n.Delivered+n.Lost).To(Equal(n.Published), "every published message is delivered or lost, none unaccounted")
		Expect(resultOf(run).Errors+n.Lost+n.Duplicated).To(BeNumerically(">", 0),
			"the outage shows: publishes refused while the broker was away, or messages lost or delivered twice")

		By("the broker killed on purpose: its pods are the fault's, and the messages it cost are the path's")
		expectSucceeded(killed, 5*time.Minute)
		o := expectKilledAndReplaced(killed)
		k := resultOf(killed)
		GinkgoWriter.Printf("killed-broker: publishes failed %d of %d; fault messages %+v; path %+v\n", k.Errors, k.Requests, o.Messages, k.Delivery.Messages)
		Expect(o.Messages).NotTo(BeNil(), "a PubSub fault counts its phases' messages")
		Expect(o.Amplification).To(BeEmpty(), "a broker counts no invocations")
		// Every Dapr phase was faulted: the fault's counts are the path's.
		Expect(o.Messages.Published).To(Equal(k.Delivery.Messages.Published))
		Expect(o.Messages.Lost).To(Equal(k.Delivery.Messages.Lost))
		Expect(o.Messages.Duplicated).To(Equal(k.Delivery.Messages.Duplicated))
		Expect(o.Messages.LostPerPhase).NotTo(BeEmpty())
		Expect(o.During.Errors+o.Messages.Lost+o.Messages.Duplicated).To(BeNumerically(">", 0),
			"the outage shows: publishes refused while no broker was ready, or messages lost or delivered twice")
	})
})

// testerLog is the run's load tester's log so far; empty before it runs.
func testerLog(run *perfv1alpha1.PerfRun) string {
	out, _ := exec.Command(kubectlBin(), "-n", run.Namespace, "logs", "-l", workload.LabelRun+"="+run.Name+","+
		workload.LabelComponent+"="+string(workload.RoleLoadTester), "-c", workload.ContainerTester, "--tail=-1").Output()
	return string(out)
}
