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
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// LabelVariant carries a target pod's variant code (result.DaprVariant) when the run
// compares sidecar variants.
const LabelVariant = "perf.daprbench.io/variant"

// VariantTarget is the target of one sidecar variant: its own Deployment and Dapr app id.
// The first variant's target is the run's usual one (names.Target), so a run without
// spec.variants is a run with one variant.
type VariantTarget struct {
	// Code names the variant's path in the load tester's summary.
	Code result.Variant
	// Name is spec.variants[i].name; empty without spec.variants.
	Name string
	// Deployment is the name of the Deployment, and AppID its Dapr app id.
	Deployment, AppID string
	// Tracing is the Configuration the variant's sidecar uses.
	Tracing string
	Spec    perfv1alpha1.SidecarVariant
}

// VariantTargets lists the run's sidecar variants in spec order.
func VariantTargets(run *perfv1alpha1.PerfRun) []VariantTarget {
	names := NamesFor(run)
	var out []VariantTarget
	for i, v := range run.Spec.EffectiveVariants() {
		t := VariantTarget{Code: result.DaprVariant(i), Name: v.Name, Deployment: names.Target, AppID: names.TargetAppID,
			Tracing: ConfigurationName(run), Spec: v}
		if i > 0 {
			t.Deployment = names.Target + "-" + v.Name
			t.AppID = t.Deployment
		}
		switch {
		case v.Configuration != "":
			t.Tracing = v.Configuration
		case v.TracingSamplingRate != "":
			t.Tracing = names.Tracing + "-" + strconv.Itoa(i)
		}
		out = append(out, t)
	}
	return out
}

// AppIDs are the Dapr app ids of the run's sidecars: the load tester's and each variant
// target's. A Resiliency or Component scoped to one of them applies to that sidecar.
func AppIDs(run *perfv1alpha1.PerfRun) []string {
	ids := []string{NamesFor(run).TesterAppID}
	for _, v := range VariantTargets(run) {
		ids = append(ids, v.AppID)
	}
	return ids
}

// TargetDeployments are the targets of every variant, the first being TargetDeployment.
func TargetDeployments(run *perfv1alpha1.PerfRun, o Options) []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, v := range VariantTargets(run) {
		out = append(out, variantDeployment(run, v, o))
	}
	return out
}

// TracingConfigurations are the Configurations the run writes: its own, unless it names
// one, and one per variant with a sampling rate of its own.
func TracingConfigurations(run *perfv1alpha1.PerfRun) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	if run.Spec.Dapr.Configuration == "" {
		out = append(out, TracingConfiguration(run))
	}
	for _, v := range VariantTargets(run) {
		if v.Spec.TracingSamplingRate != "" {
			out = append(out, tracingConfiguration(run, v.Tracing, v.Spec.TracingSamplingRate))
		}
	}
	return out
}

func variantDeployment(run *perfv1alpha1.PerfRun, v VariantTarget, o Options) *appsv1.Deployment {
	d := appDeployment(run, v.Deployment, RoleTarget, o)
	withCalibration(&d.Spec.Template.Spec, run, o)
	if len(run.Spec.Variants) > 0 {
		// Every variant's Deployment selects its own pods only.
		d.Labels[LabelVariant] = string(v.Code)
		d.Spec.Selector.MatchLabels[LabelVariant] = string(v.Code)
		d.Spec.Template.Labels[LabelVariant] = string(v.Code)
	}
	if run.Spec.DaprEnabled() {
		d.Spec.Template.Annotations = variantAnnotations(run, v)
		// The load tester profiles the first variant's sidecar; every variant's gets the same
		// settings so that profiling is no difference between them.
		withProfiling(d.Spec.Template.Annotations, run)
		withProfileCapture(&d.Spec.Template.Spec.Containers[0], run)
		withFaultRoute(&d.Spec.Template.Spec.Containers[0], run)
	}
	return d
}

// variantAnnotations are the injector's annotations of a variant's target: the run's
// settings with the variant's own on top.
func variantAnnotations(run *perfv1alpha1.PerfRun, v VariantTarget) map[string]string {
	port := AppPort
	if run.Spec.AppProtocolOf(v.Spec) == perfv1alpha1.ProtocolGRPC {
		port = AppGRPCPort
	}
	a := daprAnnotations(run, v.AppID, port)
	for k, val := range v.Spec.Annotations {
		a[k] = val // admission keeps the operator's own keys out of this map
	}
	a["dapr.io/config"] = v.Tracing
	exposeSidecarAPI(run, a)
	if port == AppGRPCPort {
		a["dapr.io/app-protocol"] = "grpc"
	}
	if v.Spec.SidecarImage != "" {
		a["dapr.io/sidecar-image"] = v.Spec.SidecarImage
	}
	if v.Spec.LogLevel != "" {
		a["dapr.io/log-level"] = string(v.Spec.LogLevel)
	}
	if s := v.Spec.Sidecar; s != nil {
		for _, k := range sidecarResourceKeys {
			delete(a, k)
		}
		setSidecarResources(a, *s)
	}
	return a
}
