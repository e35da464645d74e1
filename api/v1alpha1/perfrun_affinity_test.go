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
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Core converts through JSON: a field whose tag differs from corev1's would vanish silently.
// Every field set here must arrive.
func TestAffinityCoreKeepsEveryField(t *testing.T) {
	expr := NodeSelectorRequirement{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{"perf"}}
	term := PodAffinityTerm{TopologyKey: corev1.LabelHostname, LabelSelector: &LabelSelector{
		MatchLabels:      map[string]string{"app": "db"},
		MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"batch"}}},
	}}
	in := &Affinity{
		NodeAffinity: &NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{expr}}}},
			PreferredDuringSchedulingIgnoredDuringExecution: []PreferredSchedulingTerm{{Weight: 7, Preference: NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr}}}},
		},
		PodAffinity: &PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []PodAffinityTerm{term}},
		PodAntiAffinity: &PodAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []WeightedPodAffinityTerm{{Weight: 9, PodAffinityTerm: term}},
		},
	}
	coreExpr := corev1.NodeSelectorRequirement{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{"perf"}}
	coreTerm := corev1.PodAffinityTerm{TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{
		MatchLabels:      map[string]string{"app": "db"},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"batch"}}},
	}}
	want := &corev1.Affinity{
		NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{coreExpr}}}},
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 7, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{coreExpr}}}},
		},
		PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{coreTerm}},
		PodAntiAffinity: &corev1.PodAntiAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 9, PodAffinityTerm: coreTerm}},
		},
	}
	got := in.Core()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Core() lost or changed a field:\n got %+v\nwant %+v", got, want)
	}
	got.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values[0] = "changed"
	if in.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values[0] != "perf" {
		t.Fatal("Core() shares memory with the spec: the caller's additions would change the run")
	}
	if (*Affinity)(nil).Core() != nil {
		t.Fatal("Core() of nil must be nil")
	}
}
