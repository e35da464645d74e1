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
	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	. "github.com/daprbench/daprbench/internal/operator/workload"
)

// A pod's demand counts what the scheduler will: the app's request, the injected daprd's
// (its limit standing in for a request it lacks), and an init container only when it asks
// for more than the containers together.
func TestPodDemandsCountTheInjectedDaprdAndTheLargerOfInitAndContainers(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000}}}
	run.Name, run.Namespace = "fit", "perf"
	half := resource.MustParse("500m")
	run.Spec.Dapr.Sidecar.CPULimit = &half
	run.Spec.Target.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")}
	got := map[string]corev1.ResourceList{}
	for _, d := range PodDemands(run, Options{Image: "daprbench:dev"}) {
		got[d.Pod] = d.Requests
	}
	// Target: 100m app + 500m daprd (its limit); the calibration init container's 500m is less.
	if cpu, mem := got["target"][corev1.ResourceCPU], got["target"][corev1.ResourceMemory]; cpu.String() != "600m" || mem.String() != "64Mi" {
		t.Errorf("target asks for cpu %s, memory %s; want 600m, 64Mi", cpu.String(), mem.String())
	}
	// Load tester: 150m by default at 1000 rps + 500m daprd.
	if cpu := got["load tester"][corev1.ResourceCPU]; cpu.String() != "650m" {
		t.Errorf("load tester asks for cpu %s; want 650m", cpu.String())
	}
	// An init container asking for more than the containers together sets the pod's request.
	big := resource.MustParse("3")
	spec := corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: half}}}},
		InitContainers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: big}}}}}
	if cpu := PodRequests(&spec, nil)[corev1.ResourceCPU]; cpu.String() != "3" {
		t.Errorf("pod with a 3-CPU init container asks for %s", cpu.String())
	}
}
