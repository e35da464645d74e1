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

package regression

import (
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// res builds a result with added p90 (µs), p99 (µs), actual qps and sidecar CPU/1k (m).
func res(addedP90us, p99us int64, qps string, cpu int64) *perfv1alpha1.Result {
	us := func(v int64) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(v) * time.Microsecond} }
	r := &perfv1alpha1.Result{ActualQPS: qps,
		Added:   &perfv1alpha1.LatencySummary{P90: us(addedP90us), P99: us(addedP90us * 2)},
		Latency: &perfv1alpha1.LatencySummary{P99: us(p99us)}}
	if cpu > 0 {
		r.Resources = &perfv1alpha1.ResourceUsage{SidecarPer1kQPS: &perfv1alpha1.PerKQPS{CPU: ptr.To(*resource.NewMilliQuantity(cpu, resource.DecimalSI))}}
	}
	return r
}

func TestCompare(t *testing.T) {
	steady := []*perfv1alpha1.Result{res(1400, 4400, "999.0", 480), res(1420, 4380, "998.5", 482), res(1380, 4420, "999.2", 479),
		res(1410, 4400, "999.0", 481), res(1390, 4410, "998.8", 480)}
	spread := []*perfv1alpha1.Result{res(1000, 4400, "999", 480), res(1100, 4400, "999", 480), res(1200, 4400, "999", 480),
		res(1300, 4400, "999", 480), res(1400, 4400, "999", 480)}
	wild := []*perfv1alpha1.Result{res(1400, 4400, "999.0", 480), res(1420, 4400, "999.0", 480), res(1380, 4400, "999.0", 480),
		res(1410, 4400, "999.0", 480), res(3000, 4400, "999.0", 480)}
	noisy := []*perfv1alpha1.Result{res(1000, 4400, "999", 480), res(1900, 4400, "999", 480), res(1400, 4400, "999", 480),
		res(1200, 4400, "999", 480), res(1700, 4400, "999", 480)}
	cases := []struct {
		name      string
		current   *perfv1alpha1.Result
		reference []*perfv1alpha1.Result
		regressed bool
		says      []string
	}{
		{"same as before", res(1405, 4400, "999.0", 480), steady, false, []string{"added p90 1.405ms vs median 1.4ms of 5 reference runs (1.38ms..1.42ms)"}},
		{"added p90 up 30%", res(1820, 4400, "999.0", 480), steady, true, []string{"added p90 1.82ms", "REGRESSED"}},
		{"within tolerance though above every reference run", res(1500, 4400, "999.0", 480), steady, false, nil},
		// The reference says how sensitive it is: a MAD of 300 µs on a median of 1.4 ms flags a
		// single run only from 3.5/0.6745 × 300/1400 = 111% worse; a steady one from the tolerance.
		{"a 20% rise inside a noisy reference's spread", res(1680, 4400, "999", 480), noisy, false,
			[]string{"(1ms..1.9ms)", "(this reference flags a single run from 111% worse)"}},
		{"a steady reference flags from the tolerance", res(1405, 4400, "999.0", 480), steady, false,
			[]string{"1.4ms of 5 reference runs (1.38ms..1.42ms), +0.4%: ok (this reference flags a single run from 10% worse)"}},
		{"qps dropped", res(1400, 4400, "850.0", 480), steady, true, []string{"actual qps 850.0", "-14.9%: REGRESSED"}},
		{"qps rose: better, not a regression", res(1400, 4400, "1100.0", 480), steady, false, nil},
		{"sidecar CPU up", res(1400, 4400, "999.0", 600), steady, true, []string{"sidecar CPU per 1000 rps 600m vs median 480m", "REGRESSED"}},
		{"figure missing in the current run is skipped", res(1400, 4400, "999.0", 0), steady, false, nil},
		{"above every reference run, yet within their run-to-run noise", res(1450, 4400, "999", 480), spread, false, []string{"added p90 1.45ms"}},
		{"one wild reference run does not mask a regression", res(1820, 4400, "999.0", 480), wild, true, []string{"added p90 1.82ms", "REGRESSED"}},
		{"the current run's own interval reaches back to the reference", withLow(res(1820, 4400, "999.0", 480), 1450), steady, false, nil},
		{"its interval clear of the reference", withLow(res(1820, 4400, "999.0", 480), 1700), steady, true, []string{"REGRESSED"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			regressed, findings, ok := Compare(tc.current, earlier(tc.reference...), 10)
			if !ok {
				t.Fatal("no comparison")
			}
			msg := Message(findings)
			if regressed != tc.regressed {
				t.Errorf("regressed = %v, want %v: %s", regressed, tc.regressed, msg)
			}
			for _, s := range tc.says {
				if !strings.Contains(msg, s) {
					t.Errorf("message %q lacks %q", msg, s)
				}
			}
			if tc.regressed && !strings.Contains(strings.SplitN(msg, ";", 2)[0], "REGRESSED") {
				t.Errorf("regressions should come first: %s", msg)
			}
		})
	}
	if _, _, ok := Compare(res(1, 1, "1", 1), nil, 10); ok {
		t.Error("no reference must give ok=false")
	}
}

// The server sidecar's raw cost per request is judged against the history's, but only where
// both were measured clear of the limit's stalls, by daprd's own counter.
func TestTheSidecarCostIsJudgedOnlyUnthrottled(t *testing.T) {
	costingFrom := func(source perfv1alpha1.CostSource, us int64, throttled string) *perfv1alpha1.Result {
		r := res(1400, 4400, "999.0", 480)
		r.SidecarCost = []perfv1alpha1.SidecarCost{{Role: "serverSidecar", CPUPerRequest: metav1.Duration{Duration: time.Duration(us) * time.Microsecond},
			Source: source, ThrottledPercent: throttled}}
		return r
	}
	costing := func(us int64, throttled string) *perfv1alpha1.Result {
		return costingFrom(perfv1alpha1.CostFromDaprd, us, throttled)
	}
	history := earlier(costing(200, "0.0"), costing(202, "0.0"), costing(198, "0.0"), costing(201, "0.0"), costing(199, "0.0"))
	regressed, findings, _ := Compare(costing(300, "0.0"), history, 10)
	if msg := Message(findings); !regressed || !strings.Contains(msg, "server sidecar CPU per request (µs) 300.0 vs median 200.0") {
		t.Errorf("an unthrottled cost up 50%%: regressed %v, %s", regressed, msg)
	}
	for _, throttled := range []string{"63.0", ""} { // throttled; or daprd's counter alone, throttling unknown
		regressed, findings, _ = Compare(costing(300, throttled), history, 10)
		if msg := Message(findings); regressed || strings.Contains(msg, "server sidecar CPU") {
			t.Errorf("a cost throttled %q was judged against unthrottled ones: regressed %v, %s", throttled, regressed, msg)
		}
	}
	// The kubelet's counter, the headline only when daprd's was not read, is another method.
	regressed, findings, _ = Compare(costingFrom(perfv1alpha1.CostFromKubelet, 300, "0.0"), history, 10)
	if msg := Message(findings); regressed || strings.Contains(msg, "server sidecar CPU") {
		t.Errorf("the kubelet's cost was judged against daprd's: regressed %v, %s", regressed, msg)
	}
}

// withLow gives r's added p90 a 95% interval starting at lowUs (p99's at twice that).
// earlier is a history of runs none of which was judged Regressed, oldest first.
func earlier(rs ...*perfv1alpha1.Result) []Earlier {
	out := make([]Earlier, len(rs))
	for i, r := range rs {
		out[i] = Earlier{Result: r}
	}
	return out
}

func withLow(r *perfv1alpha1.Result, lowUs int64) *perfv1alpha1.Result {
	us := func(v int64) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(v) * time.Microsecond} }
	r.AddedInterval = &perfv1alpha1.LatencyInterval{ConfidencePercent: 95,
		Low:  perfv1alpha1.LatencySummary{P90: us(lowUs), P99: us(2 * lowUs)},
		High: perfv1alpha1.LatencySummary{P90: r.Added.P90, P99: r.Added.P99}}
	return r
}

// A change smaller than what the histograms can resolve is never a regression, whatever
// the tolerance: 1 µs on 1 ms at 3 significant digits.
func TestChangesWithinThePrecisionAreNotRegressions(t *testing.T) {
	exact := func(p99us int64) *perfv1alpha1.Result {
		r := res(1400, p99us, "999.0", 480)
		r.LatencySignificantDigits = 3
		return r
	}
	ref := []*perfv1alpha1.Result{exact(1000), exact(1000), exact(1000)}
	if regressed, findings, _ := Compare(exact(1001), earlier(ref...), 0); regressed {
		t.Errorf("1 µs on 1 ms called a regression: %s", Message(findings))
	}
	if regressed, findings, _ := Compare(exact(1010), earlier(ref...), 0); !regressed {
		t.Errorf("10 µs on 1 ms over an exact reference is a regression at tolerance 0: %s", Message(findings))
	}
}

// A Workflow schedule's measured call is the start; its headline is the completion. A
// history whose completion doubled while the start stayed put reads Regressed and names the
// figure; so do a PubSub run's delivery and a Scheduler run's trigger lateness, and what
// never arrived.
func TestAScenariosHeadlineIsJudged(t *testing.T) {
	us := func(v int64) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(v) * time.Microsecond} }
	summary := func(p90us int64) *perfv1alpha1.LatencySummary {
		return &perfv1alpha1.LatencySummary{P90: us(p90us), P99: us(p90us * 3 / 2)}
	}
	interval := func(p90us int64) *perfv1alpha1.LatencyInterval { // ±5% over the run's repetitions
		return &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Low: *summary(p90us * 95 / 100), High: *summary(p90us * 105 / 100)}
	}
	workflow := func(completionUs int64, failed int64) *perfv1alpha1.Result {
		r := res(1400, 4400, "999.0", 480)
		r.Completion = &perfv1alpha1.CompletionResult{Latency: summary(completionUs), LatencyInterval: interval(completionUs),
			Workflows: &perfv1alpha1.WorkflowCounts{Started: 600, Completed: 600 - failed, Failed: failed}}
		return r
	}
	history := earlier(workflow(40_000, 0), workflow(41_000, 0), workflow(39_500, 0), workflow(40_500, 0), workflow(39_800, 0), workflow(40_200, 0))
	regressed, findings, _ := Compare(workflow(80_000, 0), history, 10)
	msg := Message(findings)
	if !regressed || !strings.Contains(msg, "completion p90 80ms vs median 40.1ms") || !strings.Contains(msg, "REGRESSED") {
		t.Errorf("completion doubled, the start unchanged: regressed %v, %s", regressed, msg)
	}
	if regressed, findings, _ := Compare(workflow(40_300, 0), history, 10); regressed {
		t.Errorf("an unchanged completion: %s", Message(findings))
	}
	if regressed, findings, _ := Compare(workflow(40_300, 12), history, 10); !regressed || !strings.Contains(Message(findings), "workflows failed or unfinished 12 vs median 0") {
		t.Errorf("12 workflows failed against none before: %s", Message(findings))
	}

	pubsub := func(deliveryUs, lost int64) *perfv1alpha1.Result {
		r := res(1400, 4400, "999.0", 480)
		r.Delivery = &perfv1alpha1.DeliveryResult{Latency: summary(deliveryUs), LatencyInterval: interval(deliveryUs),
			Messages: &perfv1alpha1.MessageCounts{Published: 6000, Delivered: 6000 - lost, Lost: lost}}
		return r
	}
	regressed, findings, _ = Compare(pubsub(9_000, 0), earlier(pubsub(4_000, 0), pubsub(4_100, 0), pubsub(3_950, 0), pubsub(4_050, 0), pubsub(4_000, 0)), 10)
	if msg := Message(findings); !regressed || !strings.Contains(msg, "delivery p90 9ms vs median 4ms") {
		t.Errorf("delivery over twice as slow: regressed %v, %s", regressed, msg)
	}

	scheduler := func(latenessUs int64) *perfv1alpha1.Result {
		r := res(1400, 4400, "999.0", 480)
		r.Triggers = &perfv1alpha1.TriggerResult{Lateness: summary(latenessUs), LatenessInterval: interval(latenessUs),
			Counts: &perfv1alpha1.TriggerCounts{Registered: 500, Triggered: 500}}
		return r
	}
	regressed, findings, _ = Compare(scheduler(300_000), earlier(scheduler(150_000), scheduler(152_000), scheduler(149_000), scheduler(151_000), scheduler(150_500)), 10)
	if msg := Message(findings); !regressed || !strings.Contains(msg, "trigger lateness p90 300ms vs median 150.5ms") {
		t.Errorf("triggers twice as late: regressed %v, %s", regressed, msg)
	}
}

// Each outcome kind's figures keep the names a schedule's findings have always had, kind by
// kind: its p90 and p99, its added p90 where it has a baseline, and what never arrived.
func TestOutcomeFiguresKeepTheirNames(t *testing.T) {
	var names []string
	for _, f := range outcomeFigures {
		names = append(names, f.name)
	}
	want := []string{"delivery p90", "delivery p99", "delivery added p90", "messages lost",
		"completion p90", "completion p99", "workflows failed or unfinished",
		"trigger lateness p90", "trigger lateness p99", "triggers missed"}
	if !slices.Equal(names, want) {
		t.Errorf("outcome figures %q, want %q", names, want)
	}
	// A doubled trigger arrived: it is no missed one.
	doubled := &perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{Counts: &perfv1alpha1.TriggerCounts{Registered: 10, Triggered: 10, Missed: 1, Doubled: 7}}}
	if v, ok := outcomeFigures[len(outcomeFigures)-1].get(doubled); !ok || v != 1 {
		t.Errorf("triggers missed read %v (%v), want 1", v, ok)
	}
}
