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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	. "github.com/daprbench/daprbench/internal/operator/workload"
)

func fourPaths(s *perfv1alpha1.PerfRunSpec) {
	s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
}

func TestAFourPathRunExposesTheTargetsSidecarAndCallsEveryPath(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, fourPaths)
	run.Status.TokenSecret = "bench-token-abcde"
	a := TargetDeployment(run, opts).Spec.Template.Annotations
	if a[AnnotationListenAddresses] != "0.0.0.0" || a[AnnotationAPITokenSecret] != "bench-token-abcde" {
		t.Errorf("target annotations %v: daprd must listen on the pod's address for the server-only path, for the run's token only", a)
	}
	if job := LoadTesterJob(run, opts, "10.244.0.9"); job.Spec.Template.Annotations[AnnotationListenAddresses] != "" {
		t.Errorf("the load tester's own daprd must stay on localhost: %v", job.Spec.Template.Annotations)
	}
	env := envMap(LoadTesterEnv(run, "10.244.0.9"))
	want := map[string]string{
		ls.BaselineURL:   "http://10.244.0.9:3000/test",
		ls.ClientOnlyURL: "http://localhost:3500/v1.0/invoke/http://10.244.0.9:3000/method/test",
		ls.ServerOnlyURL: "http://10.244.0.9:3500/v1.0/invoke/bench-target/method/test",
		ls.DaprURL:       "http://localhost:3500/v1.0/invoke/bench-target/method/test",
	}
	for k, v := range want {
		if got := env[ls.Env(k)]; got != v {
			t.Errorf("%s = %q, want %q", ls.Env(k), got, v)
		}
	}

	standard := newRun(perfv1alpha1.ScenarioServiceInvocation)
	if a := TargetDeployment(standard, opts).Spec.Template.Annotations; a[AnnotationListenAddresses] != "" {
		t.Errorf("a standard run exposes its target's daprd: %v", a)
	}
	if env := envMap(LoadTesterEnv(standard, "10.244.0.9")); env[ls.Env(ls.ClientOnlyURL)] != "" || env[ls.Env(ls.ServerOnlyURL)] != "" {
		t.Errorf("a standard run measures one-sidecar paths: %v", env)
	}
}
