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

package workflow

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/operator/workload/workloadtest"
)

// A Workflow run deploys no target and waits for none: its one child is the actor state
// store Dapr keeps the workflows in, scoped to the load tester; the load tester's path names
// the pattern, its activities and their delay, started over the caller protocol, hosted and
// awaited over daprd's gRPC API.
func TestAWorkflowRunHostsItsWorkflowsInTheLoadTester(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioWorkflow)
	run.Spec.Workflow = &perfv1alpha1.WorkflowSpec{Pattern: perfv1alpha1.WorkflowFanOut, Activities: 8,
		ActivityDelay: &metav1.Duration{Duration: 2 * time.Millisecond}}
	objs := workload.ScenarioChildren(run, workload.Options{})
	if len(objs) != 1 || workload.HasTargetPod(run) || workload.NeedsTargetIP(run) {
		t.Fatalf("children %d, target pod %v, target IP %v: want only the state store, no target", len(objs), workload.HasTargetPod(run), workload.NeedsTargetIP(run))
	}
	comp := objs[0].(*unstructured.Unstructured)
	kind, _, _ := unstructured.NestedString(comp.Object, "spec", "type")
	scopes, _, _ := unstructured.NestedStringSlice(comp.Object, "scopes")
	if kind != "state.in-memory" || !slices.Contains(scopes, workload.NamesFor(run).TesterAppID) {
		t.Errorf("store %s scoped to %v: want the in-memory actor store, the load tester in scope", kind, scopes)
	}
	job := workload.LoadTesterJob(run, workload.Options{}, "")
	if got := job.Spec.Template.Annotations["dapr.io/app-port"]; got != "" {
		t.Errorf("load tester's app port %q: the SDK's worker needs none", got)
	}
	env := workloadtest.EnvMap(job.Spec.Template.Spec.Containers[0].Env)
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-workflow+http://localhost:3500/FanOut?activities=8&delay=2ms&grpc=localhost%3A50001"; got != want {
		t.Errorf("dapr URL %q, want %q", got, want)
	}
	if _, ok := env[ls.Env(ls.BaselineURL)]; ok {
		t.Error("a baseline URL: a workflow has no Dapr-less baseline")
	}
	run.Spec.Protocol.Caller = perfv1alpha1.ProtocolGRPC
	run.Spec.Workflow = &perfv1alpha1.WorkflowSpec{StateStore: "team-actors"}
	env = workloadtest.EnvMap(workload.LoadTesterJob(run, workload.Options{}, "").Spec.Template.Spec.Containers[0].Env)
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-workflow+grpc://localhost:50001/Chain?activities=5"; got != want {
		t.Errorf("dapr URL %q, want %q (the defaults, over gRPC)", got, want)
	}
	if len(workload.ScenarioChildren(run, workload.Options{})) != 0 || len(workload.UnwantedChildren(run)) != 1 {
		t.Error("a named state store: the run's own in-memory one is neither created nor kept")
	}
}
