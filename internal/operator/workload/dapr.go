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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Dapr's API group kinds, used unstructured: the operator does not link Dapr's Go module.
var (
	ConfigurationGVK = schema.GroupVersionKind{Group: "dapr.io", Version: "v1alpha1", Kind: "Configuration"}
	ComponentGVK     = schema.GroupVersionKind{Group: "dapr.io", Version: "v1alpha1", Kind: "Component"}
	ResiliencyGVK    = schema.GroupVersionKind{Group: "dapr.io", Version: "v1alpha1", Kind: "Resiliency"}
)

// ConfigurationName is the Dapr Configuration the run's sidecars use: the one it names
// (spec.dapr.configuration), or the one it writes.
func ConfigurationName(run *perfv1alpha1.PerfRun) string {
	if named := run.Spec.Dapr.Configuration; named != "" {
		return named
	}
	return NamesFor(run).Tracing
}

// NamedConfigurations are the Configurations the run names and does not own, each once, in
// spec order (the run's, then its variants').
func NamedConfigurations(run *perfv1alpha1.PerfRun) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	add(run.Spec.Dapr.Configuration)
	for _, v := range run.Spec.Variants {
		add(v.Configuration)
	}
	return out
}

// TracingConfiguration is the per-run Dapr Configuration named by dapr.io/config, carrying
// the tracing sampling rate. mTLS is not here: it is cluster-wide (daprsystem).
func TracingConfiguration(run *perfv1alpha1.PerfRun) *unstructured.Unstructured {
	rate := run.Spec.Dapr.TracingSamplingRate
	if rate == "" {
		rate = "0.1"
	}
	return tracingConfiguration(run, NamesFor(run).Tracing, rate)
}

func tracingConfiguration(run *perfv1alpha1.PerfRun, name, rate string) *unstructured.Unstructured {
	u := DaprObject(run, ConfigurationGVK, name)
	u.Object["spec"] = map[string]any{
		"tracing": map[string]any{"samplingRate": rate},
	}
	return u
}

// StateStoreComponent is the in-memory actor state store created when the run names none.
// It is scoped to the run's two app ids so that other runs' sidecars in the namespace do
// not load it (daprd refuses two actor state stores).
func StateStoreComponent(run *perfv1alpha1.PerfRun) *unstructured.Unstructured {
	names := NamesFor(run)
	u := DaprObject(run, ComponentGVK, names.StateStore)
	u.Object["spec"] = map[string]any{
		"type":    "state.in-memory",
		"version": "v1",
		"metadata": []any{
			map[string]any{"name": "actorStateStore", "value": "true"},
		},
	}
	u.Object["scopes"] = []any{names.TargetAppID, names.TesterAppID}
	return u
}

// DaprObject is a Dapr object (a Component, a Subscription, a Configuration) of run, named
// name, carrying the run's labels.
func DaprObject(run *perfv1alpha1.PerfRun, gvk schema.GroupVersionKind, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	u.SetName(name)
	u.SetNamespace(run.Namespace)
	u.SetLabels(Labels(run, roleDapr))
	return u
}
