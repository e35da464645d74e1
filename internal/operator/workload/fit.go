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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// PodDemand is what one of a run's pods will ask the scheduler for, its daprd included.
type PodDemand struct {
	// Pod names the pod for a message: "target", "target of variant b", "load tester", …
	Pod string
	// Field is the spec field whose resources it carries, for a message.
	Field        string
	NodeSelector map[string]string
	Requests     corev1.ResourceList
	// Target: a target pod (of any variant).
	Target bool
	// Daprd: the injected daprd is counted in Requests.
	Daprd bool
	// WithTarget: placement SameNode, so it must fit on a target's node beside it.
	WithTarget bool
}

// PodDemands is what each of the run's pods will request: its scenario's (every variant's
// target, the twin baseline, a store) and one load-tester pod, each built as provisioning builds it.
func PodDemands(run *perfv1alpha1.PerfRun, o Options) []PodDemand {
	out := sideOf(run).Demands(run, o)
	job := LoadTesterJob(run, o, "")
	out = append(out, PodDemand{Pod: "load tester", Field: "spec.loadTester.resources", NodeSelector: job.Spec.Template.Spec.NodeSelector,
		Requests: PodRequests(&job.Spec.Template.Spec, job.Spec.Template.Annotations), Daprd: Injected(job.Spec.Template.Annotations),
		WithTarget: run.Spec.Placement == perfv1alpha1.PlacementSameNode})
	return out
}

// Injected reports whether a pod template with annotations gets Dapr's sidecar.
func Injected(annotations map[string]string) bool {
	return annotations[AnnotationDaprEnabled] == "true"
}

// PodRequests is a pod's effective CPU and memory request, as the scheduler counts it: the
// larger of its containers' sum and any one init container, each container's limit standing
// in for a request it lacks (the API server defaults one to the other), plus the daprd the
// injector will add, from the pod's dapr.io/sidecar-* annotations.
func PodRequests(spec *corev1.PodSpec, annotations map[string]string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		var sum resource.Quantity
		for _, c := range spec.Containers {
			sum.Add(containerRequest(c, name))
		}
		if Injected(annotations) {
			sum.Add(sidecarRequest(annotations, name))
		}
		for _, c := range spec.InitContainers {
			if q := containerRequest(c, name); q.Cmp(sum) > 0 {
				sum = q
			}
		}
		out[name] = sum
	}
	return out
}

func containerRequest(c corev1.Container, name corev1.ResourceName) resource.Quantity {
	if q, ok := c.Resources.Requests[name]; ok {
		return q
	}
	return c.Resources.Limits[name]
}

// sidecarRequest is the injected daprd's request of one resource: its request annotation,
// else its limit's (the API server defaults a request to the limit).
func sidecarRequest(annotations map[string]string, name corev1.ResourceName) resource.Quantity {
	kind := string(name) // cpu, memory
	for _, key := range []string{"dapr.io/sidecar-" + kind + "-request", "dapr.io/sidecar-" + kind + "-limit"} {
		if v, ok := annotations[key]; ok {
			if q, err := resource.ParseQuantity(v); err == nil {
				return q
			}
		}
	}
	return resource.Quantity{}
}
