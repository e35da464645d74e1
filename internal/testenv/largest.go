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

package testenv

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// The largest objects the CRDs admit: every bounded list full, every bounded string at its
// limit. The admission suite proves the API server admits them and bounds their JSON;
// hack/bench/footprint measures the manager holding 1,000 of them.

// LargestTemplate is the largest PerfRunTemplate the CRDs admit.
func LargestTemplate() perfv1alpha1.PerfRunTemplate {
	return perfv1alpha1.PerfRunTemplate{
		Metadata: perfv1alpha1.TemplateMetadata{Labels: stringsMap(16, 63), Annotations: stringsMap(16, 1024)},
		Spec:     LargestRunSpec(),
	}
}

// LargestRunSpec fills every bounded list and string of a ServiceInvocation run (the larger
// scenario: variants exist only there) to its bound.
func LargestRunSpec() perfv1alpha1.PerfRunSpec {
	q := resource.MustParse(strings.Repeat("9", 32))
	sidecar := perfv1alpha1.SidecarSpec{CPULimit: &q, CPURequest: &q, MemoryLimit: &q, MemoryRequest: &q}
	var variants []perfv1alpha1.SidecarVariant
	for i := range 4 {
		variants = append(variants, perfv1alpha1.SidecarVariant{Name: fmt.Sprintf("variant-%04d", i), SidecarImage: longImage(),
			Sidecar: sidecar.DeepCopy(), LogLevel: "debug", TracingSamplingRate: "0.123456", AppProtocol: perfv1alpha1.ProtocolGRPC,
			Annotations: variantAnnotations()})
	}
	d := func(s string) *metav1.Duration { v, _ := time.ParseDuration(s); return &metav1.Duration{Duration: v} }
	for i := 1; i < len(variants); i++ { // the first is the reference: it has none
		variants[i].Thresholds = &perfv1alpha1.VariantThresholds{MaxSlowdownP50: d("1h"), MaxSlowdownP90: d("1h"), MaxSlowdownP99: d("1h"),
			MaxSlowdownPercent: ptr.To(int32(1000))}
	}
	return perfv1alpha1.PerfRunSpec{
		Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 100000, Connections: 1024, Duration: d("60s"), Warmup: d("10s"), Repetitions: 10,
			Payload: ptr.To(strings.Repeat("p", 65536)), Arrival: perfv1alpha1.ArrivalUniform},
		Baseline:   ptr.To(true),
		Dapr:       perfv1alpha1.DaprSpec{Enabled: ptr.To(true), MTLS: perfv1alpha1.MTLSEnabled, TracingSamplingRate: "0.123456", Sidecar: sidecar, LogLevel: "debug", ControlPlaneNamespace: strings.Repeat("d", 63)},
		Variants:   variants,
		Target:     largestWorkload(),
		LoadTester: perfv1alpha1.LoadTesterSpec{WorkloadSpec: largestWorkload(), Replicas: 10},
		Placement:  perfv1alpha1.PlacementDifferentNodes,
		Timeout:    d("72h"),
		Thresholds: &perfv1alpha1.Thresholds{MaxAddedP90: d("1h"), MaxAddedP99: d("1h"), MaxP90: d("1h"), MaxP99: d("1h"),
			MinQPSPercent: ptr.To(int32(100)), MaxErrors: ptr.To(int64(1 << 62)), MaxRestarts: ptr.To(int32(1 << 30)),
			MaxSidecarCPUPer1kQPS: &q, MaxSidecarMemoryPer1kQPS: &q, MaxSidecarMemoryGrowthPerHour: &q, MaxSidecarGoroutineGrowthPerHour: ptr.To[int32](1000000), FailRun: true},
		Exclusive:    ptr.To(true),
		MaxQueueWait: d("168h"),
		Cleanup:      perfv1alpha1.CleanupNever,
	}
}

func largestWorkload() perfv1alpha1.WorkloadSpec {
	q := resource.MustParse(strings.Repeat("9", 32))
	list := corev1.ResourceList{corev1.ResourceCPU: q, corev1.ResourceMemory: q, corev1.ResourceEphemeralStorage: q}
	var tolerations []corev1.Toleration
	for i := range 8 {
		tolerations = append(tolerations, corev1.Toleration{Key: labelKey(i), Operator: corev1.TolerationOpEqual,
			Value: strings.Repeat("v", 63), Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To(int64(1 << 40))})
	}
	return perfv1alpha1.WorkloadSpec{
		Image:        longImage(),
		Resources:    corev1.ResourceRequirements{Requests: list, Limits: list.DeepCopy()},
		NodeSelector: stringsMap(8, 63),
		Tolerations:  tolerations,
		Affinity:     largestAffinity(),
	}
}

func largestAffinity() *perfv1alpha1.Affinity {
	nodeTerm := func() perfv1alpha1.NodeSelectorTerm {
		var t perfv1alpha1.NodeSelectorTerm
		for i := range 4 {
			t.MatchExpressions = append(t.MatchExpressions, perfv1alpha1.NodeSelectorRequirement{Key: labelKey(i), Operator: corev1.NodeSelectorOpIn, Values: labelValues(8)})
		}
		return t
	}
	podTerm := func() perfv1alpha1.PodAffinityTerm {
		sel := &perfv1alpha1.LabelSelector{MatchLabels: stringsMap(4, 63)}
		for i := range 2 {
			sel.MatchExpressions = append(sel.MatchExpressions, perfv1alpha1.LabelSelectorRequirement{Key: labelKey(i), Operator: metav1.LabelSelectorOpNotIn, Values: labelValues(8)})
		}
		return perfv1alpha1.PodAffinityTerm{LabelSelector: sel, TopologyKey: labelKey(99)}
	}
	pods := func() *perfv1alpha1.PodAffinity {
		p := &perfv1alpha1.PodAffinity{}
		for range 2 {
			p.RequiredDuringSchedulingIgnoredDuringExecution = append(p.RequiredDuringSchedulingIgnoredDuringExecution, podTerm())
			p.PreferredDuringSchedulingIgnoredDuringExecution = append(p.PreferredDuringSchedulingIgnoredDuringExecution, perfv1alpha1.WeightedPodAffinityTerm{Weight: 100, PodAffinityTerm: podTerm()})
		}
		return p
	}
	node := &perfv1alpha1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &perfv1alpha1.NodeSelector{}}
	for range 2 {
		node.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = append(node.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms, nodeTerm())
		node.PreferredDuringSchedulingIgnoredDuringExecution = append(node.PreferredDuringSchedulingIgnoredDuringExecution, perfv1alpha1.PreferredSchedulingTerm{Weight: 100, Preference: nodeTerm()})
	}
	return &perfv1alpha1.Affinity{NodeAffinity: node, PodAffinity: pods(), PodAntiAffinity: pods()}
}

// labelKey is a distinct label key of the largest size Kubernetes allows: a 253-character
// DNS prefix, '/', a 63-character name.
func labelKey(i int) string {
	name := fmt.Sprintf("k%d", i)
	return strings.Repeat("a", 61) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 63) +
		"/" + name + strings.Repeat("n", 63-len(name))
}

func labelValues(n int) []string {
	var out []string
	for i := range n {
		v := fmt.Sprintf("v%d", i)
		out = append(out, v+strings.Repeat("x", 63-len(v)))
	}
	return out
}

// stringsMap is n entries of the largest label key and a value of valueLen characters.
func stringsMap(n, valueLen int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[labelKey(i)] = strings.Repeat("v", valueLen)
	}
	return m
}

// longImage is a 512-character image reference.
func longImage() string {
	prefix := "registry.example:5000/"
	suffix := "@sha256:" + strings.Repeat("f", 64)
	return prefix + strings.Repeat("p", 512-len(prefix)-len(suffix)) + suffix
}

// variantAnnotations is 16 allowlisted annotations with 256-character values.
func variantAnnotations() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"max-body-size", "http-max-request-size", "read-buffer-size", "http-read-buffer-size", "app-max-concurrency",
		"enable-api-logging", "log-as-json", "enable-metrics", "enable-profiling", "graceful-shutdown-seconds", "block-shutdown-duration",
		"sidecar-liveness-probe-delay-seconds", "sidecar-liveness-probe-timeout-seconds", "sidecar-readiness-probe-delay-seconds",
		"sidecar-readiness-probe-timeout-seconds", "app-health-check-path"} {
		m["dapr.io/"+k] = strings.Repeat("1", 256)
	}
	return m
}
