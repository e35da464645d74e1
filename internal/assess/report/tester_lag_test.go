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

// Tester lateness is judged per path (against testerLatenessLimit) and between the paths:
// 1.5 ms at p90 on the Dapr path against 0.3 ms on the baseline's is lateness only the Dapr
// path suffered, under the 2 ms limit of each, and the added latency carries it. It is
// named; lateness both paths share is not.
func TestLatenessOnlyTheDaprPathSufferedIsNamed(t *testing.T) {
	lag := func(p90us int64) result.Spectrum {
		return result.Spectrum{Percentiles: []result.Percentile{{P: 50, Us: p90us / 2}, {P: 90, Us: p90us}, {P: 99, Us: 2 * p90us}}}
	}
	latency := []result.Percentile{{P: 50, Us: 4000}, {P: 90, Us: 6000}, {P: 99, Us: 12000}}
	baseline := []result.Percentile{{P: 50, Us: 1000}, {P: 90, Us: 1500}, {P: 99, Us: 3000}}
	added := result.Added{Confidence: 0.95, Reps: 3, Percentiles: []result.AddedPercentile{
		{P: 50, Interval: result.Interval{Us: 3000, LowUs: 2800, HighUs: 3200}}, {P: 90, Interval: result.Interval{Us: 4500, LowUs: 4000, HighUs: 5000}}}}
	summary := func(daprLagUs, baselineLagUs int64) *result.Summary {
		return &result.Summary{RequestedQPS: 1000, Added: &added,
			Merged: []result.Merged{{Variant: result.Dapr, Percentiles: latency, TesterLag: lag(daprLagUs)},
				{Variant: result.Baseline, Percentiles: baseline, TesterLag: lag(baselineLagUs)}},
			Runs: []result.Run{{Variant: result.Baseline, ActualQPS: 1000, Requests: 60_000, Scheduled: 60_000},
				{Variant: result.Dapr, ActualQPS: 1000, Requests: 60_000, Scheduled: 60_000}}}
	}
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000}}}

	res := Build(run, Inputs{Summary: summary(1500, 300)})
	if res.Added == nil || res.TesterLagDifference == nil || res.TesterLagDifference.Duration != 1200*time.Microsecond {
		t.Fatalf("added %v, tester lag difference %v: want the added latency claimed (each path under 2 ms) and 1.2ms between them", res.Added, res.TesterLagDifference)
	}
	want := "the load tester, later on the measured path than on the baseline by 1.2ms at p90 (the added latency carries that lateness)"
	if got := BoundedBy(res); !strings.Contains(got, want) {
		t.Errorf("bounded by %q, want %q", got, want)
	}
	res = Build(run, Inputs{Summary: summary(1500, 1400)})
	if got := BoundedBy(res); strings.Contains(got, "later on the measured path") {
		t.Errorf("lateness both paths share (1.5 and 1.4 ms): %q", got)
	}
}

// A bulk figure carries its method: a State BulkGet's added latency is against a client that
// pipelines the keys, where daprd makes a round trip per key, and the Succeeded message says
// so; a Get's is like for like.
func TestABulkFigureCarriesItsMethod(t *testing.T) {
	added := result.Added{Confidence: 0.95, Reps: 3, Percentiles: []result.AddedPercentile{
		{P: 90, Interval: result.Interval{Us: 4500, LowUs: 4000, HighUs: 5000}}, {P: 99, Interval: result.Interval{Us: 9000, LowUs: 8000, HighUs: 10000}}}}
	sum := &result.Summary{RequestedQPS: 100, Added: &added,
		Merged: []result.Merged{{Variant: result.Dapr, Percentiles: []result.Percentile{{P: 50, Us: 4000}, {P: 90, Us: 6000}, {P: 99, Us: 12000}}},
			{Variant: result.Baseline, Percentiles: []result.Percentile{{P: 50, Us: 1000}, {P: 90, Us: 1500}, {P: 99, Us: 3000}}}},
		Runs: []result.Run{{Variant: result.Baseline, ActualQPS: 100, Requests: 6000, Scheduled: 6000},
			{Variant: result.Dapr, ActualQPS: 100, Requests: 6000, Scheduled: 6000}}}
	state := func(op perfv1alpha1.StateOperation) *perfv1alpha1.PerfRun {
		return &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioState, Load: perfv1alpha1.LoadSpec{QPS: 100},
			State: &perfv1alpha1.StateSpec{Operation: op, BulkSize: 20}}}
	}
	res := Build(state(perfv1alpha1.StateBulkGet), Inputs{Summary: sum})
	if !strings.Contains(res.BaselineMethod, "against a pipelining client") || !strings.Contains(res.BaselineMethod, "all 20") {
		t.Errorf("BulkGet's baseline method %q", res.BaselineMethod)
	}
	if msg := Headline(res); !strings.Contains(msg, "added by Dapr p90 4.5ms [4ms, 5ms], p99 9ms [8ms, 10ms] (against a pipelining client") {
		t.Errorf("message %q does not say the added latency is against a pipelining client", msg)
	}
	defaulted := state(perfv1alpha1.StateBulkSave)
	defaulted.Spec.State.BulkSize = 0 // the API's default, 10
	if m := Build(defaulted, Inputs{Summary: sum}).BaselineMethod; !strings.Contains(m, "a BulkSave") || !strings.Contains(m, "all 10") {
		t.Errorf("BulkSave with the default bulk size: %q", m)
	}
	if m := Build(state(perfv1alpha1.StateGet), Inputs{Summary: sum}).BaselineMethod; m != "" {
		t.Errorf("a Get's baseline method %q, want like for like", m)
	}
}
