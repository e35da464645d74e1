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
	"os"
	"path/filepath"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	. "github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/testenv"
)

// A PodKill's roles live in four places: the CRD's enum (spec.faults[].role), the API's
// ControlPlane, the roles the load tester may order (loadsettings) and the operator's map
// to what it deletes (KilledRole, ControlPlaneApp). Every role the API server admits is
// one an order may name, deleting either the run's own pods or a control-plane service's,
// and a role it refuses is refused by the route too: a role added to one home only fails here.
func TestEveryAdmittedKillRoleIsOrderedAndDeletesSomething(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "crd", "bases", "perf.daprbench.io_perfruns.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(b, &crd); err != nil {
		t.Fatal(err)
	}
	role := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["faults"].Items.Schema.Properties["role"]
	if len(role.Enum) == 0 {
		t.Fatal("no enum at spec.faults[].role in the CRD")
	}
	admitted := map[string]bool{}
	for _, raw := range role.Enum {
		var r perfv1alpha1.FaultRole
		if err := yaml.Unmarshal(raw.Raw, &r); err != nil {
			t.Fatal(err)
		}
		admitted[string(r)] = true
		if err := (ls.KillOrder{Role: string(r), Wait: time.Second}).Check(); err != nil {
			t.Errorf("role %s is admitted but no order may name it: %v", r, err)
		}
		own, isOwn := KilledRole(r)
		app, isControlPlane := ControlPlaneApp(r)
		switch {
		case isOwn == isControlPlane:
			t.Errorf("role %s: the run's own %q, or control-plane app %q: it must delete exactly one kind", r, own, app)
		case isControlPlane != r.ControlPlane():
			t.Errorf("role %s: ControlPlane() %v, but ControlPlaneApp says %v", r, r.ControlPlane(), isControlPlane)
		}
	}
	if err := (ls.KillOrder{Role: "Operator", Wait: time.Second}).Check(); err == nil {
		t.Error("a role the CRD refuses was taken by an order")
	}
	for _, r := range ls.KillRoles {
		if !admitted[r] {
			t.Errorf("an order may name role %s, which the CRD refuses", r)
		}
	}
}

// A fault run makes the run's token (the target app's fault route asks for it) and tells
// its load tester the target pod's address, even where no path of its own needs it (the
// baseline off).
func TestAFaultRunHasTheTokenAndTheTargetsAddress(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Baseline = ptr.To(false)
		s.Load.Repetitions = 2
		s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultTargetErrors, At: metav1.Duration{Duration: 10 * time.Second},
			Duration: metav1.Duration{Duration: time.Second}, ErrorPercent: ptr.To[int32](10)}}
	})
	if !NeedsRunToken(run) || !NeedsTargetIP(run) {
		t.Errorf("token %v, target address %v: a fault run needs both", NeedsRunToken(run), NeedsTargetIP(run))
	}
	run.Status.TokenSecret = "bench-token-abcde"
	if env := envMap(LoadTesterEnv(run, "10.244.0.7")); env["DAPRBENCH_FAULT_URL"] != "http://10.244.0.7:3000" || env["DAPRBENCH_FAULTS"] == "" {
		t.Errorf("fault url %q, faults %q", env["DAPRBENCH_FAULT_URL"], env["DAPRBENCH_FAULTS"])
	}
	run.Spec.Faults = nil
	if NeedsRunToken(run) || NeedsTargetIP(run) {
		t.Error("the same run without faults makes a token or reads the target's address")
	}
}

// A PodKill run's load tester is told where the operator's kill route is and which run it
// orders for, and reads no daprd counter of the target (it would be two pods' or none).
func TestAPodKillRunOrdersFromTheOperatorAndReadsNoTargetCounter(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Baseline = ptr.To(false)
		s.Load.Repetitions = 2
		s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
			At: metav1.Duration{Duration: 10 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}}
	})
	run.Status.TokenSecret = "bench-token-abcde"
	job := LoadTesterJob(run, Options{KillURL: "http://kill:9444"}, "10.244.0.7")
	env := map[string]string{}
	for _, e := range job.Spec.Template.Spec.Containers[0].Env {
		env[e.Name] = e.Value
	}
	if env["DAPRBENCH_KILL_URL"] != "http://kill:9444" || env["DAPRBENCH_RUN_NAME"] != run.Name || env["DAPRBENCH_RUN_NAMESPACE"] != run.Namespace {
		t.Errorf("kill url %q, run %q/%q", env["DAPRBENCH_KILL_URL"], env["DAPRBENCH_RUN_NAMESPACE"], env["DAPRBENCH_RUN_NAME"])
	}
	if u, set := env["DAPRBENCH_DAPRD_METRICS_SERVER_URL"]; set {
		t.Errorf("the target's daprd counter is read at %q across a kill", u)
	}
	if !KillsPods(run) {
		t.Error("KillsPods false for a PodKill run")
	}
	run.Spec.Faults[0] = perfv1alpha1.Fault{Kind: perfv1alpha1.FaultTargetErrors, ErrorPercent: ptr.To[int32](10),
		At: metav1.Duration{Duration: 10 * time.Second}, Duration: metav1.Duration{Duration: 10 * time.Second}}
	if got := envMap(LoadTesterEnv(run, "10.244.0.7"))["DAPRBENCH_DAPRD_METRICS_SERVER_URL"]; got == "" {
		t.Error("a run without a PodKill reads no target daprd counter")
	}
}

// A run's faults are applied in every repetition of every path through Dapr, never the
// baseline's: the kill route serves that many kills, and no more.
func TestFaultsAreAppliedInEveryRepetitionOfEveryPathThroughDapr(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scenario perfv1alpha1.Scenario
		edit     func(*perfv1alpha1.PerfRunSpec)
		want     int32
	}{
		{"a Workflow run", perfv1alpha1.ScenarioWorkflow, func(*perfv1alpha1.PerfRunSpec) {}, 2},
		{"four paths: both sidecars and each alone", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Baseline = ptr.To(true)
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
		}, 6},
		{"three variants beside a baseline", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Baseline = ptr.To(true)
			s.Variants = []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}, {Name: "c"}}
		}, 6},
	} {
		run := newRun(tc.scenario, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Repetitions = 2
			tc.edit(s)
		})
		if got := FaultedPhases(run); got != tc.want {
			t.Errorf("%s: %d faulted phases, want %d", tc.name, got, tc.want)
		}
	}
}
