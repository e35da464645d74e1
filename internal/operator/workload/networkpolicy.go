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

package workload

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// SidecarInternalGRPCPort is where daprd takes calls from other daprds (invocation, actors).
const SidecarInternalGRPCPort = 50002

// NetworkPolicies keep a run's load where it belongs, on clusters whose network plugin
// enforces them: only the run's own load-tester pods reach their group's leader (pod 0's
// coordinator) and the ports the load goes to on the run's targets. Every other port of
// those pods stays open to all (probes, metrics scrapes, Dapr's control plane), so a
// policy never breaks what it does not guard. A podSelector without a namespaceSelector
// matches pods of the run's own namespace only.
func NetworkPolicies(run *perfv1alpha1.PerfRun) []*networkingv1.NetworkPolicy {
	names := NamesFor(run)
	fromLoadTester := []networkingv1.NetworkPolicyPeer{{PodSelector: &metav1.LabelSelector{MatchLabels: Selector(run, RoleLoadTester)}}}
	targets := &metav1.LabelSelector{
		MatchLabels: map[string]string{LabelRun: run.Name},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: LabelComponent, Operator: metav1.LabelSelectorOpIn,
			Values: []string{string(RoleTarget), string(RoleBaseline), string(RoleStore)}}},
	}
	// The app's port also carries a profiled run's capture of its daprd's profile; a State
	// run's store takes its load on StorePort.
	loadPorts := []int32{AppPort, AppGRPCPort, SidecarHTTPPort, SidecarGRPCPort, SidecarInternalGRPCPort, StorePort}
	out := []*networkingv1.NetworkPolicy{ingressPolicy(run, names.Target, targets, fromLoadTester, loadPorts)}
	if run.Spec.LoadTester.EffectiveReplicas() > 1 {
		group := &metav1.LabelSelector{MatchLabels: Selector(run, RoleLoadTester)}
		out = append(out, ingressPolicy(run, names.Job+"-group", group, fromLoadTester, []int32{GroupPort}))
	}
	return out
}

// ingressPolicy admits ingress to pods on guarded ports only from peers, and on every other port
// from anywhere.
func ingressPolicy(run *perfv1alpha1.PerfRun, name string, pods *metav1.LabelSelector, peers []networkingv1.NetworkPolicyPeer, guarded []int32) *networkingv1.NetworkPolicy {
	var guardedPorts []networkingv1.NetworkPolicyPort
	for _, p := range guarded {
		guardedPorts = append(guardedPorts, tcp(p, p))
	}
	return &networkingv1.NetworkPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: run.Namespace, Labels: Labels(run, RoleLoadTester)},
		Spec: networkingv1.NetworkPolicySpec{
			PodSelector: *pods,
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress},
			Ingress: []networkingv1.NetworkPolicyIngressRule{
				{From: peers, Ports: guardedPorts},
				{Ports: otherPorts(guarded)},
			},
		},
	}
}

// otherPorts is every TCP port but the guarded ones (as ranges), and all of UDP and SCTP.
func otherPorts(guarded []int32) []networkingv1.NetworkPolicyPort {
	sorted := slices.Sorted(slices.Values(guarded))
	var out []networkingv1.NetworkPolicyPort
	next := int32(1)
	for _, p := range sorted {
		if p > next {
			out = append(out, tcp(next, p-1))
		}
		next = p + 1
	}
	if next <= 65535 {
		out = append(out, tcp(next, 65535))
	}
	for _, proto := range []corev1.Protocol{corev1.ProtocolUDP, corev1.ProtocolSCTP} {
		out = append(out, networkingv1.NetworkPolicyPort{Protocol: ptr.To(proto), Port: ptr.To(intstr.FromInt32(1)), EndPort: ptr.To(int32(65535))})
	}
	return out
}

func tcp(from, to int32) networkingv1.NetworkPolicyPort {
	p := networkingv1.NetworkPolicyPort{Protocol: ptr.To(corev1.ProtocolTCP), Port: ptr.To(intstr.FromInt32(from))}
	if to > from {
		p.EndPort = ptr.To(to)
	}
	return p
}
