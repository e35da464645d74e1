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

package preset

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// Every setting that changes what a run measures keeps a preset's figures away from it; a
// spec with the CRD's defaults written out still matches its file.
func TestPresetMismatchNamesTheSettingThatDiffers(t *testing.T) {
	preset, err := Declared("published-v1.0")
	if err != nil {
		t.Fatal(err)
	}
	defaulted := preset.Spec.DeepCopy()
	defaulted.Load.Connections, defaulted.Load.Arrival = 16, perfv1alpha1.ArrivalSynchronized
	defaulted.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsStandard, BaselineTarget: perfv1alpha1.BaselineSamePod}
	if why := Mismatch(defaulted, &preset.Spec); why != "" {
		t.Errorf("the preset's own spec with defaults written out: %s", why)
	}
	for want, edit := range map[string]func(*perfv1alpha1.PerfRunSpec){
		"serviceInvocation.baselineTarget is Twin": func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{BaselineTarget: perfv1alpha1.BaselineTwin}
		},
		"serviceInvocation.paths is FourPaths": func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
		},
		"protocol.app is GRPC": func(s *perfv1alpha1.PerfRunSpec) { s.Protocol.App = perfv1alpha1.ProtocolGRPC },
		"variants is 1":        func(s *perfv1alpha1.PerfRunSpec) { s.Variants = []perfv1alpha1.SidecarVariant{{Name: "a"}} },
	} {
		spec := preset.Spec.DeepCopy()
		edit(spec)
		if why := Mismatch(spec, &preset.Spec); !strings.HasPrefix(why, want) {
			t.Errorf("mismatch %q, want it to start %q", why, want)
		}
	}
}

// The workflow preset's published figures are its completion's: shown beside a Workflow
// run's completion, and kept from a run of another workflow (a Chain, other activities or a
// delay measure another thing).
func TestTheWorkflowPresetShowsTheCompletionBesideDaprs(t *testing.T) {
	preset, err := Declared("workflow-perf-suite")
	if err != nil {
		t.Fatal(err)
	}
	run := clitest.WithResult(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{perfv1alpha1.AnnotationPreset: "workflow-perf-suite"}},
		Spec: preset.Spec}, &perfv1alpha1.Result{
		Completion: &perfv1alpha1.CompletionResult{Latency: &perfv1alpha1.LatencySummary{P50: clitest.Dur("240ms"), P90: clitest.Dur("410ms")}}})
	source, rows := Beside(run)
	if !strings.Contains(source, "closed loop") || !strings.Contains(source, "open loop") {
		t.Errorf("source %q does not say the published load differs from this run's", source)
	}
	if len(rows) != 2 || rows[0] != [3]string{"completion p50", "1.06s", "240ms"} || rows[1] != [3]string{"completion p90", "1.27s", "410ms"} {
		t.Errorf("rows %q", rows)
	}
	for want, edit := range map[string]func(*perfv1alpha1.WorkflowSpec){
		"workflow.pattern is Chain":     func(w *perfv1alpha1.WorkflowSpec) { w.Pattern = perfv1alpha1.WorkflowChain },
		"workflow.activities is 10":     func(w *perfv1alpha1.WorkflowSpec) { w.Activities = 10 },
		"workflow.activityDelay is 5ms": func(w *perfv1alpha1.WorkflowSpec) { w.ActivityDelay = &metav1.Duration{Duration: 5 * time.Millisecond} },
	} {
		spec := preset.Spec.DeepCopy()
		edit(spec.Workflow)
		if why := Mismatch(spec, &preset.Spec); !strings.HasPrefix(why, want) {
			t.Errorf("mismatch %q, want it to start %q", why, want)
		}
	}
}

// The actor host is a setting of its own: a run on Dapr's Go SDK measures the SDK's runtime
// too, so it is kept from a Minimal preset's figures even with the preset's method, and a
// Minimal run calling Activate from a GoSDK preset's. A spec that leaves the host out is
// Minimal's.
func TestPresetMismatchNamesTheActorHost(t *testing.T) {
	preset, err := Declared("actors-v1.0")
	if err != nil {
		t.Fatal(err)
	}
	unset := preset.Spec.DeepCopy()
	unset.Actors.Host = ""
	if why := Mismatch(unset, &preset.Spec); why != "" {
		t.Errorf("the preset's spec without its host (Minimal by default): %s", why)
	}
	sdk := preset.Spec.DeepCopy()
	sdk.Actors.Host = perfv1alpha1.ActorHostGoSDK // method stays the preset's: activate
	if why := Mismatch(sdk, &preset.Spec); !strings.HasPrefix(why, "actors.host is GoSDK, the preset's Minimal") {
		t.Errorf("a GoSDK run with the preset's method: mismatch %q, want the host named", why)
	}
	sdkPreset := preset.Spec.DeepCopy()
	sdkPreset.Actors = &perfv1alpha1.ActorsSpec{Host: perfv1alpha1.ActorHostGoSDK}
	minimal := preset.Spec.DeepCopy()
	minimal.Actors = &perfv1alpha1.ActorsSpec{Method: perfv1alpha1.GoSDKActorMethod}
	if why := Mismatch(minimal, sdkPreset); !strings.HasPrefix(why, "actors.host is Minimal, the preset's GoSDK") {
		t.Errorf("a Minimal run calling %s against a GoSDK preset: mismatch %q, want the host named", perfv1alpha1.GoSDKActorMethod, why)
	}
}
