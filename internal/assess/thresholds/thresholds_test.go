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

package thresholds

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

func d(s string) *metav1.Duration {
	v, _ := time.ParseDuration(s)
	return &metav1.Duration{Duration: v}
}

// result has added p90 addedP90 and, given two more values, its 95% interval.
func result(addedP90 string, interval ...string) *perfv1alpha1.Result {
	r := &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "995.0", Errors: 0,
		Latency:  &perfv1alpha1.LatencySummary{P90: d("2.9ms"), P99: d("4.4ms")},
		Added:    &perfv1alpha1.LatencySummary{P90: d(addedP90), P99: d("2.1ms")},
		Restarts: &perfv1alpha1.Restarts{}}
	if len(interval) == 2 {
		r.AddedInterval = &perfv1alpha1.LatencyInterval{ConfidencePercent: 95,
			Low:  perfv1alpha1.LatencySummary{P90: d(interval[0]), P99: d("2ms")},
			High: perfv1alpha1.LatencySummary{P90: d(interval[1]), P99: d("2.2ms")}}
	}
	return r
}

func TestEvaluate(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxAddedP90: d("2ms"), MinQPSPercent: ptr.To[int32](99), MaxErrors: ptr.To[int64](0), MaxRestarts: ptr.To[int32](0)}
	cases := []struct {
		name string
		t    *perfv1alpha1.Thresholds
		res  *perfv1alpha1.Result
		want Outcome
		says []string
	}{
		{"all met", gate, result("1.4ms"), Met, []string{"added p90 1.4ms (limit <= 2ms): met", "actual qps 995.0 (99.50%)"}},
		{"added p90 over the limit", gate, result("2.01ms"), Violated, []string{"added p90 2.01ms (limit <= 2ms): VIOLATED"}},
		{"Dapr's 2.01ms against 2ms, within the interval", gate, result("2.01ms", "1.8ms", "2.3ms"), Inconclusive,
			[]string{"added p90 2.01ms (95% interval 1.8ms..2.3ms) (limit <= 2ms): inconclusive"}},
		{"the whole interval over the limit", gate, result("2.5ms", "2.1ms", "2.9ms"), Violated, []string{"VIOLATED"}},
		{"the whole interval within", gate, result("1.5ms", "1.2ms", "1.9ms"), Met, nil},
		{"measured p90 within the spread of repetitions", &perfv1alpha1.Thresholds{MaxP90: d("3ms")}, func() *perfv1alpha1.Result {
			r := result("1ms")
			r.Spread = &perfv1alpha1.Spread{Latency: &perfv1alpha1.LatencyRange{
				Min: perfv1alpha1.LatencySummary{P90: d("2.7ms")}, Max: perfv1alpha1.LatencySummary{P90: d("3.2ms")}}}
			return r
		}(), Inconclusive, []string{"p90 2.9ms (repetitions 2.7ms..3.2ms) (limit <= 3ms): inconclusive"}},
		{"qps too low", &perfv1alpha1.Thresholds{MinQPSPercent: ptr.To[int32](100)}, result("1ms"), Violated, []string{"actual qps 995.0 (99.50%) (limit >= 100% of 1000): VIOLATED"}},
		{"a LoadTester kill's lost share, no shortfall of the path's", &perfv1alpha1.Thresholds{MinQPSPercent: ptr.To[int32](99)}, func() *perfv1alpha1.Result {
			r := result("1ms")
			r.ActualQPS, r.MeasuredRequestedQPS = "663.0", "666.7"
			return r
		}(), Met, nil},
		{"errors", &perfv1alpha1.Thresholds{MaxErrors: ptr.To[int64](0)}, func() *perfv1alpha1.Result { r := result("1ms"); r.Errors = 3; return r }(), Violated, []string{"errors 3"}},
		{"restarts", &perfv1alpha1.Thresholds{MaxRestarts: ptr.To[int32](0)}, func() *perfv1alpha1.Result {
			r := result("1ms")
			r.Restarts.Sidecar = 1
			return r
		}(), Violated, []string{"restarts 1"}},
		{"sidecar usage not measured", &perfv1alpha1.Thresholds{MaxSidecarCPUPer1kQPS: ptr.To(resource.MustParse("500m"))}, result("1ms"), Inconclusive, []string{"not measured"}},
		{"sidecar usage over", &perfv1alpha1.Thresholds{MaxSidecarCPUPer1kQPS: ptr.To(resource.MustParse("500m"))}, func() *perfv1alpha1.Result {
			r := result("1ms")
			r.Resources = &perfv1alpha1.ResourceUsage{SidecarPer1kQPS: &perfv1alpha1.PerKQPS{CPU: ptr.To(resource.MustParse("520m"))}}
			return r
		}(), Violated, []string{"sidecar CPU per 1000 rps 520m (limit <= 500m): VIOLATED"}},
		{"a violation wins over inconclusive", &perfv1alpha1.Thresholds{MaxAddedP90: d("2ms"), MaxErrors: ptr.To[int64](0)},
			func() *perfv1alpha1.Result { r := result("2.01ms", "1.8ms", "2.3ms"); r.Errors = 1; return r }(), Violated, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := Evaluate(tc.t, tc.res)
			if !ok {
				t.Fatal("no verdict")
			}
			if v.Outcome != tc.want {
				t.Errorf("outcome = %s, want %s (%s)", v.Outcome, tc.want, v.Message())
			}
			for _, s := range tc.says {
				if !strings.Contains(v.Message(), s) {
					t.Errorf("message %q lacks %q", v.Message(), s)
				}
			}
		})
	}
	if _, ok := Evaluate(&perfv1alpha1.Thresholds{FailRun: true}, result("1ms")); ok {
		t.Error("no threshold set must give no verdict")
	}
	if _, ok := Evaluate(nil, result("1ms")); ok {
		t.Error("nil thresholds must give no verdict")
	}
}

// A limit-bound added latency is a queue's, growing with the run: a gate it stays under is
// not shown to be met, while one it exceeds is violated.
func TestALimitBoundAddedLatencyIsNeverShownToMeetAGate(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxAddedP90: d("2ms")}
	under := result("1ms", "0.9ms", "1.1ms")
	under.AddedLimitBound = true
	if v, _ := Evaluate(gate, under); v.Outcome != Inconclusive || !strings.Contains(v.Message(), "limit-bound") {
		t.Errorf("limit-bound 1ms under a 2ms gate: %v, %q; want inconclusive, said why", v.Outcome, v.Message())
	}
	over := result("200ms", "150ms", "250ms")
	over.AddedLimitBound = true
	if v, _ := Evaluate(gate, over); v.Outcome != Violated {
		t.Errorf("limit-bound 200ms over a 2ms gate: %v, want violated", v.Outcome)
	}
}

// variantsResult is a run of two variants, base then fast: base's p90 is 2ms and its p99
// 4ms; fast's p90 difference from base is diffP90 and, given two more values, its 95%
// interval between three repetitions (p99 difference 0, interval -1ms..1ms).
func variantsResult(diffP90 string, interval ...string) *perfv1alpha1.Result {
	r := result("1ms")
	fast := perfv1alpha1.VariantResult{Name: "fast", Difference: &perfv1alpha1.LatencySummary{P90: d(diffP90), P99: d("0s")}}
	if len(interval) == 2 {
		fast.DifferenceInterval = &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low:  perfv1alpha1.LatencySummary{P90: d(interval[0]), P99: d("-1ms")},
			High: perfv1alpha1.LatencySummary{P90: d(interval[1]), P99: d("1ms")}}
	}
	r.Variants = []perfv1alpha1.VariantResult{
		{Name: "base", Latency: &perfv1alpha1.LatencySummary{P50: d("1ms"), P90: d("2ms"), P99: d("4ms")}}, fast}
	return r
}

// gated is a spec of the two variants whose second, fast, has these thresholds.
func gated(t perfv1alpha1.VariantThresholds) *perfv1alpha1.PerfRunSpec {
	return &perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{{Name: "base"}, {Name: "fast", Thresholds: &t}}}
}

// A variant's limit on its slowdown is judged with the interval of its difference from the
// first variant, as an added-latency limit is with its own.
func TestEvaluateRunJudgesAVariantsDifferenceFromTheFirst(t *testing.T) {
	p90 := gated(perfv1alpha1.VariantThresholds{MaxSlowdownP90: d("200us")})
	cases := []struct {
		name string
		spec *perfv1alpha1.PerfRunSpec
		res  *perfv1alpha1.Result
		want Outcome
		says []string
	}{
		{"the whole interval within the limit", p90, variantsResult("100us", "50us", "150us"), Met,
			[]string{"variant fast p90 slowdown 100µs (95% interval 50µs..150µs) (limit <= 200µs): met"}},
		{"the interval's high end at the limit", p90, variantsResult("150us", "100us", "200us"), Met, nil},
		{"faster than the first", p90, variantsResult("-120us", "-200us", "-40us"), Met, nil},
		{"slower beyond noise: the whole interval over the limit", p90, variantsResult("310us", "250us", "370us"), Violated,
			[]string{"variant fast p90 slowdown 310µs (95% interval 250µs..370µs) (limit <= 200µs): VIOLATED"}},
		{"the limit inside the interval", p90, variantsResult("210us", "150us", "270us"), Inconclusive,
			[]string{"variant fast p90 slowdown 210µs (95% interval 150µs..270µs) (limit <= 200µs): inconclusive"}},
		{"the interval's low end at the limit", p90, variantsResult("260us", "200us", "320us"), Inconclusive, nil},
		{"no interval", p90, variantsResult("900us"), Inconclusive, []string{"variant fast p90 slowdown 900µs (no interval", "inconclusive"}},
		{"one repetition: an interval within one run only", p90, func() *perfv1alpha1.Result {
			r := variantsResult("900us", "850us", "950us")
			r.Variants[1].DifferenceInterval.Basis, r.Variants[1].DifferenceInterval.Repetitions = perfv1alpha1.IntervalWithinRunOnly, 1
			return r
		}(), Inconclusive, []string{"variant fast p90 slowdown 900µs (one repetition", "inconclusive"}},
		{"no difference claimed (a saturated run)", p90, func() *perfv1alpha1.Result {
			r := variantsResult("310us", "250us", "370us")
			r.Variants[1].Difference, r.Variants[1].DifferenceInterval = nil, nil
			return r
		}(), Inconclusive, []string{"variant fast p90 slowdown not measured (limit <= 200µs): inconclusive"}},
		{"a variant the result does not hold", p90, func() *perfv1alpha1.Result {
			r := variantsResult("100us", "50us", "150us")
			r.Variants = r.Variants[:1]
			return r
		}(), Inconclusive, []string{"variant fast p90 slowdown not measured"}},
		{"percent of the first variant's latency, at p90 and p99", gated(perfv1alpha1.VariantThresholds{MaxSlowdownPercent: ptr.To[int32](10)}),
			variantsResult("310us", "250us", "370us"), Violated, []string{
				"variant fast p90 slowdown 310µs (95% interval 250µs..370µs) (limit <= 10% of base's 2ms = 200µs): VIOLATED",
				"variant fast p99 slowdown 0s (95% interval -1ms..1ms) (limit <= 10% of base's 4ms = 400µs): inconclusive"}},
		{"percent met", gated(perfv1alpha1.VariantThresholds{MaxSlowdownPercent: ptr.To[int32](20)}), func() *perfv1alpha1.Result {
			r := variantsResult("310us", "250us", "370us")
			r.Variants[1].DifferenceInterval.Low.P99, r.Variants[1].DifferenceInterval.High.P99 = d("-100us"), d("700us")
			return r
		}(), Met, []string{"(limit <= 20% of base's 2ms = 400µs): met", "(limit <= 20% of base's 4ms = 800µs): met"}},
		{"beside the run's own thresholds: a variant's violation fails the gate", func() *perfv1alpha1.PerfRunSpec {
			s := gated(perfv1alpha1.VariantThresholds{MaxSlowdownP90: d("200us")})
			s.Thresholds = &perfv1alpha1.Thresholds{MaxErrors: ptr.To[int64](0)}
			return s
		}(), variantsResult("310us", "250us", "370us"), Violated, []string{"errors 0 (limit <= 0): met", "variant fast p90 slowdown 310µs"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := EvaluateRun(tc.spec, tc.res)
			if !ok {
				t.Fatal("no verdict")
			}
			if v.Outcome != tc.want {
				t.Errorf("outcome = %s, want %s (%s)", v.Outcome, tc.want, v.Message())
			}
			for _, s := range tc.says {
				if !strings.Contains(v.Message(), s) {
					t.Errorf("message %q lacks %q", v.Message(), s)
				}
			}
		})
	}
	if _, ok := EvaluateRun(gated(perfv1alpha1.VariantThresholds{}), variantsResult("100us")); ok {
		t.Error("empty variant thresholds must give no verdict")
	}
	if _, ok := EvaluateRun(&perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{{Name: "base"}, {Name: "fast"}}}, variantsResult("100us")); ok {
		t.Error("no threshold set must give no verdict")
	}
}

// A PubSub run's gates: its delivery p99 through Dapr and its lost messages; a run without
// delivery figures leaves both not measured.
func TestDeliveryGates(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxDeliveryP99: d("5ms"), MaxLostMessages: ptr.To[int64](0)}
	delivered := func(p99 string, lost int64) *perfv1alpha1.Result {
		r := result("1ms")
		r.Delivery = &perfv1alpha1.DeliveryResult{Latency: &perfv1alpha1.LatencySummary{P99: d(p99)},
			Messages: &perfv1alpha1.MessageCounts{Published: 1000, Delivered: 1000 - lost, Lost: lost}}
		return r
	}
	for _, tc := range []struct {
		name string
		res  *perfv1alpha1.Result
		want Outcome
		says string
	}{
		{"met", delivered("4ms", 0), Met, "delivery p99 4ms (limit <= 5ms): met; lost messages 0 of 1000 (limit <= 0): met"},
		{"slow", delivered("6ms", 0), Violated, "delivery p99 6ms (limit <= 5ms): VIOLATED"},
		{"lossy", delivered("4ms", 3), Violated, "lost messages 3 of 1000 (limit <= 0): VIOLATED"},
		{"no delivery figures", result("1ms"), Inconclusive, "delivery p99 not measured (limit <= 5ms): inconclusive"},
	} {
		v, ok := Evaluate(gate, tc.res)
		if !ok || v.Outcome != tc.want || !strings.Contains(v.Message(), tc.says) {
			t.Errorf("%s: %s %q, want %s saying %q", tc.name, v.Outcome, v.Message(), tc.want, tc.says)
		}
	}
}

// A Scheduler run's gates: its trigger lateness p99 and its registrations missed or doubled;
// a run without trigger figures leaves both not measured.
func TestTriggerGates(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxTriggerLatenessP99: d("500ms"), MaxMissedTriggers: ptr.To[int64](0)}
	triggered := func(p99 string, missed, doubled int64) *perfv1alpha1.Result {
		r := result("1ms")
		r.Triggers = &perfv1alpha1.TriggerResult{Lateness: &perfv1alpha1.LatencySummary{P99: d(p99)},
			Counts: &perfv1alpha1.TriggerCounts{Registered: 1000, Triggered: 1000 - missed, Missed: missed, Doubled: doubled}}
		return r
	}
	for _, tc := range []struct {
		name string
		res  *perfv1alpha1.Result
		want Outcome
		says string
	}{
		{"met", triggered("400ms", 0, 0), Met, "trigger lateness p99 400ms (limit <= 500ms): met; missed triggers 0 of 1000 (0 missed, 0 doubled) (limit <= 0): met"},
		{"late", triggered("600ms", 0, 0), Violated, "trigger lateness p99 600ms (limit <= 500ms): VIOLATED"},
		{"doubled", triggered("400ms", 0, 2), Violated, "missed triggers 2 of 1000 (0 missed, 2 doubled) (limit <= 0): VIOLATED"},
		{"no trigger figures", result("1ms"), Inconclusive, "trigger lateness p99 not measured (limit <= 500ms): inconclusive"},
	} {
		v, ok := Evaluate(gate, tc.res)
		if !ok || v.Outcome != tc.want || !strings.Contains(v.Message(), tc.says) {
			t.Errorf("%s: %s %q, want %s saying %q", tc.name, v.Outcome, v.Message(), tc.want, tc.says)
		}
	}
}

// A tail gate judges a p99 only from enough samples: 1,000 (ten beyond it). A Workflow run
// of 3 × 200 instances has a completion p99 that is each repetition's second-largest value:
// its gate reads inconclusive and says how many it takes, where it read met or VIOLATED on
// noise; from 1,000 completed it judges as before.
func TestATailGateNeedsTheSamplesForIt(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxCompletionP99: d("1s")}
	completed := func(p99 string, n int64) *perfv1alpha1.Result {
		r := result("1ms")
		r.Completion = &perfv1alpha1.CompletionResult{Latency: &perfv1alpha1.LatencySummary{P99: d(p99)},
			Workflows: &perfv1alpha1.WorkflowCounts{Started: n, Completed: n}}
		return r
	}
	for _, tc := range []struct {
		name string
		res  *perfv1alpha1.Result
		want Outcome
		says string
	}{
		{"600 under the limit", completed("800ms", 600), Inconclusive, "completion p99 800ms from 600 completed: a p99 is judged from 1000 or more (10 beyond it) (limit <= 1s): inconclusive"},
		{"600 over it", completed("1.2s", 600), Inconclusive, "from 600 completed"},
		{"1000 under", completed("800ms", 1000), Met, "completion p99 800ms (limit <= 1s): met"},
		{"1000 over", completed("1.2s", 1000), Violated, "completion p99 1.2s (limit <= 1s): VIOLATED"},
	} {
		v, ok := Evaluate(gate, tc.res)
		if !ok || v.Outcome != tc.want || !strings.Contains(v.Message(), tc.says) {
			t.Errorf("%s: %s %q, want %s saying %q", tc.name, v.Outcome, v.Message(), tc.want, tc.says)
		}
	}
}

// A gate on a bulk's added latency says it is against a pipelining client.
func TestABulkGateSaysItsMethod(t *testing.T) {
	res := result("1.5ms", "1.4ms", "1.6ms")
	res.BaselineMethod = "against a pipelining client: daprd makes one round trip per key of a BulkGet, in parallel, the baseline one pipelined round trip for all 20"
	v, ok := Evaluate(&perfv1alpha1.Thresholds{MaxAddedP90: d("2ms")}, res)
	if !ok || v.Outcome != Met || !strings.Contains(v.Message(), "added (against a pipelining client) p90 1.5ms") {
		t.Errorf("%s %q", v.Outcome, v.Message())
	}
}
