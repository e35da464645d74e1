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

package report

import (
	"strings"
	"testing"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

func withP50(v result.Variant, rep int, p50 time.Duration) result.Run {
	return result.Run{Variant: v, Rep: rep, Requests: 1000, Percentiles: []result.Percentile{{P: 50, Us: p50.Microseconds()}}}
}

// A first repetition slower than every later one by more than their spread and a tenth of
// their median is flagged cold, and the headline says so; one within the later ones'
// drift, or with too few repetitions to judge, is shown but not flagged.
func TestAColdFirstRepetitionIsFlagged(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation}}
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	sum := &result.Summary{Runs: []result.Run{
		withP50(result.Baseline, 0, ms(0.52)), withP50(result.Dapr, 0, ms(2.9)),
		withP50(result.Dapr, 1, ms(2.1)), withP50(result.Baseline, 1, ms(0.50)),
		withP50(result.Baseline, 2, ms(0.49)), withP50(result.Dapr, 2, ms(2.2)),
	}}
	got := firstRepetitions(run, sum)
	if len(got) != 2 {
		t.Fatalf("first repetitions %+v, want the dapr path's and the baseline's", got)
	}
	dapr, baseline := got[0], got[1]
	// Later Dapr p50s 2.1–2.2 ms: spread 0.1 ms + a tenth of their 2.15 ms median = 2.415 ms.
	if dapr.Path != "dapr" || !dapr.Cold || dapr.P50.Duration != ms(2.9) || dapr.LaterP50Min.Duration != ms(2.1) || dapr.LaterP50Max.Duration != ms(2.2) {
		t.Errorf("dapr %+v: want 2.9ms flagged cold against 2.1ms–2.2ms", dapr)
	}
	if baseline.Path != "baseline" || baseline.Cold {
		t.Errorf("baseline %+v: 0.52 ms within the later ones' drift is not cold", baseline)
	}
	res := &perfv1alpha1.Result{Latency: &perfv1alpha1.LatencySummary{}, FirstRepetitions: got}
	if h := Headline(res); !strings.Contains(h, "the first repetition was still cold (dapr p50 2.9ms against 2.1ms–2.2ms in the later ones)") {
		t.Errorf("headline %q does not say the first repetition was cold", h)
	}

	warm := &result.Summary{Runs: []result.Run{withP50(result.Dapr, 0, ms(2.3)), withP50(result.Dapr, 1, ms(2.1)), withP50(result.Dapr, 2, ms(2.2))}}
	if f := firstRepetitions(run, warm); len(f) != 1 || f[0].Cold {
		t.Errorf("%+v: 2.3 ms against 2.1–2.2 ms is drift, not cold", f)
	}
	two := &result.Summary{Runs: []result.Run{withP50(result.Dapr, 0, ms(9)), withP50(result.Dapr, 1, ms(2))}}
	if f := firstRepetitions(run, two); len(f) != 1 || f[0].Cold {
		t.Errorf("%+v: two repetitions show the first, but cannot judge it", f)
	}
	dropped := &result.Summary{Runs: []result.Run{{Variant: result.Dapr}, {Variant: result.Dapr, Rep: 1}}}
	if f := firstRepetitions(run, dropped); f != nil {
		t.Errorf("%+v from runs without their percentiles", f)
	}
}
