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

package policy

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// PlacementRefusal says which of the run's tolerations and node constraints the platform
// team did not allow; empty when none. Without it a tenant could tolerate the control
// plane's or a dedicated pool's taints and put load on those nodes.
func (p Policy) PlacementRefusal(run *perfv1alpha1.PerfRun) string {
	var refused []string
	roles := []struct {
		field string
		spec  perfv1alpha1.WorkloadSpec
	}{{"spec.target", run.Spec.Target}, {"spec.loadTester", run.Spec.LoadTester.WorkloadSpec}}
	for _, role := range roles {
		for i, t := range role.spec.Tolerations {
			if !p.tolerationAllowed(t) {
				refused = append(refused, fmt.Sprintf("%s.tolerations[%d] (key %q)", role.field, i, t.Key))
			}
		}
		for _, key := range nodeLabelKeys(role.spec) {
			if len(p.AllowedNodeLabels) > 0 && !slices.Contains(p.AllowedNodeLabels, key) {
				refused = append(refused, fmt.Sprintf("%s node label %q", role.field, key))
			}
		}
	}
	if len(refused) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: not allowed on this cluster (tolerated taint keys: %s; node label keys: %s); the operator's "+
		"--allowed-tolerations and --allowed-node-labels (Helm values placement.allowedTolerations, placement.allowedNodeLabels) list them",
		strings.Join(refused, ", "), listOr(p.AllowedTolerations, "none: runs land only on nodes without taints"), listOr(p.AllowedNodeLabels, "any"))
}

// tolerationAllowed admits a toleration of one listed key. An empty key with Exists
// tolerates every taint, so it is admitted only when "*" is listed.
func (p Policy) tolerationAllowed(t corev1.Toleration) bool {
	if t.Key == "" {
		return slices.Contains(p.AllowedTolerations, "*")
	}
	return slices.Contains(p.AllowedTolerations, t.Key) || slices.Contains(p.AllowedTolerations, "*")
}

// nodeLabelKeys are the node label keys a role's pods select or require.
func nodeLabelKeys(w perfv1alpha1.WorkloadSpec) []string {
	var keys []string
	for k := range w.NodeSelector {
		keys = append(keys, k)
	}
	if aff := w.Affinity.Core(); aff != nil && aff.NodeAffinity != nil {
		na := aff.NodeAffinity
		var terms []corev1.NodeSelectorTerm
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			terms = append(terms, na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms...)
		}
		for _, pref := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, pref.Preference)
		}
		for _, term := range terms {
			for _, e := range term.MatchExpressions {
				keys = append(keys, e.Key)
			}
			for _, e := range term.MatchFields {
				keys = append(keys, e.Key)
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// StateStoreRefusal says why the store a run names (spec.actors.stateStore,
// spec.state.component, spec.pubsub.component) may not be used; empty when allowed or unset. A store the run does
// not create may be a team's production store: a PerfRun-only user must not be able to flood
// it with activations or writes.
func (p Policy) StateStoreRefusal(run *perfv1alpha1.PerfRun) string {
	named := perfv1alpha1.CapabilityOf(run.Spec.Scenario).NamedStore
	if named == nil {
		return ""
	}
	store, topic := named.Of(&run.Spec)
	if store == "" {
		return ""
	}
	if slices.Contains(p.AllowedStateStores, store) {
		return p.topicRefusal(store, topic)
	}
	return fmt.Sprintf("%s %q is not a store runs may write (allowed: %s): leave it empty for %s, "+
		"or ask whoever installed daprbench to list it (--allowed-state-stores, Helm value allowedStateStores)",
		named.Field, store, listOr(p.AllowedStateStores, "none"), named.Instead)
}

// topicRefusal says why a run on the named broker store may not name its topic: the
// allowlist admits the broker, not every topic on it (another namespace's among them).
func (p Policy) topicRefusal(store, topic string) string {
	if topic == "" || p.AllowNamedTopics {
		return ""
	}
	return fmt.Sprintf("spec.pubsub.topic %q on the named Component %q would publish the run's whole rate into a topic of a broker "+
		"others may read: leave it empty (the run uses a topic of its own, daprbench-<run uid>-<generation>), "+
		"or ask whoever installed daprbench to allow it (--allow-named-topics, Helm value allowNamedTopics)",
		topic, store)
}

func listOr(items []string, none string) string {
	if len(items) == 0 {
		return none
	}
	return strings.Join(items, ", ")
}
