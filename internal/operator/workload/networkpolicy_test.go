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

package workload_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	. "github.com/daprbench/daprbench/internal/operator/workload"
)

// covers reports whether a rule's ports admit TCP port p.
func covers(rule networkingv1.NetworkPolicyIngressRule, p int32) bool {
	for _, port := range rule.Ports {
		if string(*port.Protocol) != "TCP" {
			continue
		}
		lo, hi := port.Port.IntVal, port.Port.IntVal
		if port.EndPort != nil {
			hi = *port.EndPort
		}
		if lo <= p && p <= hi {
			return true
		}
	}
	return false
}

func TestNetworkPoliciesGuardOnlyTheLoadsPorts(t *testing.T) {
	run := &perfv1alpha1.PerfRun{}
	run.Name, run.Namespace, run.Generation = "r", "ns", 2
	run.Spec.LoadTester.Replicas = 3
	policies := NetworkPolicies(run)
	if len(policies) != 2 || policies[0].Name != "r-target" || policies[1].Name != "r-load-2-group" {
		t.Fatalf("policies = %v", policies)
	}
	for _, tc := range []struct {
		policy  *networkingv1.NetworkPolicy
		guarded []int32
		open    []int32
	}{
		{policies[0], []int32{3000, 3001, 3500, 50001, 50002}, []int32{1, 2999, 3501, 9090, 50003, 65535}},
		{policies[1], []int32{8079}, []int32{1, 3500, 8078, 8080, 9090, 65535}},
	} {
		guardedRule, openRule := tc.policy.Spec.Ingress[0], tc.policy.Spec.Ingress[1]
		if len(guardedRule.From) != 1 || guardedRule.From[0].PodSelector.MatchLabels[LabelComponent] != string(RoleLoadTester) ||
			guardedRule.From[0].NamespaceSelector != nil {
			t.Errorf("%s: guarded ports admit %+v; want the run's load-tester pods of its namespace only", tc.policy.Name, guardedRule.From)
		}
		for _, p := range tc.guarded {
			if !covers(guardedRule, p) || covers(openRule, p) {
				t.Errorf("%s: port %d must be open to the run's load tester only", tc.policy.Name, p)
			}
		}
		for _, p := range tc.open {
			if !covers(openRule, p) {
				t.Errorf("%s: port %d must stay open to all", tc.policy.Name, p)
			}
		}
	}
	run.Spec.LoadTester.Replicas = 1
	if got := NetworkPolicies(run); len(got) != 1 {
		t.Errorf("a single load-tester pod has no group to guard: %d policies", len(got))
	}
}

func TestRunPodsCarryNoAPIToken(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(true) })
	sa := RunServiceAccount(run)
	if sa.Name != "bench-runner" || sa.AutomountServiceAccountToken == nil || *sa.AutomountServiceAccountToken {
		t.Errorf("service account = %+v; want bench-runner without a mounted token", sa)
	}
	specs := map[string]corev1.PodSpec{"job": LoadTesterJob(run, Options{}, "").Spec.Template.Spec}
	for _, d := range TargetDeployments(run, Options{}) {
		specs[d.Name] = d.Spec.Template.Spec
	}
	for name, spec := range specs {
		if spec.ServiceAccountName != sa.Name || spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
			t.Errorf("%s: service account %q, automount %v; want %s without a token", name, spec.ServiceAccountName, spec.AutomountServiceAccountToken, sa.Name)
		}
	}
}
