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

	"k8s.io/apimachinery/pkg/api/resource"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

func TestVariantsCarryTheirFiguresAndTheirDifference(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Variants: []perfv1alpha1.SidecarVariant{{Name: "release"}, {Name: "debug"}}}}
	at := func(us, lo, hi int64) result.Added {
		return result.Added{Confidence: 0.95, Resamples: 2000, Avg: result.Interval{Us: us, LowUs: lo, HighUs: hi},
			Percentiles: []result.AddedPercentile{{P: 50, Interval: result.Interval{Us: us, LowUs: lo, HighUs: hi}},
				{P: 90, Interval: result.Interval{Us: us, LowUs: -lo, HighUs: hi}}}}
	}
	first, slower := at(1400, 1300, 1500), at(300, 200, 400)
	sum := &result.Summary{Runs: []result.Run{
		{Variant: result.Baseline, ActualQPS: 1000, Requests: 1000}, {Variant: result.Dapr, ActualQPS: 999, Requests: 1000},
		{Variant: result.DaprVariant(1), ActualQPS: 998, Requests: 1000, Errors: 2}},
		Added:    &first,
		Compared: []result.Comparison{{Variant: result.DaprVariant(1), Against: result.Baseline, Added: at(1700, 1600, 1800)}, {Variant: result.DaprVariant(1), Against: result.Dapr, Added: slower}},
	}
	res := Build(run, Inputs{Summary: sum})
	if len(res.Variants) != 2 {
		t.Fatalf("variants = %+v", res.Variants)
	}
	rel, dbg := res.Variants[0], res.Variants[1]
	if rel.Name != "release" || rel.Difference != nil || rel.Added.P50.Duration.Microseconds() != 1400 {
		t.Errorf("first variant = %+v", rel)
	}
	if dbg.ActualQPS != "998.0" || dbg.Errors != 2 || dbg.Added.P50.Duration.Microseconds() != 1700 ||
		dbg.Difference.P50.Duration.Microseconds() != 300 || dbg.DifferenceInterval.Low.P50.Duration.Microseconds() != 200 {
		t.Errorf("second variant = %+v", dbg)
	}
	// p50 and avg exclude zero; p90's interval [-200, 400] does not.
	if got := strings.Join(dbg.BeyondNoise, ","); got != "p50,avg" {
		t.Errorf("beyond noise = %q, want p50,avg", got)
	}
	res.Latency = &perfv1alpha1.LatencySummary{P50: &metav1.Duration{}}
	if h := Headline(res); !strings.Contains(h, "variants: debug − release p90 300µs (beyond noise at p50, avg)") {
		t.Errorf("headline = %q", h)
	}
	if h := Headline(res); !strings.Contains(h, "one repetition") {
		t.Errorf("a one-repetition comparison does not say so: %q", h)
	}
	// The intervals' basis, not the spread, says how many repetitions they rest on.
	res.Variants[1].DifferenceInterval.Basis = perfv1alpha1.IntervalBetweenRepetitions
	if h := Headline(res); strings.Contains(h, "one repetition") {
		t.Errorf("a repeated comparison is called a one-repetition one: %q", h)
	}
	if Build(&perfv1alpha1.PerfRun{}, Inputs{Summary: sum}).Variants != nil {
		t.Error("a run without spec.variants reports variants")
	}
}

// A path whose load tester fell behind its schedule is named, with its rate and its own lag,
// and no added latency is claimed for a rate that was not carried. A send lag that is the
// connection's wait behind a stalled request is the path's latency, not saturation.
func TestSaturatedPathsAreNamedAndClaimNoAddedLatency(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 1000}}}
	lag := func(us int64) result.Spectrum {
		return result.Spectrum{Percentiles: []result.Percentile{{P: 50, Us: us / 2}, {P: 99, Us: us}}, MaxUs: us}
	}
	added := result.Added{Confidence: 0.95, Reps: 3, Percentiles: []result.AddedPercentile{{P: 90, Interval: result.Interval{Us: 1400, LowUs: 1200, HighUs: 1600}}}}
	sum := &result.Summary{RequestedQPS: 1000, GapUs: 16000,
		Runs: []result.Run{{Variant: result.Baseline, ActualQPS: 999.9, TesterLagP99Us: 200},
			{Variant: result.Dapr, ActualQPS: 998.7, TesterLagP99Us: 300},
			{Variant: result.Dapr, Rep: 1, ActualQPS: 999.1, TesterLagP99Us: 20_000}},
		Merged: []result.Merged{
			{Variant: result.Baseline, Percentiles: []result.Percentile{{P: 90, Us: 900}}, Lag: lag(300), TesterLag: lag(200)},
			{Variant: result.Dapr, Percentiles: []result.Percentile{{P: 90, Us: 2300}}, Lag: lag(40_000), TesterLag: lag(3_000)},
		},
		Added: &added}
	res := Build(run, Inputs{Summary: sum})
	if len(res.Saturated) != 1 || res.Saturated[0].Path != "dapr" || res.Saturated[0].Repetition != 2 ||
		res.Saturated[0].TesterLagP99.Duration.Milliseconds() != 20 || res.Saturated[0].TesterLagBound.Duration.Milliseconds() != 16 {
		t.Fatalf("saturated = %+v, want the dapr path in repetition 2, its own 20ms lag beyond the 16ms gap", res.Saturated)
	}
	if res.Added != nil || res.AddedInterval != nil {
		t.Errorf("added %+v claimed for a saturated run", res.Added)
	}
	if res.SendLag == nil || res.SendLag.P99.Duration.Milliseconds() != 40 || res.BaselineSendLag.P99.Duration.Microseconds() != 300 ||
		res.TesterLag == nil || res.TesterLag.P99.Duration.Milliseconds() != 3 {
		t.Errorf("send lag %+v, baseline %+v, tester lag %+v", res.SendLag, res.BaselineSendLag, res.TesterLag)
	}
	msg := SaturationMessage(res)
	for _, want := range []string{"dapr path (repetition 2) achieved 998.7 of 1000 qps", "own lag p99 20ms", "bound of 16ms", "the load tester fell behind its schedule", "no added latency is claimed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	// Below 99% of the rate is saturated too, whatever the lag.
	sum.Runs[2].TesterLagP99Us = 500
	sum.Runs[1].ActualQPS = 714.2
	if res := Build(run, Inputs{Summary: sum}); len(res.Saturated) != 1 || res.Saturated[0].ActualQPS != "714.2" {
		t.Errorf("a path at 714 of 1000 qps: saturated = %+v", res.Saturated)
	} else if msg := SaturationMessage(res); !strings.Contains(msg, "the path could not carry the rate") || strings.Contains(msg, "fell behind") {
		t.Errorf("the tester on time, the path short of the rate: %q", msg)
	}
	// On schedule, with the tester punctual: a 40 ms send lag (a stall) is latency.
	sum.Runs[1].ActualQPS = 999.0
	if res := Build(run, Inputs{Summary: sum}); res.Saturated != nil || res.Added == nil || res.AddedInterval.Basis != perfv1alpha1.IntervalBetweenRepetitions ||
		res.MeasuredRequestedQPS != "" {
		t.Errorf("a run on schedule: saturated %+v, added %+v, measured requested %q", res.Saturated, res.AddedInterval, res.MeasuredRequestedQPS)
	}
	// A LoadTester kill lost a third of the requests of both Dapr phases: 666 of the 666.7 qps
	// their pods were asked for is on schedule, and the result says what was asked.
	sum.Runs[1].ActualQPS, sum.Runs[1].RequestedQPS = 666.0, 666.67
	sum.Runs[2].ActualQPS, sum.Runs[2].RequestedQPS = 666.2, 666.67
	if res := Build(run, Inputs{Summary: sum}); res.Saturated != nil || res.MeasuredRequestedQPS != "666.7" || res.ActualQPS != "666.1" {
		t.Errorf("phases that lost a killed pod's share: saturated %+v, measured requested %q, actual %q", res.Saturated, res.MeasuredRequestedQPS, res.ActualQPS)
	}
}

// A limit-bound run still says what Dapr costs: each sidecar's CPU per completed request from
// the counters, the rate the configured limit sustains at that cost, and the added latency
// labelled as the limit's.
func TestALimitBoundRunStillSaysWhatDaprCosts(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 1000},
		Dapr: perfv1alpha1.DaprSpec{Sidecar: perfv1alpha1.SidecarSpec{CPULimit: ptr.To(resource.MustParse("500m"))}}},
		Status: perfv1alpha1.PerfRunStatus{Environment: &perfv1alpha1.Environment{TargetNode: "a", LoadTesterNode: "b",
			Calibration: []perfv1alpha1.NodeCalibration{{Node: "a", Single: "1000", PerCPUSecond: "10000"}, {Node: "b", Single: "900", PerCPUSecond: "5000"}}}}}
	added := result.Added{Confidence: 0.95, Reps: 3, Percentiles: []result.AddedPercentile{{P: 90, Interval: result.Interval{Us: 40_000, LowUs: 30_000, HighUs: 50_000}}}}
	sum := &result.Summary{RequestedQPS: 1000, GapUs: 16000, Added: &added,
		Merged: []result.Merged{{Variant: result.Dapr, Percentiles: []result.Percentile{{P: 50, Us: 9000}, {P: 90, Us: 41_000}, {P: 99, Us: 90_000}}}},
		Runs: []result.Run{
			{Variant: result.Baseline, ActualQPS: 1000, Requests: 60_000, Scheduled: 60_000, TesterLagP99Us: 200},
			{Variant: result.Dapr, ActualQPS: 1000, Requests: 60_000, Scheduled: 60_000, TesterLagP99Us: 300}}}
	throttled := perfv1alpha1.ContainerCPU{Role: "serverSidecar", CPU: resource.MustParse("470m"), Periods: 600, ThrottledPeriodsPercent: "63.0",
		Throttled: &metav1.Duration{Duration: 16 * time.Second}}
	client := perfv1alpha1.ContainerCPU{Role: "clientSidecar", CPU: resource.MustParse("120m")}
	res := Build(run, Inputs{Summary: sum, CPU: &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{throttled, client}}})
	if len(res.Saturated) != 0 || res.Added == nil || !res.LimitBound {
		t.Fatalf("saturated %+v, added %+v, limit-bound %v: a throttled sidecar with the tester on time is latency, claimed and labelled",
			res.Saturated, res.Added, res.LimitBound)
	}
	want := []perfv1alpha1.SidecarCost{
		// Raw, whatever the nodes' calibrations (10,000 and 5,000 units/s): no normaliser.
		{Role: "serverSidecar", CPUPerRequest: metav1.Duration{Duration: 470 * time.Microsecond}, Source: perfv1alpha1.CostFromKubelet, LimitProjectedQPS: "851.0", Node: "a",
			AtQPS: "1000.0", Arrival: "Synchronized", ThrottledPercent: "63.0"},
		{Role: "clientSidecar", CPUPerRequest: metav1.Duration{Duration: 120 * time.Microsecond}, Source: perfv1alpha1.CostFromKubelet, LimitProjectedQPS: "3333.0", Node: "b",
			AtQPS: "1000.0", Arrival: "Synchronized", ThrottledPercent: "0.0"},
	}
	if !equality.Semantic.DeepEqual(res.SidecarCost, want) {
		t.Errorf("sidecar cost %+v, want %+v", res.SidecarCost, want)
	}
	h := Headline(res)
	for _, part := range []string{"serverSidecar 470µs CPU per request by the kubelet's counters (daprd's own was not read) (projected: its CPU limit would carry ~851.0 rps at 80% use)", "limit-bound", "added by Dapr p90 40ms"} {
		if !strings.Contains(h, part) {
			t.Errorf("headline %q lacks %q", h, part)
		}
	}

}

// A run whose sidecar's CPU limit could not carry the rate (the load tester on time, the
// baseline at full rate) still claims an added latency, labelled as the limit's; a run that
// fell behind for any other reason claims none.
func TestALimitBoundRunThatFellBehindClaimsTheLimitsAddedLatency(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 1000},
		Dapr: perfv1alpha1.DaprSpec{Sidecar: perfv1alpha1.SidecarSpec{CPULimit: ptr.To(resource.MustParse("500m"))}}}}
	// As make demo's published run read on a 2-vCPU node: 984.5 of 1000 qps on the Dapr
	// path, the tester 1.93 ms late at p99 against its 16 ms bound, the server sidecar
	// throttled in 69% of its periods.
	newSummary := func() *result.Summary {
		added := result.Added{Confidence: 0.95, Reps: 3, Percentiles: []result.AddedPercentile{
			{P: 90, Interval: result.Interval{Us: 200_000, LowUs: 150_000, HighUs: 250_000}},
			{P: 99, Interval: result.Interval{Us: 260_000, LowUs: 200_000, HighUs: 320_000}}}}
		return &result.Summary{RequestedQPS: 1000, GapUs: 16000, Added: &added,
			Merged: []result.Merged{{Variant: result.Dapr, Percentiles: []result.Percentile{{P: 50, Us: 120_000}, {P: 90, Us: 202_000}, {P: 99, Us: 262_000}}}},
			Runs: []result.Run{
				{Variant: result.Baseline, ActualQPS: 1000, Requests: 60_000, Scheduled: 60_000, TesterLagP99Us: 200},
				{Variant: result.Dapr, ActualQPS: 984.5, Requests: 59_070, Scheduled: 60_000, TesterLagP99Us: 1930}}}
	}
	sidecar := func(role, pct string) perfv1alpha1.ContainerCPU {
		return perfv1alpha1.ContainerCPU{Role: role, CPU: resource.MustParse("470m"), Periods: 600, ThrottledPeriodsPercent: pct,
			Throttled: &metav1.Duration{Duration: 16 * time.Second}}
	}
	cpu := func(c ...perfv1alpha1.ContainerCPU) *perfv1alpha1.CPUAccounting {
		return &perfv1alpha1.CPUAccounting{Measured: c}
	}

	res := Build(run, Inputs{Summary: newSummary(), CPU: cpu(sidecar("serverSidecar", "69.0"), sidecar("clientSidecar", "0.0"))})
	if len(res.Saturated) != 1 || !res.LimitBound || !res.AddedLimitBound || res.Added == nil || res.AddedInterval == nil {
		t.Fatalf("saturated %+v, limit-bound %v, added %+v (limit-bound %v): the limit's added latency is claimed",
			res.Saturated, res.LimitBound, res.Added, res.AddedLimitBound)
	}
	if got := res.Added.P90.Duration; got != 200*time.Millisecond {
		t.Errorf("added p90 %s, want the summary's 200ms", got)
	}
	if len(res.SidecarCost) != 2 || res.SidecarCost[0].LimitProjectedQPS == "" {
		t.Errorf("sidecar cost %+v: what Dapr costs and what its limit sustains", res.SidecarCost)
	}
	h := Headline(res)
	for _, part := range []string{"added by Dapr held at its CPU limit (limit-bound) p90 200ms [150ms, 250ms]",
		"the added latency claimed is the limit's", "the dapr path's capacity (984.5 of 1000 qps, the load tester on time)",
		"the CPU limit: serverSidecar 69.0%", "the added latency at 1000 rps is limit-bound"} {
		if !strings.Contains(h, part) {
			t.Errorf("headline %q lacks %q", h, part)
		}
	}
	for _, wrong := range []string{"no added latency is claimed", "the load tester (its own lag"} {
		if strings.Contains(h, wrong) {
			t.Errorf("headline %q says %q", h, wrong)
		}
	}

	for name, c := range map[string]struct {
		sum func(*result.Summary)
		cpu *perfv1alpha1.CPUAccounting
	}{
		"the load tester late":      {sum: func(s *result.Summary) { s.Runs[1].TesterLagP99Us = 20_000 }, cpu: cpu(sidecar("serverSidecar", "69.0"))},
		"the baseline behind":       {sum: func(s *result.Summary) { s.Runs[0].ActualQPS = 900 }, cpu: cpu(sidecar("serverSidecar", "69.0"))},
		"only the app throttled":    {sum: func(*result.Summary) {}, cpu: cpu(sidecar("serverApp", "69.0"), sidecar("serverSidecar", "0.5"))},
		"nothing throttled":         {sum: func(*result.Summary) {}, cpu: cpu(sidecar("serverSidecar", "0.5"))},
		"no counters":               {sum: func(*result.Summary) {}},
		"errors beyond their share": {sum: func(s *result.Summary) { s.Runs[1].Errors = 5000 }, cpu: cpu(sidecar("serverSidecar", "69.0"))},
		"the app throttled too":     {sum: func(*result.Summary) {}, cpu: cpu(sidecar("serverSidecar", "69.0"), sidecar("serverApp", "40.0"))},
		"the node near full": {sum: func(*result.Summary) {}, cpu: cpu(sidecar("serverSidecar", "69.0"),
			perfv1alpha1.ContainerCPU{Role: "node/a", CPU: resource.MustParse("1900m"), CapacityPercent: "95.0"})},
		"the tester's lag unknown": {sum: func(s *result.Summary) { s.Runs[1].TesterLagP99Us = 0 }, cpu: cpu(sidecar("serverSidecar", "69.0"))},
	} {
		sum := newSummary()
		c.sum(sum)
		res := Build(run, Inputs{Summary: sum, CPU: c.cpu})
		if len(res.Saturated) == 0 && len(sum.ErroringPaths()) == 0 {
			t.Fatalf("%s: the case is not saturated", name)
		}
		if res.Added != nil || res.AddedLimitBound {
			t.Errorf("%s: added %+v claimed (limit-bound %v)", name, res.Added, res.AddedLimitBound)
		}
		if h := Headline(res); strings.Contains(h, "limit-bound") && res.Added == nil && strings.Contains(h, "the added latency at") {
			t.Errorf("%s: headline labels an added latency it does not claim: %q", name, h)
		}
	}
}

// A tail percentile's interval from fewer than result.MinRepetitionsForTail repetitions is
// called approximate, in status and in the headline; from enough it is claimed.
func TestTailIntervalsAreApproximateBelowFiveRepetitions(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 1000}}}
	at := func(p float64, us int64) result.AddedPercentile {
		return result.AddedPercentile{P: p, Interval: result.Interval{Us: us, LowUs: us - 100, HighUs: us + 100}}
	}
	added := result.Added{Confidence: 0.95, Reps: 3, Percentiles: []result.AddedPercentile{at(50, 500), at(90, 700), at(99, 1500), at(99.9, 4000)}}
	sum := &result.Summary{RequestedQPS: 1000, Added: &added,
		Merged: []result.Merged{{Variant: result.Dapr, Percentiles: []result.Percentile{{P: 50, Us: 1500}, {P: 99, Us: 4000}}}}}
	res := Build(run, Inputs{Summary: sum})
	if got := res.AddedInterval.Approximate; len(got) != 2 || got[0] != "p99" || got[1] != "p99.9" {
		t.Errorf("approximate %v at 3 repetitions, want p99 and p99.9", got)
	}
	if h := Headline(res); !strings.Contains(h, "p99, p99.9 intervals approximate: 3 repetitions, a tail's needs 5") {
		t.Errorf("headline %q does not say the tail intervals are approximate", h)
	}
	added.Reps = 5
	if got := Build(run, Inputs{Summary: sum}).AddedInterval.Approximate; len(got) != 0 {
		t.Errorf("approximate %v at 5 repetitions, want none", got)
	}
}

// Every scheduled request of each path is accounted for, and a path that failed more than
// 1% of its requests claims no added latency, saying so.
func TestPathsAreAccountedAndErrorsWithholdTheAddedLatency(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 1000}}}
	added := result.Added{Confidence: 0.95, Reps: 2, Percentiles: []result.AddedPercentile{{P: 90, Interval: result.Interval{Us: 700, LowUs: 600, HighUs: 800}}}}
	sum := &result.Summary{RequestedQPS: 1000, GapUs: 16000, Added: &added,
		Merged: []result.Merged{{Variant: result.Dapr, Percentiles: []result.Percentile{{P: 50, Us: 1700}, {P: 90, Us: 2300}, {P: 99, Us: 4000}}}},
		Runs: []result.Run{
			{Variant: result.Baseline, ActualQPS: 1000, Scheduled: 30_000, Requests: 30_000, TesterLagP99Us: 150},
			{Variant: result.Dapr, ActualQPS: 992, Scheduled: 30_000, Requests: 29_764, Errors: 100, TesterLagP99Us: 400},
			{Variant: result.Baseline, Rep: 1, ActualQPS: 1000, Scheduled: 30_000, Requests: 30_000, TesterLagP99Us: 250},
			{Variant: result.Dapr, Rep: 1, ActualQPS: 1000, Scheduled: 30_000, Requests: 30_000, Errors: 200, TesterLagP99Us: 300},
		}}
	res := Build(run, Inputs{Summary: sum})
	want := []perfv1alpha1.PathAccounting{
		{Path: "baseline", Scheduled: 60_000, Sent: 60_000, Completed: 60_000, TesterLagP99: &metav1.Duration{Duration: 250 * time.Microsecond}},
		{Path: "dapr", Scheduled: 60_000, Sent: 59_764, Completed: 59_464, Failed: 300, Unsent: 236, TesterLagP99: &metav1.Duration{Duration: 400 * time.Microsecond}},
	}
	if len(res.Paths) != 2 || !equality.Semantic.DeepEqual(res.Paths, want) {
		t.Errorf("paths %+v, want %+v", res.Paths, want)
	}
	if res.Added == nil {
		t.Fatal("0.5% failed: the added latency over the successes stands")
	}
	sum.Runs[3].Errors = 3000
	res = Build(run, Inputs{Summary: sum})
	if res.Added != nil {
		t.Errorf("added %+v claimed with 5%% of the dapr path's requests failed", res.Added)
	}
	if h := Headline(res); !strings.Contains(h, "dapr path failed 3100 of 59764 requests (5.2%)") || !strings.Contains(h, "no added latency is claimed") {
		t.Errorf("headline %q does not say why no added latency is claimed", h)
	}
}

// What bounded a result: the load tester, a CPU limit, a node's CPU, or nothing found.
func TestBoundedByNamesWhatLimitedTheLatency(t *testing.T) {
	cpu := func(role, throttled string, capacity string) perfv1alpha1.ContainerCPU {
		c := perfv1alpha1.ContainerCPU{Role: role, CPU: resource.MustParse("480m"), CapacityPercent: capacity}
		if throttled != "" {
			c.Periods, c.ThrottledPeriodsPercent, c.Throttled = 600, throttled, &metav1.Duration{Duration: 3 * time.Second}
		}
		return c
	}
	cases := []struct {
		name string
		res  *perfv1alpha1.Result
		want string
	}{
		{"no counters read", &perfv1alpha1.Result{}, ""},
		{"nothing found", &perfv1alpha1.Result{CPU: &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{
			cpu("serverSidecar", "0.4", ""), cpu("node/a", "", "61.0")}}}, "nothing found bounding it"},
		{"the sidecar's limit", &perfv1alpha1.Result{CPU: &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{
			cpu("serverSidecar", "37.5", ""), cpu("loadTester", "80.0", "")}}}, "bounded by the CPU limit: serverSidecar 37.5% [33.7%, 41.4%] of 600 periods (3s stalled, 480m CPU)"},
		{"the node", &perfv1alpha1.Result{CPU: &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{cpu("node/a", "", "96.5")}}},
			"bounded by node CPU (node/a 96.5% busy)"},
		{"the load tester, late itself", &perfv1alpha1.Result{Saturated: []perfv1alpha1.SaturatedPath{{Path: "dapr",
			TesterLagP99: &metav1.Duration{Duration: 20 * time.Millisecond}, TesterLagBound: &metav1.Duration{Duration: 16 * time.Millisecond}}}},
			"bounded by the load tester (its own lag on the dapr path, p99 20ms)"},
		// The tester used 72m and was on time: a throttled sidecar held the path back, and the
		// verdict must not blame the tester.
		{"the limit, then the path it held back", &perfv1alpha1.Result{RequestedQPS: 1000, Saturated: []perfv1alpha1.SaturatedPath{{Path: "dapr",
			ActualQPS: "912.4", TesterLagP99: &metav1.Duration{Duration: 300 * time.Microsecond}, TesterLagBound: &metav1.Duration{Duration: 2 * time.Millisecond}}},
			CPU: &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{cpu("serverSidecar", "97.2", "")}}},
			"bounded by the CPU limit: serverSidecar 97.2% [95.5%, 98.2%] of 600 periods (3s stalled, 480m CPU); the dapr path's capacity (912.4 of 1000 qps, the load tester on time)"},
	}
	for _, c := range cases {
		got := BoundedBy(c.res)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if c.name == "the limit, then the path it held back" && strings.Contains(got, "load tester (") {
			t.Errorf("%s: the verdict blames the load tester though it was on time: %q", c.name, got)
		}
		if strings.Contains(got, "loadTester") {
			t.Errorf("%s: the load tester's own limit does not bound Dapr's latency: %q", c.name, got)
		}
	}
}

func TestLatenessMessageNamesEachLatePathAndTheLimit(t *testing.T) {
	run := &perfv1alpha1.PerfRun{}
	msg := latenessMessage(run, 2*time.Millisecond, []result.LatePath{{Variant: result.Dapr, TesterLag: 2500 * time.Microsecond}})
	for _, want := range []string{"dapr path p90 2.5ms", "limit of 2ms at p90", "no added latency is claimed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}
