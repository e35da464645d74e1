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
	"slices"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

func profiled(s *perfv1alpha1.PerfRunSpec) { s.Profiling = &perfv1alpha1.ProfilingSpec{Seconds: 5} }

func TestProfilingTurnsOnBothSidecarsProfilingServers(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, profiled, func(s *perfv1alpha1.PerfRunSpec) {
		s.Variants = []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}}
	})
	targets := TargetDeployments(run, opts)
	server := targets[0].Spec.Template.Annotations
	if server["dapr.io/enable-profiling"] != "true" || server["dapr.io/sidecar-listen-addresses"] != "0.0.0.0" {
		t.Errorf("the Dapr path's target: %v, want profiling on, listening on the pod IP", server)
	}
	if other := targets[1].Spec.Template.Annotations; other["dapr.io/enable-profiling"] != "true" || other["dapr.io/sidecar-listen-addresses"] != "0.0.0.0" {
		t.Errorf("a later variant's sidecar differs from the first's by profiling: %v", other)
	}
	job := LoadTesterJob(run, opts, "10.244.0.7")
	client := job.Spec.Template.Annotations
	if client["dapr.io/enable-profiling"] != "true" || client["dapr.io/sidecar-listen-addresses"] != "" {
		t.Errorf("the load tester's sidecar: %v, want profiling on localhost only", client)
	}
	env := envMap(job.Spec.Template.Spec.Containers[0].Env)
	for k, want := range map[string]string{"DAPRBENCH_PROFILE_SECONDS": "5", "DAPRBENCH_PROFILE_SERVER_URL": "http://10.244.0.7:7777",
		"DAPRBENCH_PROFILE_CLIENT_URL": "http://localhost:7777"} {
		if env[k] != want {
			t.Errorf("%s = %q, want %q", k, env[k], want)
		}
	}
	if !slices.Contains(guardedPorts(NetworkPolicies(run)[0]), ProfilingPort) {
		t.Error("the profiling port is open to every pod")
	}
}

func TestProfilingWithATwinBaselineStillCallsTheTwin(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, profiled, func(s *perfv1alpha1.PerfRunSpec) {
		s.BaselineTarget = perfv1alpha1.BaselineTwin
	})
	env := envMap(LoadTesterEnv(run, "fd00::7"))
	if env["DAPRBENCH_BASELINE_URL"] != "http://bench-baseline:3000/test" || env["DAPRBENCH_PROFILE_SERVER_URL"] != "http://[fd00::7]:7777" {
		t.Errorf("baseline %q, profile server %q", env["DAPRBENCH_BASELINE_URL"], env["DAPRBENCH_PROFILE_SERVER_URL"])
	}
}

func TestNoProfilingLeavesTheSidecarsAlone(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation)
	if a := TargetDeployment(run, opts).Spec.Template.Annotations; a["dapr.io/enable-profiling"] != "" || a["dapr.io/sidecar-listen-addresses"] != "" {
		t.Errorf("target annotations %v", a)
	}
	if _, set := envMap(LoadTesterEnv(run, "10.244.0.7"))["DAPRBENCH_PROFILE_SECONDS"]; set {
		t.Error("profiling asked of the load tester")
	}
	if slices.Contains(guardedPorts(NetworkPolicies(run)[0]), ProfilingPort) {
		t.Error("the profiling port is guarded without profiling")
	}
}

func guardedPorts(np *networkingv1.NetworkPolicy) []int32 {
	var out []int32
	for _, port := range np.Spec.Ingress[0].Ports {
		out = append(out, port.Port.IntVal)
	}
	return out
}
