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
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DaprdCost is one daprd's CPU per request from its own counter (process_cpu_seconds_total
// on its metrics port), which the load tester reads just before and just after every
// repetition: each figure covers exactly the requests it is divided by.
type DaprdCost struct {
	// perRepetition is the CPU per completed request in each repetition of the measured
	// path, in order: what the counter advanced by over the repetition / its completed
	// requests, the daprd's idle floor included.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	PerRepetition []metav1.Duration `json:"perRepetition"`
	// cpuPerRequest is their mean; low and high bound it with 95% confidence over this
	// run's repetitions (Student's t; absent with one repetition). It is the mean of these
	// repetitions, not where a rerun's would fall.
	CPUPerRequest metav1.Duration `json:"cpuPerRequest"`
	// +optional
	Low *metav1.Duration `json:"low,omitempty"`
	// +optional
	High *metav1.Duration `json:"high,omitempty"`
	// idleCPU is the daprd's CPU while no measured path went through it (the baseline's
	// repetitions, and those of paths that bypass it): the floor it burns at any rate.
	// Absent when every repetition went through it.
	// +optional
	IdleCPU *resource.Quantity `json:"idleCPU,omitempty"`
	// marginalPerRequest is the CPU per completed request above that floor, (CPU − idleCPU ×
	// seconds) / completed requests, the mean over the repetitions: what one more request
	// costs, where cpuPerRequest is what a request costs at this rate.
	// +optional
	MarginalPerRequest *metav1.Duration `json:"marginalPerRequest,omitempty"`
	// kubeletDifferencePercent is how far the kubelet's figure (the cost's kubeletCPUPerRequest)
	// lies from this one's mean, (kubelet − daprd) / daprd, a decimal string. The kubelet
	// counts the container's cgroup over the phases less a trimmed edge, refreshed every
	// 10–15 s, so short phases can differ by more than long ones.
	// +optional
	KubeletDifferencePercent string `json:"kubeletDifferencePercent,omitempty"`
}
