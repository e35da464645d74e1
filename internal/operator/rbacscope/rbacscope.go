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

// Package rbacscope splits the manager's ClusterRole (controller-gen's output of the
// +kubebuilder:rbac markers) for the Helm chart's namespaced mode (rbac.namespaced): what
// must stay cluster-wide, what a Role grants in each namespace the manager runs benchmarks
// in, and the read-only part granted in Dapr's control-plane namespace.
//
// Cluster-wide stay only reads and the rights no Role can give:
//   - nodes (list): the queue's node overlap; nodes are cluster-scoped.
//   - nodes/proxy (get), the kubelet's API and with it its CFS counters, goes into a
//     ClusterRole of its own (KubeletProxy) that the chart grants only when asked
//     (kubeletCounters): it reaches every kubelet's API, far more than the counters.
//   - tokenreviews and subjectaccessreviews (create): the metrics endpoint's authentication.
//   - daprbench's own kinds, read and status patch: the manager watches them everywhere, so
//     a run outside its namespaces is answered (NamespaceNotWatched) rather than ignored, and
//     one object that cannot be decoded stalls nothing (the lenient informers list every
//     namespace). Creating and deleting runs (sweeps, schedules) is namespaced.
//
// Everything else (pods, Secrets, Jobs, Deployments, Services, ServiceAccounts,
// NetworkPolicies, Dapr's Configurations and Components, events, metrics) is namespaced.
package rbacscope

import (
	"slices"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
)

const ownGroup = "perf.daprbench.io"

// Scopes are the manager's rules split by where they are granted.
type Scopes struct {
	// Cluster goes into a ClusterRole.
	Cluster []rbacv1.PolicyRule
	// Namespaced goes into a Role in each namespace the manager runs benchmarks in.
	Namespaced []rbacv1.PolicyRule
	// KubeletProxy (nodes/proxy get) goes into a ClusterRole of its own, granted only with
	// the chart's kubeletCounters.
	KubeletProxy []rbacv1.PolicyRule
	// ControlPlane goes into a Role in Dapr's control-plane namespace: only the reads the
	// manager makes there (controlPlaneReads). Never its Secrets: they hold Dapr's trust
	// anchors and issuer key.
	ControlPlane []rbacv1.PolicyRule
}

// Split places every (group, resource, verb) of rules; together the scopes grant exactly
// what rules do (ControlPlane is a subset of Namespaced). Rules naming resource names or
// non-resource URLs are kept whole in Cluster.
func Split(rules []rbacv1.PolicyRule) Scopes {
	var cluster, namespaced, controlPlane, kubelet permissions
	var s Scopes
	for _, rule := range rules {
		if len(rule.ResourceNames) > 0 || len(rule.NonResourceURLs) > 0 {
			s.Cluster = append(s.Cluster, rule)
			continue
		}
		for _, group := range rule.APIGroups {
			for _, resource := range rule.Resources {
				for _, verb := range rule.Verbs {
					if group == "" && resource == "nodes/proxy" {
						kubelet.add(group, resource, verb)
						continue
					}
					if clusterWide(group, resource, verb) {
						cluster.add(group, resource, verb)
						continue
					}
					namespaced.add(group, resource, verb)
					if slices.Contains(controlPlaneReads[group+"/"+resource], verb) {
						controlPlane.add(group, resource, verb)
					}
				}
			}
		}
	}
	s.Cluster = append(cluster.rules(), s.Cluster...)
	s.Namespaced, s.ControlPlane, s.KubeletProxy = namespaced.rules(), controlPlane.rules(), kubelet.rules()
	return s
}

// controlPlaneReads are what the manager reads in Dapr's namespace, by "group/resource":
// the preflight lists the injector's Deployment and gets the daprsystem Configuration, the
// disturbances list the control plane's pods, the usage lists their metrics.
var controlPlaneReads = map[string][]string{
	"apps/deployments":       {"list"},
	"dapr.io/configurations": {"get"},
	"/pods":                  {"list"},
	"metrics.k8s.io/pods":    {"list"},
}

// clusterWide says whether one permission stays in the ClusterRole (see the package comment).
func clusterWide(group, resource, verb string) bool {
	switch {
	case group == "" && (resource == "nodes" || strings.HasPrefix(resource, "nodes/")):
		return true
	case group == "authentication.k8s.io" || group == "authorization.k8s.io":
		return true
	case group == ownGroup:
		return isRead(verb) || (strings.HasSuffix(resource, "/status") && verb == "patch")
	}
	return false
}

func isRead(verb string) bool { return verb == "get" || verb == "list" || verb == "watch" }

// permissions collect (group, resource, verb) and give them back as rules, one per group
// and verb set, in a stable order.
type permissions map[string]map[string][]string // group → resource → verbs

func (p *permissions) add(group, resource, verb string) {
	if *p == nil {
		*p = permissions{}
	}
	if (*p)[group] == nil {
		(*p)[group] = map[string][]string{}
	}
	if !slices.Contains((*p)[group][resource], verb) {
		(*p)[group][resource] = append((*p)[group][resource], verb)
	}
}

func (p permissions) rules() []rbacv1.PolicyRule {
	var out []rbacv1.PolicyRule
	for _, group := range sortedKeys(p) {
		byVerbs := map[string][]string{} // the verbs, joined → resources
		for resource, verbs := range p[group] {
			slices.Sort(verbs)
			key := strings.Join(verbs, ",")
			byVerbs[key] = append(byVerbs[key], resource)
		}
		for _, verbs := range sortedKeys(byVerbs) {
			resources := byVerbs[verbs]
			slices.Sort(resources)
			out = append(out, rbacv1.PolicyRule{APIGroups: []string{group}, Resources: resources, Verbs: strings.Split(verbs, ",")})
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
