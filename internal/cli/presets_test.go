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

package cli

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/config/samples"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/cli/preset"
)

// Every preset is a PerfRun the API server admits, and its published row names figures
// the plugin knows.
func TestEveryPresetStartsARunAndNamesKnownFigures(t *testing.T) {
	for _, p := range samples.Presets {
		out, err := run(t, "run", "--preset", p.Name, "-o", "name")
		if err != nil {
			t.Fatalf("preset %s: %v\n%s", p.Name, err, out)
		}
		got := &perfv1alpha1.PerfRun{}
		name := strings.TrimSpace(strings.TrimPrefix(out, "perfrun.perf.daprbench.io/"))
		if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: name}, got); err != nil {
			t.Fatal(err)
		}
		if got.Annotations[perfv1alpha1.AnnotationPreset] != p.Name {
			t.Errorf("preset %s: annotations %v", p.Name, got.Annotations)
		}
		res := &perfv1alpha1.Result{Added: &perfv1alpha1.LatencySummary{P50: d("1ms"), P90: d("2ms"), P99: d("3ms")},
			Latency: &perfv1alpha1.LatencySummary{P50: d("3ms"), P90: d("4ms"), P99: d("5ms")}}
		res.Resources = clitest.SampleResult("2ms", "1ms", "3ms", "300m").Resources
		res.Completion = &perfv1alpha1.CompletionResult{Latency: &perfv1alpha1.LatencySummary{P50: d("900ms"), P90: d("1.1s")}}
		for _, r := range p.Rows {
			if preset.MeasuredFigure(res, r.Figure) == "-" {
				t.Errorf("preset %s: the plugin cannot read figure %q", p.Name, r.Figure)
			}
		}
	}
	if _, err := runWithoutCluster(t, "run", "--preset", "published-v9"); err == nil || !strings.Contains(err.Error(), "published-v1.0") {
		t.Errorf("an unknown preset: %v", err)
	}
}

func TestReportShowsThePublishedRowBesideThePresetsRun(t *testing.T) {
	published, err := preset.Declared("published-v1.0")
	if err != nil {
		t.Fatal(err)
	}
	annotated := map[string]string{perfv1alpha1.AnnotationPreset: "published-v1.0"}
	createRunWithSpec(t, metav1.ObjectMeta{Name: "from-preset", Namespace: "default", Annotations: annotated},
		published.Spec, clitest.SampleResult("5.9ms", "5.4ms", "6.4ms", "222m"), false)
	out, err := run(t, "report", "from-preset", "--dir", t.TempDir())
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "Beside Dapr v1.0 performance figures") || !strings.Contains(squeeze(out), "added p90 1.40ms 5.9ms") ||
		!strings.Contains(squeeze(out), "sidecar CPU per 1000 rps 480m 222m") {
		t.Errorf("report:\n%s", out)
	}

	// The annotation is anyone's to write: on a run of another setting it shows nothing of
	// Dapr's figures, and says why.
	other := published.Spec.DeepCopy()
	other.Load.QPS = 200
	createRunWithSpec(t, metav1.ObjectMeta{Name: "posing", Namespace: "default", Annotations: annotated},
		*other, clitest.SampleResult("5.9ms", "5.4ms", "6.4ms", "222m"), false)
	out, err = run(t, "report", "posing", "--dir", t.TempDir())
	if err != nil {
		t.Fatal(err, out)
	}
	if strings.Contains(out, "Beside Dapr") || strings.Contains(out, "1.40ms") ||
		!strings.Contains(out, "annotated with preset published-v1.0, but not its setting (load.qps is 200, the preset's 1000)") {
		t.Errorf("report of a run posing as a preset:\n%s", out)
	}
}
