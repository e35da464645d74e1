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
	"slices"
	"strings"
	"testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	. "github.com/daprbench/daprbench/internal/operator/workload"
)

func profiled(s *perfv1alpha1.PerfRunSpec) { s.Profiling = &perfv1alpha1.ProfilingSpec{Seconds: 5} }

// Both daprds profile on localhost only; the target's profile is taken by its app, for the
// run's token, so nothing of daprd listens on the pod's address.
func TestProfilingTurnsOnBothSidecarsProfilingServersOnLocalhost(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, profiled, func(s *perfv1alpha1.PerfRunSpec) {
		s.Variants = []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}}
	})
	run.Status.TokenSecret = "bench-token-abcde"
	targets := TargetDeployments(run, opts)
	for i, d := range targets {
		a := d.Spec.Template.Annotations
		if a["dapr.io/enable-profiling"] != "true" || a[AnnotationListenAddresses] != "" || a[AnnotationAPITokenSecret] != "" {
			t.Errorf("variant %d's target: %v, want profiling on, daprd on localhost only", i, a)
		}
		app := d.Spec.Template.Spec.Containers[0]
		if !slices.Contains(app.Args, "--daprd-profiler=http://localhost:7777") {
			t.Errorf("variant %d's app does not take its daprd's profile: %v", i, app.Args)
		}
		if e := envMap(app.Env); len(app.Env) != 1 || app.Env[0].ValueFrom.SecretKeyRef.Name != "bench-token-abcde" || e["DAPRBENCH_PROFILE_TOKEN"] != "" {
			t.Errorf("variant %d's app reads its profile token from %+v, want the run's Secret", i, app.Env)
		}
	}
	job := LoadTesterJob(run, opts, "10.244.0.7")
	client := job.Spec.Template.Annotations
	if client["dapr.io/enable-profiling"] != "true" || client["dapr.io/sidecar-listen-addresses"] != "" {
		t.Errorf("the load tester's sidecar: %v, want profiling on localhost only", client)
	}
	env := envMap(job.Spec.Template.Spec.Containers[0].Env)
	for k, want := range map[string]string{"DAPRBENCH_PROFILE_SECONDS": "5", "DAPRBENCH_PROFILE_SERVER_URL": "http://10.244.0.7:3000/daprd",
		"DAPRBENCH_PROFILE_CLIENT_URL": "http://localhost:7777"} {
		if env[k] != want {
			t.Errorf("%s = %q, want %q", k, env[k], want)
		}
	}
	if !NeedsRunToken(run) {
		t.Error("a profiled run makes no token for its app's capture")
	}
}

func TestProfilingWithATwinBaselineStillCallsTheTwin(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, profiled, func(s *perfv1alpha1.PerfRunSpec) {
		s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{BaselineTarget: perfv1alpha1.BaselineTwin}
	})
	env := envMap(LoadTesterEnv(run, "fd00::7"))
	if env["DAPRBENCH_BASELINE_URL"] != "http://bench-baseline:3000/test" || env["DAPRBENCH_PROFILE_SERVER_URL"] != "http://[fd00::7]:3000/daprd" {
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
	if args := TargetDeployment(run, opts).Spec.Template.Spec.Containers[0].Args; slices.ContainsFunc(args, func(a string) bool {
		return strings.HasPrefix(a, "--daprd-profiler")
	}) {
		t.Errorf("the app takes a profile nobody asked for: %v", args)
	}
	if NeedsRunToken(run) {
		t.Error("a run of one load tester, no profile and two paths makes a token")
	}
}
