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
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Dapr's state API against a real Redis the run deploys (Debian's redis-server, packed by
// hack/local-cluster/redis-image.sh): the load tester's own daprd gets keys, the baseline
// gets the same keys from the same Redis with go-redis. A functional check at a low rate,
// short: make bench-state measures the published setting. A Configuration run measures
// beside it (configuration_e2e_test.go): both are shared runs, so they measure at once.
var _ = Describe("The State scenario", func() {
	It("measures Dapr's state API (a save and a get of its key each request) over a store the run deploys against the store's own client, refuses other clients, and removes the store; and Dapr's configuration API beside it", func() {
		ns := newNamespace()
		const qps = 200
		run := daprRun(ns, "kv", perfv1alpha1.ScenarioState, qps, func(s *perfv1alpha1.PerfRunSpec) {
			// SaveThenGet: both of daprd's single-key calls, HTTP, in one run (the bulk ones run
			// on real Dapr in make bench-state OPERATIONS=bulk).
			s.State = &perfv1alpha1.StateSpec{Keys: 200, Operation: perfv1alpha1.StateSaveThenGet}
			s.Load.Duration, s.Load.Warmup = &metav1.Duration{Duration: 15 * time.Second}, &metav1.Duration{Duration: 2 * time.Second}
			s.Load.Connections = 4
			s.Exclusive = ptr.To(false) // measures beside the Configuration run
		})
		cfg := startConfigurationRun(ns)
		By("a pod of another namespace reaches the store, and the store refuses it: it asks for the run's token")
		// The local cluster's network plugin enforces no NetworkPolicy, so the password is all
		// that stands between the store and any pod of the cluster, as on any such plugin.
		Eventually(phase(run), 2*time.Minute).Should(Equal(perfv1alpha1.PhaseRunning), func() string { return describe(run) })
		storeURL := "redis://kv-store." + ns + ":6379/?op=Get&keys=1"
		Expect(probeFromElsewhere(storeURL)).To(ConsistOf(ContainSubstring("NOAUTH")),
			"a client without the run's token must be refused by the run's store")
		expectClaimed(run, 4*time.Minute)
		st := get(run).Status
		res := resultOf(run)
		GinkgoWriter.Printf("store %s\nstate save then get: dapr %s\nbaseline %s\nadded %s\n", st.Environment.Store,
			summary(res.Latency), summary(res.Baseline), summary(res.Added))
		Expect(st.Environment.Store).To(Equal("kv-statestore (state.redis, deployed by the run) at kv-store:6379"))
		expectActualQPS(res, qps)
		Expect(res.Errors).To(BeZero(), "every save was taken and every get found its key: %v", res.ReturnCodes)
		Expect(res.ReturnCodes).To(HaveKeyWithValue("200", res.Requests))
		for name, l := range map[string]*perfv1alpha1.LatencySummary{"dapr": res.Latency, "baseline": res.Baseline, "added": res.Added} {
			Expect(l).NotTo(BeNil(), name)
			Expect(l.P50).NotTo(BeNil(), name)
			Expect(l.P99).NotTo(BeNil(), name)
		}
		// Calls through daprd (HTTP in, Redis's protocol out, a scripted write and a hash read)
		// cost more than go-redis's own to the same Redis: the interval lies above zero at the median.
		Expect(res.AddedInterval).NotTo(BeNil())
		Expect(res.AddedInterval.Low.P50.Duration).To(BeNumerically(">", 0))

		By("the load tester's daprd's cost and the store's own usage")
		expectDaprdCost(res, "clientSidecar", 1, 0)
		expectNoTargetCPU(res)

		By("cleanup removes the store and its Component with the run's other children")
		Eventually(func() bool {
			err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "kv-store"}, &appsv1.Deployment{})
			return apierrors.IsNotFound(err)
		}, time.Minute).Should(BeTrue())
		component := &unstructured.Unstructured{}
		component.SetGroupVersionKind(workload.ComponentGVK)
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "kv-statestore"}, component))
		}, time.Minute).Should(BeTrue())

		By("the Configuration run beside it: Dapr's configuration API against the store's own client")
		expectConfigurationMeasured(ns, cfg)
	})
})

// expectNoTargetCPU checks the kubelet's CPU accounting of a run without a target app (State,
// PubSub): it was made, and holds no server sidecar. The store's and the client daprd's
// readings are said, not required: the Dapr phase is last, the load tester's pod ends with
// it, and the kubelet refreshes counters every 10-15 s, so a 15 s phase may have no reading
// after it (expectPerPodCPU says the same; 15 s phases hold no whole metrics window either).
// daprd's own counter, read at the phase's exact edges, is checked by expectDaprdCost.
func expectNoTargetCPU(res *perfv1alpha1.Result) {
	ExpectWithOffset(1, res.CPU).NotTo(BeNil())
	measured := map[string]string{}
	for _, c := range res.CPU.Measured {
		measured[c.Role] = c.CPU.String()
	}
	GinkgoWriter.Printf("CPU while the Dapr path was measured (the kubelet's): %v\n", measured)
	for _, role := range []string{"store", "clientSidecar"} {
		if _, ok := measured[role]; !ok {
			GinkgoWriter.Printf("%s: no kubelet reading surrounded the last measured phase\n", role)
		}
	}
	ExpectWithOffset(1, measured).NotTo(HaveKey("serverSidecar"), "no target, so no server sidecar")
}
