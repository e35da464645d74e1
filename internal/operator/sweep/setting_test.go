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

package sweep

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

func TestExpandCrossesSettingsOutermost(t *testing.T) {
	points, steps := Expand(&perfv1alpha1.SweepPoints{Connections: []int32{1, 16},
		Settings: []perfv1alpha1.SweepSetting{{Name: "trace-0", TracingSamplingRate: "0"}, {Name: "trace-1", TracingSamplingRate: "1"}}})
	want := []Point{{Connections: 1, Setting: "trace-0"}, {Connections: 16, Setting: "trace-0"}, {Connections: 1, Setting: "trace-1"}, {Connections: 16, Setting: "trace-1"}}
	if len(points) != len(want) || len(steps) != len(want) {
		t.Fatalf("points %+v", points)
	}
	for i := range want {
		if points[i] != want[i] {
			t.Errorf("point %d = %+v, want %+v", i, points[i], want[i])
		}
	}
	if n := PlannedRuns(&perfv1alpha1.PerfSweepSpec{Points: &perfv1alpha1.SweepPoints{Settings: make([]perfv1alpha1.SweepSetting, 6)}}); n != 6 {
		t.Errorf("settings alone plan %d runs, want 6", n)
	}
}

func TestApplySettingOverridesOnlyWhatItSets(t *testing.T) {
	spec := perfv1alpha1.PerfRunSpec{Dapr: perfv1alpha1.DaprSpec{MTLS: perfv1alpha1.MTLSEnabled, TracingSamplingRate: "0.1"},
		Protocol: perfv1alpha1.ProtocolSpec{Caller: perfv1alpha1.ProtocolHTTP, App: perfv1alpha1.ProtocolHTTP}}
	ApplySetting(&spec, &perfv1alpha1.SweepSetting{Name: "trace-0", TracingSamplingRate: "0"})
	if spec.Dapr.TracingSamplingRate != "0" || spec.Dapr.MTLS != perfv1alpha1.MTLSEnabled || spec.Protocol.App != perfv1alpha1.ProtocolHTTP || spec.Variants != nil {
		t.Errorf("trace-0 gave %+v", spec)
	}
	ApplySetting(&spec, &perfv1alpha1.SweepSetting{Name: "v1.16.1", MTLS: perfv1alpha1.MTLSDisabled, AppProtocol: perfv1alpha1.ProtocolGRPC,
		SidecarImage: "ghcr.io/dapr/daprd:1.16.1"})
	if spec.Dapr.MTLS != perfv1alpha1.MTLSDisabled || spec.Protocol.App != perfv1alpha1.ProtocolGRPC || spec.Protocol.Caller != perfv1alpha1.ProtocolHTTP {
		t.Errorf("mtls and protocol not applied: %+v", spec)
	}
	if len(spec.Variants) != 1 || spec.Variants[0].Name != "v1-16-1" || spec.Variants[0].SidecarImage != "ghcr.io/dapr/daprd:1.16.1" {
		t.Errorf("the image is not the run's one variant (its name a variant's): %+v", spec.Variants)
	}
	before := spec
	ApplySetting(&spec, nil)
	if spec.Dapr != before.Dapr {
		t.Errorf("no setting changed the spec")
	}
}

// A template's variants that carry their own rate or protocol would win over the run's: the
// setting replaces theirs, so every variant measures what the point says.
func TestASettingReachesEveryVariant(t *testing.T) {
	spec := perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{
		{Name: "a", TracingSamplingRate: "0.5", AppProtocol: perfv1alpha1.ProtocolHTTP, LogLevel: "debug"},
		{Name: "b", TracingSamplingRate: "0.01"},
	}}
	ApplySetting(&spec, &perfv1alpha1.SweepSetting{Name: "trace-1", TracingSamplingRate: "1", AppProtocol: perfv1alpha1.ProtocolGRPC})
	for _, v := range spec.Variants {
		if got := spec.AppProtocolOf(v); v.TracingSamplingRate != "" || got != perfv1alpha1.ProtocolGRPC {
			t.Errorf("variant %s: its own rate %q, protocol %s; want the setting's", v.Name, v.TracingSamplingRate, got)
		}
	}
	if spec.Variants[0].LogLevel != "debug" || spec.Dapr.TracingSamplingRate != "1" {
		t.Errorf("what the setting does not set must stay: %+v", spec)
	}
}

func TestMTLSUnmeasuredNamesTheClustersValue(t *testing.T) {
	p := &perfv1alpha1.SweepPointStatus{Step: 3, Setting: "mtls-off", Phase: perfv1alpha1.PhaseFailed,
		Message: "MTLSMismatch: spec.dapr.mtls is Disabled but the cluster has mTLS Enabled"}
	if got, want := MTLSUnmeasured(p, perfv1alpha1.MTLSDisabled), "mtls-off: the cluster has mTLS Enabled (daprsystem Configuration); not measured"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	p.Setting = ""
	if got, want := MTLSUnmeasured(p, ""), "step 3: the cluster has mTLS Disabled (daprsystem Configuration); not measured"; got != want {
		t.Errorf("an unset expectation is Enabled: got %q, want %q", got, want)
	}
	p.Message = "Timeout: the run took too long"
	if got := MTLSUnmeasured(p, perfv1alpha1.MTLSDisabled); got != "" {
		t.Errorf("another failure named as mTLS: %q", got)
	}
}

// A State or PubSub point names its own store or broker and bulk size; what it leaves out
// stays the template's.
func TestASettingNamesAPointsComponentAndBulkSize(t *testing.T) {
	state := perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioState,
		State: &perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateBulkGet, BulkSize: 5}}
	ApplySetting(&state, &perfv1alpha1.SweepSetting{Name: "team-redis", Component: "team-redis"})
	if state.State.Component != "team-redis" || state.State.BulkSize != 5 || state.State.Operation != perfv1alpha1.StateBulkGet {
		t.Errorf("state point: %+v", state.State)
	}
	pubsub := perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioPubSub}
	ApplySetting(&pubsub, &perfv1alpha1.SweepSetting{Name: "bulk-50", BulkSize: 50})
	if pubsub.PubSub == nil || pubsub.PubSub.BulkPublish != 50 || pubsub.PubSub.Component != "" {
		t.Errorf("pubsub point: %+v", pubsub.PubSub)
	}
	invocation := perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation}
	ApplySetting(&invocation, &perfv1alpha1.SweepSetting{Name: "x", Component: "x"})
	if invocation.State != nil || invocation.PubSub != nil {
		t.Errorf("an invocation point got a store: %+v %+v", invocation.State, invocation.PubSub)
	}
}

// A Workflow point sets its pattern and activities on top of the template's; an
// ActorActivation point its actor host, and with it the host's own method (a template's
// activate is no method of the Go SDK's actor).
func TestASettingNamesAPointsWorkflowAndActorHost(t *testing.T) {
	wf := perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioWorkflow,
		Workflow: &perfv1alpha1.WorkflowSpec{Pattern: perfv1alpha1.WorkflowChain, Activities: 5, ActivityDelay: &metav1.Duration{Duration: time.Millisecond}}}
	ApplySetting(&wf, &perfv1alpha1.SweepSetting{Name: "fanout", WorkflowPattern: perfv1alpha1.WorkflowFanOut})
	if w := wf.Workflow; w.Pattern != perfv1alpha1.WorkflowFanOut || w.Activities != 5 || w.ActivityDelay == nil {
		t.Errorf("fan-out point: %+v", w)
	}
	ApplySetting(&wf, &perfv1alpha1.SweepSetting{Name: "chain-20", WorkflowPattern: perfv1alpha1.WorkflowChain, Activities: 20})
	if w := wf.Workflow; w.Pattern != perfv1alpha1.WorkflowChain || w.Activities != 20 {
		t.Errorf("chain of 20 point: %+v", w)
	}
	actors := perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation,
		Actors: &perfv1alpha1.ActorsSpec{Method: "activate", StateStore: "redis"}}
	ApplySetting(&actors, &perfv1alpha1.SweepSetting{Name: "gosdk", ActorHost: perfv1alpha1.ActorHostGoSDK})
	if a := actors.ActorSettings(); a.Host != perfv1alpha1.ActorHostGoSDK || a.Method != perfv1alpha1.GoSDKActorMethod || a.StateStore != "redis" {
		t.Errorf("Go SDK point: %+v", a)
	}
	if (&perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation}).ActorSettings().Method != perfv1alpha1.DefaultActorMethod {
		t.Error("a template without actors keeps the minimal host's method")
	}
}

// A point of an asynchronous scenario records what its calls started beside the calls' own
// latency: a Workflow point its completion.
func TestAPointsFiguresKeepItsOutcome(t *testing.T) {
	ms := func(n int) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(n) * time.Millisecond} }
	p := FiguresOf(&perfv1alpha1.Result{Latency: &perfv1alpha1.LatencySummary{P50: ms(15)},
		Completion: &perfv1alpha1.CompletionResult{Latency: &perfv1alpha1.LatencySummary{P50: ms(150), P99: ms(800)}}})
	if p.Latency.P50.Duration != 15*time.Millisecond || p.Outcome == nil || p.Outcome.P50.Duration != 150*time.Millisecond || p.Outcome.P99.Duration != 800*time.Millisecond {
		t.Errorf("point %+v, outcome %+v: want the start's 15 ms and the completion's 150 / 800 ms", p.Latency, p.Outcome)
	}
	q := FiguresOf(&perfv1alpha1.Result{Latency: &perfv1alpha1.LatencySummary{P50: ms(3)}})
	if q.Outcome != nil {
		t.Errorf("an invocation point has no outcome: %+v", q.Outcome)
	}
}

// A fault setting replaces the template's fault for its point, and a setting without one
// keeps the template's: a sweep over a fault's size, each point its own copy.
func TestAFaultSettingReplacesTheTemplatesFault(t *testing.T) {
	fault := func(percent int32) perfv1alpha1.Fault {
		return perfv1alpha1.Fault{Kind: perfv1alpha1.FaultTargetErrors, At: metav1.Duration{Duration: 10 * time.Second},
			Duration: metav1.Duration{Duration: 5 * time.Second}, ErrorPercent: &percent}
	}
	template := perfv1alpha1.PerfRunSpec{Faults: []perfv1alpha1.Fault{fault(5)}}
	setting := &perfv1alpha1.SweepSetting{Name: "errors-50", Faults: []perfv1alpha1.Fault{fault(50)}}
	point := *template.DeepCopy()
	ApplySetting(&point, setting)
	if len(point.Faults) != 1 || *point.Faults[0].ErrorPercent != 50 {
		t.Fatalf("the point's faults %+v, want the setting's 50%%", point.Faults)
	}
	if *template.Faults[0].ErrorPercent != 5 {
		t.Errorf("the template's fault changed: %+v", template.Faults)
	}
	*point.Faults[0].ErrorPercent = 99
	if *setting.Faults[0].ErrorPercent != 50 {
		t.Errorf("the point shares the setting's fault: %+v", setting.Faults)
	}
	kept := *template.DeepCopy()
	ApplySetting(&kept, &perfv1alpha1.SweepSetting{Name: "trace-0", TracingSamplingRate: "0"})
	if len(kept.Faults) != 1 || *kept.Faults[0].ErrorPercent != 5 {
		t.Errorf("a setting without faults left %+v, want the template's", kept.Faults)
	}
}
