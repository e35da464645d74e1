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
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

func TestImageRefusalMatchesPathComponents(t *testing.T) {
	p := Policy{OwnImage: "ghcr.io/daprbench/daprbench:v0.1.0", AllowedImagePrefixes: []string{"ghcr.io/dapr/", "registry.example.com/bench"}}
	cases := []struct {
		image   string
		allowed bool
	}{
		{"ghcr.io/daprbench/daprbench:dev", true},
		{"ghcr.io/daprbench/daprbench@sha256:0123", true},
		{"ghcr.io/daprbench/daprbench-evil:dev", false}, // shares the own repository's text, not its path
		{"ghcr.io/dapr/daprd:1.16.0", true},
		{"ghcr.io/dapr/sub/daprd:1", true},
		{"ghcr.io/dapr-evil/daprd:1.16.0", false}, // the string prefix "ghcr.io/dapr" without its "/"
		{"registry.example.com/bench:1", true},
		{"registry.example.com/bench/app:1", true},
		{"registry.example.com/benchmarks/app:1", false},
		{"ghcr.io/dapr/../evil/x:1", false}, // not a reference at all
		{"ghcr.io/dapr//x:1", false},
		{"evil.io/x/y:1", false},
	}
	for _, tc := range cases {
		run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Target: perfv1alpha1.WorkloadSpec{Image: tc.image}}}
		refusal := p.ImageRefusal(run, "")
		if got := refusal == ""; got != tc.allowed {
			t.Errorf("%s: allowed = %v, want %v (%s)", tc.image, got, tc.allowed, refusal)
		}
	}
}

// The load tester's summary becomes the run's result: its image is the operator's own unless
// a list of its own allows another, whatever the target's images may be.
func TestTheLoadTestersImageIsTheOperatorsUnlessAllowedApart(t *testing.T) {
	p := Policy{OwnImage: "ghcr.io/daprbench/daprbench:v0.1.0", AllowedImagePrefixes: []string{"ghcr.io/dapr", "registry.example.com/bench"}}
	tester := func(image string) *perfv1alpha1.PerfRun {
		return &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{LoadTester: perfv1alpha1.LoadTesterSpec{WorkloadSpec: perfv1alpha1.WorkloadSpec{Image: image}}}}
	}
	if got := p.ImageRefusal(tester("ghcr.io/daprbench/daprbench:dev"), ""); got != "" {
		t.Errorf("the operator's own repository refused: %s", got)
	}
	got := p.ImageRefusal(tester("registry.example.com/bench/loadtester:1"), "ghcr.io/dapr/dapr:1.16.0")
	if !strings.Contains(got, "spec.loadTester.image") || !strings.Contains(got, "--allowed-load-tester-image-prefixes") {
		t.Errorf("a load tester under the target's allowed paths: %q, want refused naming its own flag", got)
	}
	p.AllowedLoadTesterImagePrefixes = []string{"registry.example.com/bench"}
	if got := p.ImageRefusal(tester("registry.example.com/bench/loadtester:1"), ""); got != "" {
		t.Errorf("a load tester under its own allowed path refused: %s", got)
	}
}

func TestImageRefusalFallsBackToTheInjectorsPath(t *testing.T) {
	p := Policy{OwnImage: "daprbench:dev"}
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{
		{Name: "a", SidecarImage: "ghcr.io/dapr/daprd:1.15.0"}, {Name: "b", SidecarImage: "quay.io/someone/daprd:1"}}}}
	got := p.ImageRefusal(run, "ghcr.io/dapr/dapr:1.16.0")
	if !strings.HasPrefix(got, `spec.variants[1].sidecarImage "quay.io/someone/daprd:1": not under an allowed repository path (daprbench (the operator's own), ghcr.io/dapr/)`) {
		t.Errorf("refusal = %q", got)
	}
	if p.ImageRefusal(run, "") == "" {
		t.Error("without an injector and a list, only the operator's own repository is allowed")
	}
}

func TestPlacementRefusal(t *testing.T) {
	tolerate := func(key string) perfv1alpha1.WorkloadSpec {
		return perfv1alpha1.WorkloadSpec{Tolerations: []corev1.Toleration{{Key: key, Operator: corev1.TolerationOpExists}}}
	}
	required := func(key string) *perfv1alpha1.Affinity {
		return &perfv1alpha1.Affinity{NodeAffinity: &perfv1alpha1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &perfv1alpha1.NodeSelector{
			NodeSelectorTerms: []perfv1alpha1.NodeSelectorTerm{{MatchExpressions: []perfv1alpha1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOpExists}}}}}}}
	}
	cases := []struct {
		name    string
		policy  Policy
		spec    perfv1alpha1.PerfRunSpec
		refused string
	}{
		{name: "no placement, no list", spec: perfv1alpha1.PerfRunSpec{}},
		{name: "a toleration with no list", spec: perfv1alpha1.PerfRunSpec{Target: tolerate("node-role.kubernetes.io/control-plane")},
			refused: `spec.target.tolerations[0] (key "node-role.kubernetes.io/control-plane")`},
		{name: "an empty key tolerates every taint", policy: Policy{AllowedTolerations: []string{"bench"}},
			spec: perfv1alpha1.PerfRunSpec{LoadTester: perfv1alpha1.LoadTesterSpec{WorkloadSpec: tolerate("")}}, refused: `spec.loadTester.tolerations[0] (key "")`},
		{name: "a listed key", policy: Policy{AllowedTolerations: []string{"bench"}}, spec: perfv1alpha1.PerfRunSpec{Target: tolerate("bench")}},
		{name: "any node label without a list", spec: perfv1alpha1.PerfRunSpec{Target: perfv1alpha1.WorkloadSpec{NodeSelector: map[string]string{"pool": "gpu"}}}},
		{name: "a node selector off the list", policy: Policy{AllowedNodeLabels: []string{"bench-pool"}},
			spec: perfv1alpha1.PerfRunSpec{Target: perfv1alpha1.WorkloadSpec{NodeSelector: map[string]string{"pool": "gpu"}}}, refused: `spec.target node label "pool"`},
		{name: "node affinity off the list", policy: Policy{AllowedNodeLabels: []string{"bench-pool"}},
			spec:    perfv1alpha1.PerfRunSpec{LoadTester: perfv1alpha1.LoadTesterSpec{WorkloadSpec: perfv1alpha1.WorkloadSpec{Affinity: required("dedicated")}}},
			refused: `spec.loadTester node label "dedicated"`},
		{name: "node affinity on the list", policy: Policy{AllowedNodeLabels: []string{"bench-pool"}},
			spec: perfv1alpha1.PerfRunSpec{Target: perfv1alpha1.WorkloadSpec{Affinity: required("bench-pool")}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.policy.PlacementRefusal(&perfv1alpha1.PerfRun{Spec: tc.spec})
			if tc.refused == "" && got != "" || tc.refused != "" && !strings.HasPrefix(got, tc.refused+":") {
				t.Errorf("refusal = %q, want prefix %q", got, tc.refused)
			}
		})
	}
}

func TestStateStoreRefusal(t *testing.T) {
	actors := func(store string) *perfv1alpha1.PerfRun {
		return &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation,
			Actors: &perfv1alpha1.ActorsSpec{StateStore: store}}}
	}
	if got := (Policy{}).StateStoreRefusal(actors("")); got != "" {
		t.Errorf("the run's own in-memory store: %q", got)
	}
	if got := (Policy{}).StateStoreRefusal(actors("statestore")); !strings.Contains(got, `spec.actors.stateStore "statestore" is not a store runs may write (allowed: none)`) {
		t.Errorf("no list: %q", got)
	}
	if got := (Policy{AllowedStateStores: []string{"bench-redis"}}).StateStoreRefusal(actors("bench-redis")); got != "" {
		t.Errorf("a listed store: %q", got)
	}
	// A listed broker admits the run, not every topic on it (issue #62 item 5).
	pubsub := func(component, topic string) *perfv1alpha1.PerfRun {
		return &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioPubSub,
			PubSub: &perfv1alpha1.PubSubSpec{Component: component, Topic: topic}}}
	}
	listed := Policy{AllowedStateStores: []string{"shared-kafka"}}
	if got := listed.StateStoreRefusal(pubsub("shared-kafka", "orders")); !strings.Contains(got, `spec.pubsub.topic "orders" on the named Component "shared-kafka"`) ||
		!strings.Contains(got, "--allow-named-topics") {
		t.Errorf("a named topic on a shared broker: %q", got)
	}
	for name, run := range map[string]*perfv1alpha1.PerfRun{
		"the run's own topic on a listed broker":     pubsub("shared-kafka", ""),
		"a named topic on the Redis the run deploys": pubsub("", "orders"),
	} {
		if got := listed.StateStoreRefusal(run); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
	listed.AllowNamedTopics = true
	if got := listed.StateStoreRefusal(pubsub("shared-kafka", "orders")); got != "" {
		t.Errorf("named topics allowed: %q", got)
	}
}
