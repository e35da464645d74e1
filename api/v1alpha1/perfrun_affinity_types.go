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

package v1alpha1

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A role's affinity is a subset of corev1.Affinity with the same JSON, so a manifest that
// set one still reads the same. It is a type of its own because corev1.Affinity nests lists
// four deep: no marker reaches inside it, and a CEL rule that walks it is refused by the API
// server's cost estimate. Here every list and string has a bound, every operator an enum.
//
// What a benchmark needs stays: node affinity (required and preferred) by label, and pod
// (anti-)affinity among the pods of the run's own namespace. Left out: namespaces,
// namespaceSelector and match(Mismatch)LabelKeys of a pod affinity term, so a tenant cannot
// aim a run at the nodes of another namespace's pods; and matchFields of a node selector
// term (metadata.name only: nodeSelector kubernetes.io/hostname does the same).
//
// Bounds, generous for placement rules yet small enough that 1,000 of the largest admitted
// runs fit a few hundred MiB (admission_size_test.go): 2 required and 2 preferred node
// selector terms of 4 expressions; 2 required and 2 preferred pod (anti-)affinity terms whose
// selectors hold 4 labels and 2 expressions; 8 values per expression; keys of Kubernetes'
// maximum label key size (317: 253 of prefix, '/', 63 of name), values of its label value
// size (63). The keys dominate: a full affinity is about 44 KiB.

// Affinity is where a role's pods may be scheduled; spec.placement's rule is added to it.
type Affinity struct {
	// nodeAffinity: nodes by their labels.
	// +optional
	NodeAffinity *NodeAffinity `json:"nodeAffinity,omitempty"`
	// podAffinity: near pods of the run's namespace.
	// +optional
	PodAffinity *PodAffinity `json:"podAffinity,omitempty"`
	// podAntiAffinity: away from pods of the run's namespace.
	// +optional
	PodAntiAffinity *PodAffinity `json:"podAntiAffinity,omitempty"`
}

// NodeAffinity is corev1.NodeAffinity, bounded.
type NodeAffinity struct {
	// requiredDuringSchedulingIgnoredDuringExecution: nodes that match one of its terms.
	// +optional
	RequiredDuringSchedulingIgnoredDuringExecution *NodeSelector `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// preferredDuringSchedulingIgnoredDuringExecution: weighted preferences.
	// +kubebuilder:validation:MaxItems=2
	// +listType=atomic
	// +optional
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector is corev1.NodeSelector, bounded: its terms are ORed.
type NodeSelector struct {
	// nodeSelectorTerms: a node matching any of them qualifies.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=2
	// +listType=atomic
	// +required
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm is corev1.NodeSelectorTerm without matchFields: its expressions are ANDed.
type NodeSelectorTerm struct {
	// matchExpressions on node labels.
	// +kubebuilder:validation:MaxItems=4
	// +listType=atomic
	// +optional
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
}

// NodeSelectorRequirement is corev1.NodeSelectorRequirement with Kubernetes' own rules for
// each operator checked at admission, not when the run creates its pods.
// +kubebuilder:validation:XValidation:rule="!(self.operator in ['In', 'NotIn']) || (has(self.values) && size(self.values) > 0)",message="values must not be empty with operator In or NotIn"
// +kubebuilder:validation:XValidation:rule="!(self.operator in ['Exists', 'DoesNotExist']) || !has(self.values) || size(self.values) == 0",message="values must be empty with operator Exists or DoesNotExist"
// +kubebuilder:validation:XValidation:rule="!(self.operator in ['Gt', 'Lt']) || (has(self.values) && size(self.values) == 1 && self.values[0].matches('^-?[0-9]{1,18}$'))",message="operator Gt or Lt takes exactly one integer value"
type NodeSelectorRequirement struct {
	// key is the node label's key.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=317
	// +required
	Key string `json:"key"`
	// operator: In, NotIn, Exists, DoesNotExist, Gt or Lt.
	// +kubebuilder:validation:Enum=In;NotIn;Exists;DoesNotExist;Gt;Lt
	// +required
	Operator corev1.NodeSelectorOperator `json:"operator"`
	// values of the label.
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=63
	// +listType=atomic
	// +optional
	Values []string `json:"values,omitempty"`
}

// PreferredSchedulingTerm is corev1.PreferredSchedulingTerm, bounded.
type PreferredSchedulingTerm struct {
	// weight of the preference, 1 to 100.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +required
	Weight int32 `json:"weight"`
	// preference: the nodes preferred.
	// +required
	Preference NodeSelectorTerm `json:"preference"`
}

// PodAffinity is corev1.PodAffinity (or PodAntiAffinity: the same shape), bounded.
type PodAffinity struct {
	// requiredDuringSchedulingIgnoredDuringExecution: terms every node must meet.
	// +kubebuilder:validation:MaxItems=2
	// +listType=atomic
	// +optional
	RequiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// preferredDuringSchedulingIgnoredDuringExecution: weighted preferences.
	// +kubebuilder:validation:MaxItems=2
	// +listType=atomic
	// +optional
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm is corev1.PodAffinityTerm over the run's own namespace.
type PodAffinityTerm struct {
	// labelSelector: the pods of the run's namespace this term is about.
	// +optional
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	// topologyKey: the node label whose equal values count as "near".
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=317
	// +required
	TopologyKey string `json:"topologyKey"`
}

// WeightedPodAffinityTerm is corev1.WeightedPodAffinityTerm, bounded.
type WeightedPodAffinityTerm struct {
	// weight of the preference, 1 to 100.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +required
	Weight int32 `json:"weight"`
	// podAffinityTerm: the pods preferred near (or away).
	// +required
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
}

// LabelSelector is metav1.LabelSelector, bounded.
type LabelSelector struct {
	// matchLabels: pods with all these labels.
	// +kubebuilder:validation:MaxProperties=4
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 317 && size(self[k]) <= 63)",message="matchLabels: a key must be at most 317 characters and a value at most 63, as a pod label"
	// +optional
	MatchLabels map[string]string `json:"matchLabels,omitempty"`
	// matchExpressions on pod labels, ANDed.
	// +kubebuilder:validation:MaxItems=2
	// +listType=atomic
	// +optional
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is metav1.LabelSelectorRequirement with Kubernetes' rules for each
// operator checked at admission.
// +kubebuilder:validation:XValidation:rule="!(self.operator in ['In', 'NotIn']) || (has(self.values) && size(self.values) > 0)",message="values must not be empty with operator In or NotIn"
// +kubebuilder:validation:XValidation:rule="!(self.operator in ['Exists', 'DoesNotExist']) || !has(self.values) || size(self.values) == 0",message="values must be empty with operator Exists or DoesNotExist"
type LabelSelectorRequirement struct {
	// key is the pod label's key.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=317
	// +required
	Key string `json:"key"`
	// operator: In, NotIn, Exists or DoesNotExist.
	// +kubebuilder:validation:Enum=In;NotIn;Exists;DoesNotExist
	// +required
	Operator metav1.LabelSelectorOperator `json:"operator"`
	// values of the label.
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=63
	// +listType=atomic
	// +optional
	Values []string `json:"values,omitempty"`
}

// Core is the affinity as a pod spec takes it, a copy the caller may change; nil for nil.
// The types share corev1's JSON, so a round trip converts them field for field (a test
// checks that nothing is lost).
func (a *Affinity) Core() *corev1.Affinity {
	if a == nil {
		return nil
	}
	b, err := json.Marshal(a)
	if err != nil {
		panic("marshalling an Affinity: " + err.Error()) // plain structs of strings and ints
	}
	out := &corev1.Affinity{}
	if err := json.Unmarshal(b, out); err != nil {
		panic("an Affinity is not a corev1.Affinity: " + err.Error())
	}
	return out
}
