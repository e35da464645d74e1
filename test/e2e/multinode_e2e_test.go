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
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// These specs need three nodes (make test-e2e-multinode: NODES=3); the default suite leaves
// them out by their label.
var _ = Describe("Dapr's published topology on three nodes", Label("multinode"), func() {
	It("puts the load tester beside or away from the target as placement says, and spreads a split load over the nodes", func() {
		var nodes corev1.NodeList
		Expect(k8sClient.List(ctx, &nodes)).To(Succeed())
		Expect(len(nodes.Items)).To(BeNumerically(">=", 3), "these specs need a cluster of three nodes: make test-e2e-multinode")

		ns := newNamespace()
		short := func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
			s.Load.Warmup = &metav1.Duration{Duration: 3 * time.Second}
			s.Load.Repetitions = 1 // the default 3 would triple the spec's time
			s.Load.Connections = 6
			s.Load.PayloadBytes = ptr.To[int32](1024)
			s.Baseline = ptr.To(true)
			s.Dapr.Sidecar.CPURequest = ptr.To(resource.MustParse("100m"))
			// Side by side: these check where pods land, not what they cost beside each other.
			s.Exclusive = ptr.To(false)
		}
		apart := daprRun(ns, "apart", perfv1alpha1.ScenarioServiceInvocation, protocolQPS, short,
			func(s *perfv1alpha1.PerfRunSpec) { s.Placement = perfv1alpha1.PlacementDifferentNodes })
		together := daprRun(ns, "together", perfv1alpha1.ScenarioServiceInvocation, protocolQPS, short,
			func(s *perfv1alpha1.PerfRunSpec) { s.Placement = perfv1alpha1.PlacementSameNode })
		spread := daprRun(ns, "spread", perfv1alpha1.ScenarioServiceInvocation, protocolQPS, short,
			func(s *perfv1alpha1.PerfRunSpec) { s.LoadTester.Replicas = 3 })
		for _, run := range []*perfv1alpha1.PerfRun{apart, together, spread} {
			expectSucceeded(run, 8*time.Minute)
		}

		By("DifferentNodes: the tester on another node than the target, the call crossing nodes")
		env := get(apart).Status.Environment
		Expect(env.TargetNode).NotTo(BeEmpty())
		Expect(env.LoadTesterNode).NotTo(BeEmpty())
		Expect(env.LoadTesterNode).NotTo(Equal(env.TargetNode))
		Expect(env.SameNode).To(Equal(ptr.To(false)))

		By("SameNode: the tester beside the target")
		env = get(together).Status.Environment
		Expect(env.LoadTesterNode).To(Equal(env.TargetNode))
		Expect(env.SameNode).To(Equal(ptr.To(true)))

		By("three load-tester pods spread over the nodes, one merged result")
		res := resultOf(spread)
		Expect(res.LoadTesters).To(HaveLen(3), "%s", describe(spread))
		used := map[string]bool{}
		for _, p := range res.LoadTesters {
			used[p.Node] = true
		}
		Expect(len(used)).To(BeNumerically(">=", 2), "pods %+v", res.LoadTesters)
		Expect(res.Errors).To(BeZero())
		// Counters of pods on different nodes are never subtracted from each other.
		expectPerPodCPU(res, 3)

		var rows []string
		for _, run := range []*perfv1alpha1.PerfRun{apart, together, spread} {
			r := get(run)
			rows = append(rows, fmt.Sprintf("| %s | %s → %s | %s | %s | %s |", r.Name, r.Status.Environment.LoadTesterNode, r.Status.Environment.TargetNode,
				resultOf(r).ActualQPS, summary(resultOf(r).Latency), summary(resultOf(r).Added)))
		}
		GinkgoWriter.Println(strings.Join(rows, "\n"))
	})
})
