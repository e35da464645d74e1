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

package loadgen

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
	// Every scenario's operator side, which writes the settings this package reads.
	_ "github.com/daprbench/daprbench/internal/scenario/all"
)

// A four-path run's variables reach the load tester as the four paths, in the order the
// attribution lists them.
func TestTheLoadTesterReadsAFourPathRunsPaths(t *testing.T) {
	t.Parallel()
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "four", Namespace: "ns"}, Spec: perfv1alpha1.PerfRunSpec{
		Scenario: perfv1alpha1.ScenarioServiceInvocation, ServiceInvocation: &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour},
		Load: perfv1alpha1.LoadSpec{QPS: 100},
	}}
	run.Status.TokenSecret = "four-token-x7k2p"
	env := kubeletEnv(workload.LoadTesterEnv(run, "10.244.0.7"))
	inv, err := parse(nil, env, io.Discard, io.Discard)
	if err != nil {
		t.Fatalf("the load tester refuses the operator's variables: %v", err)
	}
	var paths []result.Variant
	for _, target := range inv.cfg.Targets {
		paths = append(paths, target.Variant)
	}
	if !slices.Equal(paths, result.AttributionPaths) {
		t.Errorf("paths %v, want %v", paths, result.AttributionPaths)
	}
	// The server-only path calls a daprd that asks for the run's token; no other path sends it.
	for _, target := range inv.cfg.Targets {
		want := ""
		if target.Variant == result.ServerOnly {
			want = "token of four-token-x7k2p"
		}
		if target.DaprAPIToken != want {
			t.Errorf("the %s path sends the dapr api token %q, want %q", target.Variant, target.DaprAPIToken, want)
		}
	}
}

// A run's faults reach the load tester whole, each kind the API admits one it applies, with
// the target app to order them from and the run's token.
func TestTheLoadTesterReadsARunsFaults(t *testing.T) {
	t.Parallel()
	twenty := int32(20)
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "faulty", Namespace: "ns"}, Spec: perfv1alpha1.PerfRunSpec{
		Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100, Repetitions: 2},
		Faults: []perfv1alpha1.Fault{
			{Kind: perfv1alpha1.FaultTargetErrors, At: metav1.Duration{Duration: 10 * time.Second}, Duration: metav1.Duration{Duration: 5 * time.Second}, ErrorPercent: &twenty},
			{Kind: perfv1alpha1.FaultTargetDelay, At: metav1.Duration{Duration: 30 * time.Second}, Duration: metav1.Duration{Duration: 5 * time.Second}, Delay: &metav1.Duration{Duration: 50 * time.Millisecond}},
		},
	}}
	run.Status.TokenSecret = "faulty-token-x7k2p"
	inv, err := parse(nil, kubeletEnv(workload.LoadTesterEnv(run, "10.244.0.7")), io.Discard, io.Discard)
	if err != nil {
		t.Fatalf("the load tester refuses the operator's variables: %v", err)
	}
	want := []loadsettings.Fault{{Kind: loadsettings.FaultTargetErrors, At: 10 * time.Second, For: 5 * time.Second, ErrorPercent: 20},
		{Kind: loadsettings.FaultTargetDelay, At: 30 * time.Second, For: 5 * time.Second, Delay: 50 * time.Millisecond}}
	if f := inv.cfg.Faults; f == nil || !slices.Equal(f.Faults, want) || f.AppURL != "http://10.244.0.7:3000" || f.Token != "token of faulty-token-x7k2p" {
		t.Errorf("faults %+v, want %+v from http://10.244.0.7:3000 with the run's token", f, want)
	}
	target := workload.TargetDeployment(run, workload.Options{})
	if !slices.ContainsFunc(target.Spec.Template.Spec.Containers[0].Env, func(e corev1.EnvVar) bool { return e.Name == loadsettings.Env(loadsettings.FaultToken) }) {
		t.Error("the target app is not given the run's token for its fault route")
	}
}

// A control-plane kill held down reaches the load tester with its hold, which its order to
// the operator carries: the operator lets the service back only after it.
func TestTheLoadTesterReadsAHeldControlPlaneKill(t *testing.T) {
	t.Parallel()
	scheduler := perfv1alpha1.FaultRoleScheduler
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "outage", Namespace: "ns"}, Spec: perfv1alpha1.PerfRunSpec{
		Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100, Repetitions: 2},
		Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: &scheduler, At: metav1.Duration{Duration: 10 * time.Second},
			Duration: metav1.Duration{Duration: 40 * time.Second}, Hold: &metav1.Duration{Duration: 20 * time.Second}}},
	}}
	run.Status.TokenSecret = "outage-token-x7k2p"
	inv, err := parse(nil, kubeletEnv(workload.LoadTesterEnv(run, "")), io.Discard, io.Discard)
	if err != nil {
		t.Fatalf("the load tester refuses the operator's variables: %v", err)
	}
	want := loadsettings.Fault{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleScheduler, At: 10 * time.Second, For: 40 * time.Second, Hold: 20 * time.Second}
	if f := inv.cfg.Faults; f == nil || !slices.Equal(f.Faults, []loadsettings.Fault{want}) {
		t.Fatalf("faults %+v, want %+v", f, want)
	}
	if o := inv.cfg.Faults.Faults[0].KillOrder(); o.Hold != 20*time.Second || o.Wait != 40*time.Second {
		t.Errorf("order %+v: want the hold, and the fault's duration as the wait", o)
	}
}

// kubeletEnv is env as the kubelet hands it to the container: a Secret's key as the
// token of that Secret, a field (the completion index) as 2.
func kubeletEnv(vars []corev1.EnvVar) []string {
	var env []string
	for _, e := range vars {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
			e.Value = "token of " + e.ValueFrom.SecretKeyRef.Name
		case e.ValueFrom != nil:
			e.Value = "2"
		}
		env = append(env, e.Name+"="+e.Value)
	}
	return env
}

// In every mode admission admits, the operator's variables give the load tester the paths
// of the spec's measured plan, in its order: progress, the load time and the assessment
// read the same plan.
func TestTheLoadTesterMeasuresTheSpecsPlanInEveryMode(t *testing.T) {
	t.Parallel()
	off, on := false, true
	for _, c := range []struct {
		name string
		spec perfv1alpha1.PerfRunSpec
	}{
		{"standard", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation}},
		{"no baseline", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Baseline: &off}},
		{"twin baseline", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, ServiceInvocation: &perfv1alpha1.ServiceInvocationSpec{BaselineTarget: perfv1alpha1.BaselineTwin}}},
		{"four paths", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, ServiceInvocation: &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}}},
		{"variants", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Variants: []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}, {Name: "c"}}}},
		{"variants, no baseline", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Baseline: &off, Variants: []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}}}},
		{"without Dapr", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Dapr: perfv1alpha1.DaprSpec{Enabled: &off}}},
		{"gRPC caller", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Baseline: &on, Protocol: perfv1alpha1.ProtocolSpec{Caller: perfv1alpha1.ProtocolGRPC}}},
		{"actors", perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation}},
	} {
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "plan", Namespace: "ns"}, Spec: c.spec}
		run.Spec.Load.QPS = 100
		inv, err := parse(nil, kubeletEnv(workload.LoadTesterEnv(run, "10.244.0.7")), io.Discard, io.Discard)
		if err != nil {
			t.Errorf("%s: the load tester refuses the operator's variables: %v", c.name, err)
			continue
		}
		var paths []result.Variant
		for _, target := range inv.cfg.Targets {
			paths = append(paths, target.Variant)
		}
		if want := workload.MeasuredPaths(&run.Spec); !slices.Equal(paths, want) || len(paths) != run.Spec.Paths() || len(workload.PathNames(&run.Spec)) != len(paths) {
			t.Errorf("%s: the load tester measures %v; the plan is %v (%d paths, named %v)", c.name, paths, want, run.Spec.Paths(), workload.PathNames(&run.Spec))
		}
	}
}

// URLs that no run of the operator's would give are refused, not measured as some other plan.
func TestTheLoadTesterRefusesURLsOutsideAnyPlan(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--baseline-url=http://b/test"},                                // a baseline with no Dapr path
		{"--dapr-url=http://d/test", "--direct-url=http://x/test"},      // a direct URL goes alone
		{"--dapr-url=http://d/test", "--client-only-url=http://c/test"}, // half of the one-sidecar paths
		{"--direct-url=http://x/test", "--variant-urls=http://d1/test"}, // variants without Dapr
	} {
		if _, err := parse(args, nil, io.Discard, io.Discard); err == nil {
			t.Errorf("%v: parsed", args)
		}
	}
	if inv, err := parse([]string{"--direct-url=http://x/test"}, nil, io.Discard, io.Discard); err != nil || len(inv.cfg.Targets) != 1 {
		t.Errorf("a direct URL alone: %v, %+v", err, inv.cfg.Targets)
	}
}

// The operator's variables and the load tester's flags are one contract: every variable the
// Job builder sets must reach the setting it names, with its value.
func TestTheLoadTesterReadsEveryVariableTheOperatorSets(t *testing.T) {
	t.Parallel()
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "contract", Namespace: "ns"}, Spec: perfv1alpha1.PerfRunSpec{
		Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 900, Connections: 12, Duration: &metav1.Duration{Duration: 45 * time.Second},
			Warmup: &metav1.Duration{Duration: 7 * time.Second}, Repetitions: 4, PayloadBytes: ptr.To[int32](2048), Arrival: perfv1alpha1.ArrivalUniform},
		Variants:   []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}},
		LoadTester: perfv1alpha1.LoadTesterSpec{Replicas: 3},
		Profiling:  &perfv1alpha1.ProfilingSpec{Seconds: 7},
	}}
	run.Status.TokenSecret = "contract-token-q9z4m"
	env := kubeletEnv(workload.LoadTesterEnv(run, "10.244.0.7"))
	inv, err := parse(nil, env, io.Discard, io.Discard)
	if err != nil {
		t.Fatalf("the load tester refuses the operator's variables: %v\n%s", err, strings.Join(env, "\n"))
	}
	c := inv.cfg
	if c.QPS != 900 || c.Connections != 12 || c.Duration != 45*time.Second || c.Warmup != 7*time.Second || c.Repetitions != 4 ||
		c.PayloadBytes != 2048 || !c.Uniform {
		t.Errorf("load settings lost on the way: %+v", c)
	}
	if c.Group == nil || c.Group.Size != 3 || c.Group.Index != 2 || !strings.Contains(c.Group.LeaderURL, "contract-load-") ||
		c.Group.Token != "token of contract-token-q9z4m" {
		t.Errorf("group settings lost on the way: %+v", c.Group)
	}
	if inv.sidecarURL == "" || inv.termLog != workload.TerminationLog {
		t.Errorf("sidecar %q, termination log %q", inv.sidecarURL, inv.termLog)
	}
	// The target's daprd profile is taken by its app (daprd's profiler stays on localhost),
	// for the run's token.
	if p := c.Profile; p == nil || p.Seconds != 7 || p.ServerURL != "http://10.244.0.7:3000/daprd" || p.ClientURL != "http://localhost:7777" ||
		p.ServerToken != "token of contract-token-q9z4m" {
		t.Errorf("profiling settings lost on the way: %+v", p)
	}
	var paths []string
	for _, target := range c.Targets {
		paths = append(paths, target.Variant.String())
	}
	if got := strings.Join(paths, " "); got != "baseline dapr d1" {
		t.Errorf("paths %q, want the baseline, the first variant and the second", got)
	}
	if !strings.Contains(c.Targets[0].URL, "10.244.0.7") {
		t.Errorf("the baseline calls %s, not the target pod", c.Targets[0].URL)
	}
}

func TestAMisspeltVariableFailsTheLoadTesterInsteadOfMeasuringTheDefault(t *testing.T) {
	t.Parallel()
	termLog := filepath.Join(t.TempDir(), "log")
	var stderr bytes.Buffer
	code := Main(context.Background(), []string{"--termination-log=" + termLog}, []string{"DAPRBENCH_QPS=100", "DAPRBENCH_CONECTIONS=4", "PATH=/bin"},
		io.Discard, &stderr)
	if code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, stderr.String())
	}
	b, _ := os.ReadFile(termLog)
	p, err := result.DecodePointer(b)
	if err != nil || !strings.Contains(p.Error, "DAPRBENCH_CONECTIONS set no flag of loadtester") || p.Frame != nil {
		t.Errorf("termination message %s (%v): the run's Failed message would not name the variable", b, err)
	}
}
