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

// Package workloadtest makes the runs the workload tests and every scenario folder's side
// tests build on, so each asserts against the same run.
package workloadtest

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Image and PullPolicy are the options' operator image and pull policy every workload test
// builds with.
const (
	Image      = "registry.example/daprbench:v1"
	PullPolicy = "IfNotPresent"
)

// NewRun is run "bench" in namespace "perf", generation 3, of scenario at 1000 rps over 16
// connections for a minute, twice, with a 500m sidecar limit; mutate changes its spec.
func NewRun(scenario perfv1alpha1.Scenario, mutate ...func(*perfv1alpha1.PerfRunSpec)) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: "bench", Namespace: "perf", Generation: 3},
		Spec: perfv1alpha1.PerfRunSpec{
			Scenario: scenario,
			Load:     perfv1alpha1.LoadSpec{QPS: 1000, Connections: 16, Duration: &metav1.Duration{Duration: time.Minute}, Repetitions: 2},
			Dapr:     perfv1alpha1.DaprSpec{LogLevel: "warn", TracingSamplingRate: "0.25", Sidecar: perfv1alpha1.SidecarSpec{CPULimit: ptr.To(resource.MustParse("500m"))}},
		},
	}
	for _, m := range mutate {
		m(&run.Spec)
	}
	return run
}

// EnvMap is env as a map of names to values.
func EnvMap(env []corev1.EnvVar) map[string]string {
	m := map[string]string{}
	for _, e := range env {
		m[e.Name] = e.Value
	}
	return m
}
