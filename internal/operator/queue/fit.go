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

package queue

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/daprbench/daprbench/internal/operator/workload"
)

// NeverFits says which of a run's pods no schedulable node could ever hold — its CPU or
// memory request above the allocatable of every node its nodeSelector allows (with
// placement SameNode, the target's and a load-tester pod's requests together on one node
// both selectors allow) — and what to change; empty when each fits some node. It judges
// allocatable, not what other pods hold now (that is the queue's and the scheduler's
// turn), and leaves taints and affinity to the scheduler: it refuses only what no wait
// could cure. A pod no node's labels match is left to the scheduler too: a node pool may
// be scaled up from zero. (A node autoscaler that adds larger nodes than the cluster has is
// the operator's --preflight-fit=false.) With placement SameNode a load-tester pod must fit
// beside some target pod; several load-tester pods on one node are not counted (the check
// stays on the side of admitting).
func NeverFits(demands []workload.PodDemand, nodes []corev1.Node) string {
	var targets []workload.PodDemand
	for _, d := range demands {
		if d.Target {
			targets = append(targets, d)
		}
	}
	for _, d := range demands {
		if !d.WithTarget || len(targets) == 0 {
			eligible := schedulable(nodes, []map[string]string{d.NodeSelector})
			if len(eligible) > 0 && !fitsSome(d.Requests, eligible) {
				return refusal("the "+d.Pod+" pod asks for", d.Requests, d.Daprd, eligible, d.Field)
			}
			continue
		}
		var closest []corev1.Node
		var want corev1.ResourceList
		fits := false
		for _, t := range targets {
			together := sum(d.Requests, t.Requests)
			eligible := schedulable(nodes, []map[string]string{d.NodeSelector, t.NodeSelector})
			fits = fits || len(eligible) == 0 || fitsSome(together, eligible)
			if len(eligible) > 0 {
				closest, want = eligible, together
			}
		}
		if !fits {
			return refusal("the target and a load-tester pod, on one node (placement SameNode), ask for", want, d.Daprd, closest, d.Field)
		}
	}
	return ""
}

func refusal(what string, want corev1.ResourceList, daprd bool, eligible []corev1.Node, field string) string {
	lower := "lower " + field
	if daprd {
		what, lower = what+" (daprd's requests included)", lower+" or the sidecar's requests (spec.dapr.sidecar)"
	}
	return fmt.Sprintf("%s %s, and no schedulable node its nodeSelector allows has that much allocatable (largest: %s): %s, or add a larger node",
		what, quantities(want), largest(eligible), lower)
}

// schedulable are the nodes that take new pods and match every selector.
func schedulable(nodes []corev1.Node, selectors []map[string]string) []corev1.Node {
	var out []corev1.Node
	for _, n := range nodes {
		ok := !n.Spec.Unschedulable
		for _, sel := range selectors {
			ok = ok && labels.SelectorFromSet(sel).Matches(labels.Set(n.Labels))
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}

func fitsSome(want corev1.ResourceList, nodes []corev1.Node) bool {
	for _, n := range nodes {
		fits := true
		for name, q := range want {
			if free, ok := n.Status.Allocatable[name]; ok && q.Cmp(free) > 0 {
				fits = false
			}
		}
		if fits {
			return true
		}
	}
	return false
}

func sum(a, b corev1.ResourceList) corev1.ResourceList {
	out := a.DeepCopy()
	for name, q := range b {
		v := out[name]
		v.Add(q)
		out[name] = v
	}
	return out
}

// quantities writes cpu and memory, e.g. "cpu 2500m, memory 64Mi".
func quantities(l corev1.ResourceList) string {
	var parts []string
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := l[name]; ok && !q.IsZero() {
			parts = append(parts, string(name)+" "+q.String())
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// largest names the node with the most allocatable CPU, and what it has.
func largest(nodes []corev1.Node) string {
	best := nodes[0]
	for _, n := range nodes[1:] {
		if n.Status.Allocatable.Cpu().Cmp(*best.Status.Allocatable.Cpu()) > 0 {
			best = n
		}
	}
	return best.Name + ", " + quantities(corev1.ResourceList{corev1.ResourceCPU: *best.Status.Allocatable.Cpu(),
		corev1.ResourceMemory: roundedMemory(best.Status.Allocatable.Memory())})
}

// roundedMemory shows memory in whole MiB rather than the kubelet's bytes or Ki.
func roundedMemory(q *resource.Quantity) resource.Quantity {
	return *resource.NewQuantity(q.Value()>>20<<20, resource.BinarySI)
}
