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

package compare

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func TestTheChangesIntervalCombinesBothSides(t *testing.T) {
	// A 12.1ms [11.8, 12.4], B 14.0ms [13.6, 14.5]: change 1.9ms, half-widths
	// sqrt(0.4²+0.3²) = 0.5 below and sqrt(0.5²+0.3²) ≈ 0.583 above.
	c := changeOf(ms(12.1), ms(11.8), ms(12.4), ms(14.0), ms(13.6), ms(14.5))
	if got, want := c.low, ms(1.4); (got - want).Abs() > time.Microsecond {
		t.Errorf("low = %v, want %v", got, want)
	}
	if got, want := c.high, ms(1.9+0.5831); (got - want).Abs() > time.Microsecond {
		t.Errorf("high = %v, want %v", got, want)
	}
	// Intervals that overlap ([9.5, 10.5] and [10.3, 11.3]) still show a change of 0.8ms
	// against a combined half-width of 0.71ms: the overlap rule would have hidden it.
	if v := changeOf(ms(10), ms(9.5), ms(10.5), ms(10.8), ms(10.3), ms(11.3)).verdict(); v != VerdictSlower {
		t.Errorf("0.8ms beyond a combined half-width of 0.71ms: %s", v)
	}
	// 0.5ms against a combined half-width of 0.5ms: not shown.
	if v := changeOf(ms(12.1), ms(11.8), ms(12.4), ms(12.6), ms(12.2), ms(12.9)).verdict(); v != VerdictNoDifference {
		t.Errorf("0.5ms with a combined half-width of 0.5ms: %s", v)
	}
}

func TestTheGate(t *testing.T) {
	pct := func(s string) *MaxSlowdown {
		m := &MaxSlowdown{}
		if err := m.Set(s); err != nil {
			t.Fatal(err)
		}
		return m
	}
	slower := changeOf(ms(10), ms(9.8), ms(10.2), ms(12), ms(11.8), ms(12.2)) // +2ms ± ~0.28
	same := changeOf(ms(10), ms(9.5), ms(10.5), ms(10.1), ms(9.6), ms(10.6))  // +0.1ms ± ~0.7
	cases := []struct {
		name  string
		c     delta
		limit string
		want  string
	}{
		{"slower beyond noise, no slowdown allowed", slower, "0", GateSlower},
		{"slower, but within 25%", slower, "25%", GatePassed},
		{"slower by more than 10%", slower, "10%", GateSlower},
		{"limit inside the interval", slower, "2ms", GateInconclusive},
		{"no change shown, none allowed", same, "0", GateInconclusive},
		{"no change shown, 10% allowed", same, "10%", GatePassed},
		{"one repetition", changeWithoutInterval(ms(10), ms(10)), "10%", GateInconclusive},
	}
	for _, c := range cases {
		if got, _ := c.c.gate(pct(c.limit)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	for _, bad := range []string{"-5%", "ten%", "fast", "-1ms", "NaN%"} {
		if err := (&MaxSlowdown{}).Set(bad); err == nil {
			t.Errorf("--max-slowdown %s accepted", bad)
		}
	}
}

// An exported file's settings reach the terminal escaped: a crafted mtls or arrival string
// can neither set the clipboard (OSC 52) nor print a line of its own.
func TestCompareEscapesAFilesSettings(t *testing.T) {
	crafted := "Enabled\x1b]52;c;ZXZpbA==\x07\nverdict: faster\u202e"
	out := Table(Comparison{A: "main.json", B: "perfrun/x", SettingsDiffer: []string{"mtls: " + crafted + " vs Enabled"}})
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\nverdict: faster"} {
		if strings.Contains(out, bad) {
			t.Errorf("compare printed %q raw:\n%q", bad, out)
		}
	}
	if !strings.Contains(out, "settings differ: mtls: Enabled") {
		t.Errorf("the difference itself is gone:\n%q", out)
	}
}

// A run's own interval covers its repetitions, not a rerun: two runs 5% apart with tight
// intervals read "slower" on within-run intervals alone, and "no difference shown" once each
// side is widened by the 3% between-run spread the rerun benchmark measured.
func TestTheRerunSpreadWidensEachRunsInterval(t *testing.T) {
	a, b := clitest.SampleResult("10ms", "9.9ms", "10.1ms", "390m"), clitest.SampleResult("10.5ms", "10.4ms", "10.6ms", "390m")
	p90 := func(rerun float64) Difference {
		for _, d := range Compare(a, b, nil, KnownRerunSpread(rerun)) {
			if d.Figure == "added p90" {
				return d
			}
		}
		t.Fatal("no added p90")
		return Difference{}
	}
	if d := p90(0); d.Verdict != VerdictSlower {
		t.Errorf("within-run intervals alone: %+v, want slower", d)
	}
	if d := p90(0.03); d.Verdict != VerdictNoDifference || d.Gate != GateInconclusive {
		t.Errorf("covering a rerun: %+v, want no difference shown, gate inconclusive", d)
	}
	// An interval of no width widened by 3%: 1.96 × 3% of the value on each side.
	lo, hi := coveringRerun(10*time.Millisecond, 10*time.Millisecond, 10*time.Millisecond, 0.03, 1.96)
	if want := 588 * time.Microsecond; (10*time.Millisecond-lo-want).Abs() > time.Microsecond || (hi-10*time.Millisecond-want).Abs() > time.Microsecond {
		t.Errorf("widened to [%v, %v], want ±%v", lo, hi, want)
	}
	var r RerunSpreadFlag
	for _, bad := range []string{"3", "-1%", "101%", "x%", "NaN%"} {
		if r.Set(bad) == nil {
			t.Errorf("--rerun-spread %q accepted", bad)
		}
	}
	if err := r.Set("0"); err != nil || r.fraction != 0 {
		t.Errorf("0: %v %v", err, r.fraction)
	}
	if err := r.Set("4.5%"); err != nil || r.fraction != 0.045 {
		t.Errorf("4.5%%: %v %v", err, r.fraction)
	}
}

// Two PubSub results compare their delivery too: the Dapr path's delivery percentiles, Dapr's
// added delivery latency gated as the added latency is, and the messages lost.
func TestComparePubSubResultsGatesTheAddedDeliveryLatency(t *testing.T) {
	flat := flatLatency
	pubsub := func(added time.Duration, lost int64) *perfv1alpha1.Result {
		return &perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
			Latency: flat(added + ms(1)), Added: flat(added),
			AddedInterval: &perfv1alpha1.LatencyInterval{Low: *flat(added - ms(0.2)), High: *flat(added + ms(0.2))},
			Messages:      &perfv1alpha1.MessageCounts{Published: 1000, Delivered: 1000 - lost, Lost: lost}}}
	}
	diffs := Compare(pubsub(ms(3), 0), pubsub(ms(5), 7), nil, RerunSpread{})
	var added, lost *Difference
	for i, d := range diffs {
		switch d.Figure {
		case "delivery added p90":
			added = &diffs[i]
		case "messages lost":
			lost = &diffs[i]
		}
	}
	if added == nil || added.Verdict != VerdictSlower || added.Gate != GateSlower {
		t.Errorf("delivery added p90: %+v, want slower, gated slower", added)
	}
	if lost == nil || lost.A != "0" || lost.B != "7" || lost.Change != "+7" {
		t.Errorf("messages lost: %+v", lost)
	}
	if got := Outcome(diffs, false).Code; got != verdict.ExitRegressed {
		t.Errorf("exit %d, want %d: a slower delivery is a regression", got, verdict.ExitRegressed)
	}
	if len(Compare(&perfv1alpha1.Result{}, pubsub(ms(3), 0), nil, RerunSpread{})) != 0 {
		t.Error("a side without delivery compared delivery figures")
	}
}

// compare -o json is read by scripts and CI steps: its keys are a contract, whatever the Go
// names become.
func TestTheComparisonsJSONKeysAreItsContract(t *testing.T) {
	b, err := json.Marshal(Comparison{A: "a", B: "b", SettingsDiffer: []string{"qps: 1000 → 500"}, Intervals: "i",
		Differences: []Difference{{Figure: "added p90", A: "1ms", B: "2ms", Change: "1ms", Interval: "[0.5ms, 1.5ms]", Verdict: VerdictSlower, Gate: GateSlower, Limit: "0"}},
		ExitCode:    4, Verdict: "slower than allowed"})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	for _, d := range got["differences"].([]any) {
		for k := range d.(map[string]any) {
			keys = append(keys, "differences."+k)
		}
	}
	slices.Sort(keys)
	want := []string{"a", "b", "differences", "differences.a", "differences.b", "differences.change", "differences.changeInterval",
		"differences.figure", "differences.gate", "differences.limit", "differences.verdict", "exitCode", "intervals", "settingsDiffer", "verdict"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
}
