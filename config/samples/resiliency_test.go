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

package samples_test

import (
	"os"
	"testing"

	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// The Resiliency sample names the app ids the target-killed run's pods get: a policy scoped
// to a name no sidecar has applies to nothing, and Dapr says nothing about it.
func TestTheResiliencySampleTargetsTheKilledRunsApps(t *testing.T) {
	var run perfv1alpha1.PerfRun
	readSample(t, "perf_v1alpha1_perfrun_target_killed.yaml", &run)
	var res struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Scopes     []string       `json:"scopes"`
		Spec       struct {
			Policies struct {
				Retries         map[string]map[string]any `json:"retries"`
				CircuitBreakers map[string]map[string]any `json:"circuitBreakers"`
			} `json:"policies"`
			Targets struct {
				Apps map[string]struct {
					Retry          string `json:"retry"`
					CircuitBreaker string `json:"circuitBreaker"`
				} `json:"apps"`
			} `json:"targets"`
		} `json:"spec"`
	}
	readSample(t, "dapr_resiliency_target_killed.yaml", &res)
	if res.Kind != "Resiliency" || res.APIVersion != "dapr.io/v1alpha1" {
		t.Fatalf("the sample is a %s of %s, want a dapr.io/v1alpha1 Resiliency", res.Kind, res.APIVersion)
	}
	names := workload.NamesFor(&run)
	if len(res.Scopes) != 1 || res.Scopes[0] != names.TesterAppID {
		t.Errorf("scopes %v, want the load tester's app id %s alone", res.Scopes, names.TesterAppID)
	}
	app, ok := res.Spec.Targets.Apps[names.TargetAppID]
	if !ok || len(res.Spec.Targets.Apps) != 1 {
		t.Fatalf("targets %v, want the target's app id %s", res.Spec.Targets.Apps, names.TargetAppID)
	}
	if res.Spec.Policies.Retries[app.Retry] == nil || res.Spec.Policies.CircuitBreakers[app.CircuitBreaker] == nil {
		t.Errorf("the target's retry %q or circuit breaker %q is not among the policies %+v", app.Retry, app.CircuitBreaker, res.Spec.Policies)
	}
}

// The side-by-side sample's Resiliency targets its second and third variants' app ids and not
// the first's, from the load tester's sidecar: one run compares no policy, retries, and
// retries behind a circuit breaker.
func TestTheSideBySideResiliencyTargetsEachVariantButTheFirst(t *testing.T) {
	var run perfv1alpha1.PerfRun
	readSample(t, "perf_v1alpha1_perfrun_target_killed_side_by_side.yaml", &run)
	var res struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Scopes     []string       `json:"scopes"`
		Spec       struct {
			Policies map[string]map[string]map[string]any `json:"policies"`
			Targets  struct {
				Apps map[string]map[string]string `json:"apps"`
			} `json:"targets"`
		} `json:"spec"`
	}
	readSample(t, "dapr_resiliency_target_killed_side_by_side.yaml", &res)
	if len(res.Scopes) != 1 || res.Scopes[0] != workload.NamesFor(&run).TesterAppID {
		t.Errorf("scopes %v, want the load tester's app id alone", res.Scopes)
	}
	targets := workload.VariantTargets(&run)
	if len(targets) != 3 {
		t.Fatalf("%d variants, want none, retries and breaker", len(targets))
	}
	if _, ok := res.Spec.Targets.Apps[targets[0].AppID]; ok {
		t.Errorf("the first variant's app id %s is a target: it is the run without a policy", targets[0].AppID)
	}
	for _, v := range targets[1:] {
		app, ok := res.Spec.Targets.Apps[v.AppID]
		if !ok || res.Spec.Policies["retries"][app["retry"]] == nil {
			t.Errorf("variant %s (app id %s): targets %v, want a retry policy among %v", v.Name, v.AppID, res.Spec.Targets.Apps, res.Spec.Policies)
		}
	}
	if cb := res.Spec.Targets.Apps[targets[2].AppID]["circuitBreaker"]; res.Spec.Policies["circuitBreakers"][cb] == nil {
		t.Errorf("the breaker variant has no circuit breaker among %v", res.Spec.Policies)
	}
}

func readSample(t *testing.T, name string, into any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
