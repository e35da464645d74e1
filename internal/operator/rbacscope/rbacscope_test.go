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

package rbacscope

import (
	"os"
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// permissionsOf flattens rules into "group/resource verb" strings.
func permissionsOf(rules []rbacv1.PolicyRule) []string {
	var out []string
	for _, r := range rules {
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				for _, v := range r.Verbs {
					out = append(out, g+"/"+res+" "+v)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func managerRules(t *testing.T) []rbacv1.PolicyRule {
	t.Helper()
	b, err := os.ReadFile("../../../config/rbac/role.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var role rbacv1.ClusterRole
	if err := yaml.Unmarshal(b, &role); err != nil {
		t.Fatal(err)
	}
	return role.Rules
}

func TestSplitGrantsExactlyTheManagersRules(t *testing.T) {
	rules := managerRules(t)
	s := Split(rules)
	got := permissionsOf(slices.Concat(s.Cluster, s.Namespaced, s.KubeletProxy))
	if want := permissionsOf(rules); !slices.Equal(got, want) {
		t.Errorf("cluster + namespaced grant\n%v\nthe ClusterRole grants\n%v", got, want)
	}
	for _, p := range permissionsOf(s.ControlPlane) {
		if !slices.Contains(permissionsOf(s.Namespaced), p) {
			t.Errorf("control plane grants %q, which the namespaced rules do not", p)
		}
	}
}

// The manager never deletes Secrets: its one Secret, a run's group token, goes with the run
// through its owner reference.
func TestTheManagerMayNotDeleteSecrets(t *testing.T) {
	if slices.Contains(permissionsOf(managerRules(t)), "/secrets delete") {
		t.Error("the manager's ClusterRole grants secrets delete")
	}
}

func TestSplitKeepsWritesAndSecretsOutOfTheClusterRole(t *testing.T) {
	s := Split(managerRules(t))
	cluster := permissionsOf(s.Cluster)
	for _, p := range []string{"/secrets get", "/pods list", "batch/jobs create", "apps/deployments patch",
		"/serviceaccounts create", "dapr.io/components create", "perf.daprbench.io/perfruns create", "metrics.k8s.io/pods list"} {
		if slices.Contains(cluster, p) {
			t.Errorf("the ClusterRole of the namespaced mode grants %q", p)
		}
	}
	if slices.Contains(cluster, "/nodes/proxy get") {
		t.Error("the ClusterRole of the namespaced mode grants the kubelet's API; only KubeletProxy may")
	}
	if got := permissionsOf(s.KubeletProxy); !slices.Equal(got, []string{"/nodes/proxy get"}) {
		t.Errorf("KubeletProxy grants %v, want nodes/proxy get alone", got)
	}
	for _, p := range []string{"/nodes list", "authentication.k8s.io/tokenreviews create",
		"perf.daprbench.io/perfruns watch", "perf.daprbench.io/perfruns/status patch"} {
		if !slices.Contains(cluster, p) {
			t.Errorf("the ClusterRole of the namespaced mode lacks %q", p)
		}
	}
	// Dapr's namespace holds its trust anchors and issuer key in Secrets: the manager reads
	// there only what it uses.
	want := []string{"/pods list", "apps/deployments list", "dapr.io/configurations get", "metrics.k8s.io/pods list"}
	if got := permissionsOf(s.ControlPlane); !slices.Equal(got, want) {
		t.Errorf("the control-plane Role grants %v, want %v", got, want)
	}
}

func TestSplitKeepsNonResourceRulesWhole(t *testing.T) {
	metrics := rbacv1.PolicyRule{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}
	s := Split([]rbacv1.PolicyRule{metrics, {APIGroups: []string{""}, Resources: []string{"events", "nodes"}, Verbs: []string{"list"}}})
	if len(s.Cluster) != 2 || s.Cluster[1].NonResourceURLs[0] != "/metrics" {
		t.Errorf("cluster rules %+v: want nodes list, then the /metrics rule", s.Cluster)
	}
	if got := permissionsOf(s.Namespaced); !slices.Equal(got, []string{"/events list"}) {
		t.Errorf("namespaced %v: want events list alone (controller-gen merges it with nodes)", got)
	}
}
