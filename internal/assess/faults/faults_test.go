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

package faults

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

var t0 = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

// second is one second of 100 requests, as the load tester records it: errors of them
// failed (counted, not timed); of the successes, slow took slowUs and the rest fastUs. A
// second with no success has no latency.
func second(at int, errors, slow int, fastUs, slowUs int64) Second {
	s := Second{At: t0.Add(time.Duration(at) * time.Second), Sent: 100, Errors: int64(errors)}
	if errors == 100 {
		return s
	}
	s.Latency = result.NewHistogram()
	for i := range 100 - errors {
		v := fastUs
		if i < slow {
			v = slowUs
		}
		if err := s.Latency.RecordValue(v); err != nil {
			panic(err)
		}
	}
	s.P99 = p99Of(s.Latency)
	return s
}

// killed is 60 seconds at 100 rps: healthy until 20 s (two requests in a hundred at
// 2000–2040 µs, the rest at 1 ms); from 20 s to 25 s 80 requests in a hundred failing and
// the rest taking 500 ms; 50 ms for the two seconds after; then healthy again but for the
// shaky seconds, where two requests in a hundred fail.
func killed(shaky ...int) []Second {
	var tl []Second
	for i := range 60 {
		switch {
		case i >= 20 && i < 25:
			tl = append(tl, second(i, 80, 20, 0, 500_000))
		case i == 25 || i == 26:
			tl = append(tl, second(i, 0, 100, 0, 50_000))
		default:
			tl = append(tl, second(i, 0, 2, 1000, 2000+10*int64(i%5)))
		}
	}
	for _, i := range shaky {
		tl[i] = second(i, 2, 2, 1000, 2000)
	}
	return tl
}

var fault = Fault{Start: t0.Add(20 * time.Second), End: t0.Add(25 * time.Second)}

func TestWindowsSumTheSecondsBeforeDuringAndAfterTheFault(t *testing.T) {
	before, during, after := Windows(killed(), fault)
	if before.Seconds != 20 || before.Sent != 2000 || before.Errors != 0 || before.ErrorShare != 0 {
		t.Errorf("before %+v", before)
	}
	if !before.From.Equal(t0) || !before.To.Equal(fault.Start) {
		t.Errorf("before spans %s–%s", before.From, before.To)
	}
	// Wilson's interval of 400 in 500: [0.7627, 0.8327].
	if during.Seconds != 5 || during.Sent != 500 || during.Errors != 400 || during.ErrorShare != 0.8 ||
		during.ErrorLow < 0.762 || during.ErrorLow > 0.763 || during.ErrorHigh < 0.832 || during.ErrorHigh > 0.833 {
		t.Errorf("during %+v", during)
	}
	if after.Seconds != 35 || after.Sent != 3500 {
		t.Errorf("after %+v", after)
	}
	// Percentiles of the merged successes, not an average of the seconds': 2 in 100 slow.
	if p := before.P(50); p != time.Millisecond {
		t.Errorf("before p50 %s, want 1ms", p)
	}
	if p := before.P(99.5); p < 2*time.Millisecond || p > 2040*time.Microsecond {
		t.Errorf("before p99.5 %s, want one of the slow ones", p)
	}
	if p := during.P(50); p < 500*time.Millisecond || p > 500500*time.Microsecond {
		t.Errorf("during p50 %s, want 500ms within the histogram's 0.1%%", p)
	}
	// Wilson's upper bound of 0 errors in 2000: 3.84/2003.84.
	if want := 1.959963984540054 * 1.959963984540054 / (2000 + 1.959963984540054*1.959963984540054); math.Abs(before.ErrorHigh-want) > 1e-9 {
		t.Errorf("before's error bound %g, want %g", before.ErrorHigh, want)
	}
}

// A second the fault touched at all is during: its start and end within a second are not
// rounded away.
func TestASecondTheFaultTouchesIsDuring(t *testing.T) {
	off := Fault{Start: t0.Add(19500 * time.Millisecond), End: t0.Add(24500 * time.Millisecond)}
	before, during, after := Windows(killed(), off)
	if before.Seconds != 19 || during.Seconds != 6 || after.Seconds != 35 {
		t.Errorf("seconds before, during, after: %d %d %d, want 19 6 35", before.Seconds, during.Seconds, after.Seconds)
	}
	if w := window(nil); w.Sent != 0 || w.ErrorLow != 0 || w.ErrorHigh != 1 || w.P(99) != 0 {
		t.Errorf("an empty window %+v", w)
	}
	// Every request of a second failing leaves the window's errors and no latency to time.
	if w := window([]Second{second(0, 100, 0, 0, 0)}); w.Errors != 100 || w.Latency != nil || w.P(50) != 0 {
		t.Errorf("a window of failures only %+v", w)
	}
}

func TestTheBandIsWhereAFurtherHealthySecondFalls(t *testing.T) {
	b, ok := BandOf(killed(), fault)
	if !ok || b.Seconds != 20 {
		t.Fatalf("band %+v %v", b, ok)
	}
	// The p99s cycle 2000, 2010, 2020, 2030, 2040 µs: mean 2020, sd √(4000/19) = 14.51;
	// t(0.975, 19) = 2.093; × √(1 + 1/20): 2051.1 µs, rounded up to the µs.
	if b.P99High != 2052*time.Microsecond {
		t.Errorf("p99 bound %s, want 2.052ms", b.P99High)
	}
	short := Fault{Start: t0.Add(4 * time.Second), End: t0.Add(9 * time.Second)}
	nb, ok := BandOf(killed(), short)
	if ok {
		t.Error("four seconds before the fault set a band")
	}
	if _, ok := Recovery(killed(), short, nb, DefaultHold); ok {
		t.Error("a recovery was judged against no band")
	}
}

func TestRecoveryIsFromTheFaultsEndToHoldHealthySecondsInARow(t *testing.T) {
	gap := killed()
	gap = append(gap[:28:28], gap[29:]...) // no second 28 on record
	for _, c := range []struct {
		name  string
		tl    []Second
		hold  int
		want  time.Duration
		found bool
	}{
		{"slow for two seconds after", killed(), DefaultHold, 2 * time.Second, true},
		{"two errors at 28 s restart the count", killed(28), DefaultHold, 4 * time.Second, true},
		{"one healthy second is enough with a hold of 1", killed(28), 1, 2 * time.Second, true},
		{"a second missing from the timeline breaks the run", gap, DefaultHold, 4 * time.Second, true},
		{"errors to the end never recover", killed(27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57), DefaultHold, 0, false},
	} {
		b, _ := BandOf(c.tl, fault)
		got, ok := Recovery(c.tl, fault, b, c.hold)
		if got != c.want || ok != c.found {
			t.Errorf("%s: recovery %s %v, want %s %v", c.name, got, ok, c.want, c.found)
		}
	}
	// A path that never left the band recovers at once.
	calm := killed()
	for i := 20; i < 27; i++ {
		calm[i] = second(i, 0, 2, 1000, 2000)
	}
	b, _ := BandOf(calm, fault)
	if got, ok := Recovery(calm, fault, b, DefaultHold); got != 0 || !ok {
		t.Errorf("an undisturbed path: %s %v, want 0 true", got, ok)
	}
}

// A second is judged by its own interval against the pre-fault rate: one error in a hundred
// is within chance after 0 in 2000, two are not; after 20 in 2000 (bound 0.0154), three in a
// hundred are (Wilson's low end 0.0103), five are not (0.0215).
func TestASecondsErrorsAreJudgedByItsOwnInterval(t *testing.T) {
	clean, _ := BandOf(killed(), fault)
	if one, two := second(40, 1, 2, 1000, 2000), second(41, 2, 2, 1000, 2000); !clean.Healthy(one) || clean.Healthy(two) {
		t.Errorf("after none: one error healthy %v (want true), two %v (want false)", clean.Healthy(one), clean.Healthy(two))
	}
	tl := killed()
	for i := range 20 {
		tl[i] = second(i, 1, 2, 1000, 2000+10*int64(i%5))
	}
	b, _ := BandOf(tl, fault)
	if b.RateHigh < 0.0153 || b.RateHigh > 0.0155 {
		t.Fatalf("rate bound %g, want Wilson's upper bound of 20 in 2000 (0.0154)", b.RateHigh)
	}
	if three, five := second(40, 3, 2, 1000, 2000), second(41, 5, 2, 1000, 2000); !b.Healthy(three) || b.Healthy(five) {
		t.Errorf("after 20 in 2000: three healthy %v (want true), five %v (want false)", b.Healthy(three), b.Healthy(five))
	}
	if b.Healthy(Second{At: t0}) || b.Healthy(second(42, 100, 0, 0, 0)) {
		t.Error("a second that sent nothing, or timed no success, is healthy")
	}
}

func TestAmplificationIsWhatTheAppSawPerRequestSent(t *testing.T) {
	if a, ok := Amplification(1300, 1000); !ok || a != 1.3 {
		t.Errorf("1300 seen of 1000 sent: %g %v", a, ok)
	}
	if _, ok := Amplification(5, 0); ok {
		t.Error("nothing sent gave an amplification")
	}
	// 1.3, 1.2, 1.4: sd 0.1, t(0.975, 2) = 4.303, half-width 4.303 × 0.1/√3 = 0.2484.
	s, ok := SpreadOf([]float64{1.3, 1.2, 1.4})
	if !ok || math.Abs(s.Mean-1.3) > 1e-9 || math.Abs(s.Low-1.0516) > 1e-3 || math.Abs(s.High-1.5484) > 1e-3 || s.Repetitions != 3 {
		t.Errorf("spread %+v %v", s, ok)
	}
	if _, ok := SpreadOf([]float64{1.3}); ok {
		t.Error("one repetition gave an interval")
	}
}

// timelineOf is tl as the load tester reports it, for repetition rep of variant v.
func timelineOf(t *testing.T, v result.Variant, rep int, tl []Second) result.Timeline {
	t.Helper()
	out := result.Timeline{Variant: v, Rep: rep, StartUnixNano: tl[0].At.UnixNano()}
	for _, s := range tl {
		sec := result.Second{Failed: s.Errors}
		if s.Latency != nil {
			enc, err := result.EncodeHistogram(s.Latency)
			if err != nil {
				t.Fatal(err)
			}
			sec.Latency = enc
		}
		out.Seconds = append(out.Seconds, sec)
	}
	return out
}

// Judge reads the report's timelines and applied faults: each repetition's recovery (2 s and
// 4 s: mean 3 s, its t interval with one degree of freedom ±12.706 s), the windows summed
// over both, the amplification's spread, and a phase whose fault was not applied said apart.
func TestJudgeSumsTheRepetitionsAndSpreadsTheirRecoveries(t *testing.T) {
	span := func(rep int, seen int64, errMsg string) result.AppliedFault {
		return result.AppliedFault{Fault: 0, Variant: result.Dapr, Rep: rep, StartUnixNano: fault.Start.UnixNano(), EndUnixNano: fault.End.UnixNano(),
			AppSeen: seen, Sent: 6000, Error: errMsg}
	}
	timelines := []result.Timeline{timelineOf(t, result.Dapr, 0, killed()), timelineOf(t, result.Dapr, 1, killed(28)), timelineOf(t, result.Baseline, 0, killed())}
	applied := []result.AppliedFault{span(1, 7800, ""), span(0, 6600, ""), span(2, -1, "the target app refused the fault")}
	got, err := Judge(timelines, applied)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d outcomes, want the one fault on the one path it was applied to: %+v", len(got), got)
	}
	o := got[0]
	if o.Variant != result.Dapr || o.Applied != 2 || len(o.NotApplied) != 1 || !strings.Contains(o.NotApplied[0], "repetition 3: the target app refused") {
		t.Errorf("applied %d, not applied %q", o.Applied, o.NotApplied)
	}
	if !slices.Equal(o.Recoveries, []time.Duration{2 * time.Second, 4 * time.Second}) || o.NotRecovered != 0 || o.NoBand != 0 {
		t.Errorf("recoveries %v (%d not recovered, %d without a band), want [2s 4s]", o.Recoveries, o.NotRecovered, o.NoBand)
	}
	if !o.RecoveryOK || o.Recovery.Mean != 3 || math.Abs(o.Recovery.High-3-12.7062) > 1e-3 || math.Abs(3-o.Recovery.Low-12.7062) > 1e-3 {
		t.Errorf("recovery %+v, want 3 ± 12.706 s", o.Recovery)
	}
	if o.During.Sent != 1000 || o.During.Errors != 800 || o.Before.Sent != 4000 || o.After.Seconds != 70 {
		t.Errorf("windows: before %d sent, during %d/%d, after %d seconds; want 4000, 800/1000, 70", o.Before.Sent, o.During.Errors, o.During.Sent, o.After.Seconds)
	}
	// The windows merged second by second as each is decoded (the histograms then let go)
	// are those of the phases decoded whole.
	var whole [3]Window
	for _, tl := range timelines[:2] {
		seconds, err := SecondsOf(tl)
		if err != nil {
			t.Fatal(err)
		}
		b, d, a := cut(seconds, fault)
		whole[0].add(b)
		whole[1].add(d)
		whole[2].add(a)
	}
	for i, w := range []Window{o.Before, o.During, o.After} {
		if want := whole[i]; w.Sent != want.Sent || w.Errors != want.Errors || w.Seconds != want.Seconds || !w.From.Equal(want.From) ||
			!w.To.Equal(want.To) || w.P(50) != want.P(50) || w.P(99) != want.P(99) || w.P(99.9) != want.P(99.9) {
			t.Errorf("window %d: %d/%d over %d s, p50 %v p99 %v; decoded whole: %d/%d over %d s, p50 %v p99 %v",
				i, w.Errors, w.Sent, w.Seconds, w.P(50), w.P(99), want.Errors, want.Sent, want.Seconds, want.P(50), want.P(99))
		}
	}
	if !o.AmplificationOK || math.Abs(o.Amplification.Mean-1.2) > 1e-9 || o.Amplification.Repetitions != 2 {
		t.Errorf("amplification %+v, want the mean of 1.1 and 1.3", o.Amplification)
	}
	if _, err := Judge(timelines[2:], applied[:1]); err == nil {
		t.Error("a fault applied in a phase with no timeline was judged")
	}
}

// The outcome's seconds pool the phases by their second: the k-th second of both phases
// together, as far as both reach. The known answer: killed()'s 100 requests a second, both
// phases' 200; in a faulted second 80 of each hundred fail (160) and the 40 successes take
// 500 ms; at 28 one phase is shaky (2 failures), so that second counts 2 of 200; a healthy
// second's p50 is 1 ms, its p99 2 ms (2 slow of 98). Beside a phase cut short at 50 s the
// last 10 seconds hold the longer phase alone. The windows summed phase by phase give the
// share failed and its interval over both phases: 1600 of 2000 while the fault held.
func TestAnOutcomesSecondsPoolThePhasesBySecond(t *testing.T) {
	span := func(rep int) result.AppliedFault {
		return result.AppliedFault{Fault: 0, Variant: result.Dapr, Rep: rep, StartUnixNano: fault.Start.UnixNano(), EndUnixNano: fault.End.UnixNano(), AppSeen: -1}
	}
	got, err := Judge([]result.Timeline{timelineOf(t, result.Dapr, 0, killed()), timelineOf(t, result.Dapr, 1, killed(28))}, []result.AppliedFault{span(0), span(1)})
	if err != nil || len(got) != 1 {
		t.Fatalf("%d outcomes, %v", len(got), err)
	}
	secs := got[0].Seconds
	if len(secs) != 60 {
		t.Fatalf("%d pooled seconds, want the phases' 60", len(secs))
	}
	near := func(us, want int64) bool { return us >= want-want/100 && us <= want+want/100 }
	if s := secs[22]; s.Sent != 200 || s.Errors != 160 || !near(s.P50Us, 500_000) || !near(s.P99Us, 500_000) {
		t.Errorf("second 22: %+v; want 200 sent, 160 failed, the successes at 500 ms", s)
	}
	if s := secs[28]; s.Sent != 200 || s.Errors != 2 {
		t.Errorf("second 28: %+v; want 200 sent, 2 failed (one phase shaky)", s)
	}
	if s := secs[5]; s.Errors != 0 || !near(s.P50Us, 1000) || !near(s.P99Us, 2000) {
		t.Errorf("second 5: %+v; want none failed, p50 1 ms, p99 2 ms", s)
	}
	if d := got[0].During; d.Sent != 1000 || d.Errors != 800 || d.ErrorShare != 0.8 || d.ErrorLow >= 0.8 || d.ErrorHigh <= 0.8 || d.Seconds != 10 {
		t.Errorf("during %+v: want 800 of 1000 failed over both phases' 10 seconds, 0.8 within its Wilson interval", d)
	}
	short := timelineOf(t, result.Dapr, 1, killed()[:50])
	pooled, err := PoolSeconds([]result.Timeline{timelineOf(t, result.Dapr, 0, killed()), short})
	if err != nil || len(pooled) != 60 || pooled[49].Sent != 200 || pooled[55].Sent != 100 {
		t.Errorf("a phase of 50 s beside one of 60: %d pooled seconds (%v), want 60: both phases to 50 s, the longer alone after", len(pooled), err)
	}
}

func TestABrokerKillSumsEachPhasesMessagesAndSpreadsItsLosses(t *testing.T) {
	span := func(rep int, m *result.Messages) result.AppliedFault {
		return result.AppliedFault{Fault: 0, Variant: result.Dapr, Rep: rep, StartUnixNano: fault.Start.UnixNano(), EndUnixNano: fault.End.UnixNano(),
			AppSeen: -1, Sent: 6000, Pod: "store-1", Messages: m}
	}
	timelines := []result.Timeline{timelineOf(t, result.Dapr, 0, killed()), timelineOf(t, result.Dapr, 1, killed())}
	got, err := Judge(timelines, []result.AppliedFault{
		span(0, &result.Messages{Published: 5000, Delivered: 4700, Lost: 300, Duplicated: 2}),
		span(1, &result.Messages{Published: 5100, Delivered: 4600, Lost: 500})})
	if err != nil || len(got) != 1 {
		t.Fatalf("%v, %+v", err, got)
	}
	o := got[0]
	if m := o.Messages; m == nil || m.Published != 10100 || m.Lost != 800 || m.Duplicated != 2 {
		t.Errorf("messages %+v, want 10100 published, 800 lost, 2 duplicated", m)
	}
	// Two phases: 400 ± t(0.975, 1) × 100 / √2 × √2 = 400 ± 1270.6.
	if !o.LostPerPhaseOK || o.LostPerPhase.Mean != 400 || math.Abs(o.LostPerPhase.High-400-1270.62) > 0.01 {
		t.Errorf("lost a phase %+v, want 400 ± 1270.6", o.LostPerPhase)
	}
	if o.AmplificationOK || o.Amplification.Repetitions != 0 {
		t.Errorf("amplification %+v from phases whose app count was not read", o.Amplification)
	}

	invocation, err := Judge(timelines[:1], []result.AppliedFault{span(0, nil)})
	if err != nil || invocation[0].Messages != nil || invocation[0].LostPerPhase.Repetitions != 0 {
		t.Errorf("a phase without messages gave messages %+v (%v)", invocation[0].Messages, err)
	}
}
