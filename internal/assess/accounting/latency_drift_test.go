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

package accounting

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// soakWindows is one 30-minute Dapr phase from start in 30 s windows (and a baseline phase
// before it), window k's 100 successes spread evenly from 9% below p90(k) to 1% above it.
func soakWindows(t *testing.T, start time.Time, p90 func(k int) time.Duration) ([]result.LatencyWindows, []Phase) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	window := func(at time.Duration) result.LatencyWindow {
		h := result.NewHistogram()
		for range 100 {
			_ = h.RecordValue(int64(float64(at.Microseconds()) * (1 + 0.1*(rng.Float64()-0.9))))
		}
		return result.LatencyWindow{Successes: h.TotalCount(), P50Us: h.ValueAtQuantile(50), P90Us: h.ValueAtQuantile(90),
			P99Us: h.ValueAtQuantile(99), MaxUs: h.Max()}
	}
	dapr := result.LatencyWindows{Variant: result.Dapr, StartUnixNano: start.UnixNano(), Width: 30}
	for k := range 60 {
		dapr.Windows = append(dapr.Windows, window(p90(k)))
	}
	// The baseline's phase before it, far faster: not the measured path's.
	base := result.LatencyWindows{Variant: result.Baseline, StartUnixNano: start.Add(-30 * time.Minute).UnixNano(), Width: 30}
	for range 60 {
		base.Windows = append(base.Windows, window(time.Millisecond))
	}
	return []result.LatencyWindows{base, dapr}, []Phase{
		{Variant: string(result.Baseline), Start: start.Add(-30 * time.Minute), End: start},
		{Variant: string(result.Dapr), Start: start, End: start.Add(30 * time.Minute)},
	}
}

// A p90 that steps from 10 ms to 14 ms 20 minutes into a 30-minute soak reads as one change
// point at that window, with the level on either side, and a slope above zero; one that
// stays at 10 ms reads as no change point and a slope whose interval holds zero.
func TestALatencyDriftNamesTheStepInASoakAndNothingInAFlatOne(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	step := func(k int) time.Duration {
		if k >= 40 {
			return 14 * time.Millisecond
		}
		return 10 * time.Millisecond
	}
	windows, phases := soakWindows(t, start, step)
	d := LatencyDrift(windows, phases, string(result.Dapr), 2*time.Second)
	if d == nil {
		t.Fatal("no drift fitted over a 30-minute soak")
	}
	// The first and last windows reach into the phase's trimmed edges: 58 are inside.
	if d.Path != "dapr" || d.Windows != 58 || d.Width.Duration != 30*time.Second || d.Span.Duration != 57*30*time.Second {
		t.Errorf("drift %+v: want the dapr path's 58 windows of 30s over 28m30s", d)
	}
	if len(d.ChangePoints) != 1 {
		t.Fatalf("change points %+v: want the one step", d.ChangePoints)
	}
	cp := d.ChangePoints[0]
	if !cp.At.Time.Equal(start.Add(40*30*time.Second)) || !near(cp.Before.Duration, 10*time.Millisecond) || !near(cp.After.Duration, 14*time.Millisecond) {
		t.Errorf("change point %+v: want at window 40 (20m in), from ~10ms to ~14ms", cp)
	}
	// A step is no steady drift: its residuals, one level then another, correlate, which
	// widens the slope's interval; the change point is what tells it.
	if d.PerHour.Duration <= 0 || d.Low.Duration > 0 {
		t.Errorf("a step up: %v [%v, %v] an hour; want a rise whose widened interval holds zero", d.PerHour.Duration, d.Low.Duration, d.High.Duration)
	}

	flat, _ := soakWindows(t, start, func(int) time.Duration { return 10 * time.Millisecond })
	f := LatencyDrift(flat, phases, string(result.Dapr), 2*time.Second)
	if f == nil || len(f.ChangePoints) != 0 || f.Low.Duration > 0 || f.High.Duration < 0 || !near(f.Start.Duration, 10*time.Millisecond) {
		t.Errorf("a flat soak: %+v; want no change point, an interval holding zero, at ~10ms", f)
	}
}

// Two steps, up and then down, read as two change points in time order, each with the
// median of the windows between it and its neighbours.
func TestALatencyDriftNamesEveryStepWithTheLevelsBetween(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	levels := func(k int) time.Duration {
		switch {
		case k >= 40:
			return 11 * time.Millisecond
		case k >= 20:
			return 14 * time.Millisecond
		}
		return 10 * time.Millisecond
	}
	windows, phases := soakWindows(t, start, levels)
	d := LatencyDrift(windows, phases, string(result.Dapr), 2*time.Second)
	if d == nil || len(d.ChangePoints) != 2 {
		t.Fatalf("drift %+v: want two change points", d)
	}
	for i, want := range []struct {
		window        int
		before, after time.Duration
	}{{20, 10 * time.Millisecond, 14 * time.Millisecond}, {40, 14 * time.Millisecond, 11 * time.Millisecond}} {
		cp := d.ChangePoints[i]
		if !cp.At.Time.Equal(start.Add(time.Duration(want.window)*30*time.Second)) || !near(cp.Before.Duration, want.before) || !near(cp.After.Duration, want.after) {
			t.Errorf("change point %d %+v: want at window %d, from ~%v to ~%v", i, cp, want.window, want.before, want.after)
		}
	}
}

// A p90 rising 8 ms an hour reads as that slope, within its interval; a load under
// MinTrendSpan, or windows too thin to hold a p90, fit nothing.
func TestALatencyDriftIsThePercentilesSlopeOverTheMeasuredPhases(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	rising := func(k int) time.Duration {
		return 10*time.Millisecond + time.Duration(k)*30*time.Second*8/3600*time.Millisecond/time.Second
	}
	windows, phases := soakWindows(t, start, rising)
	d := LatencyDrift(windows, phases, string(result.Dapr), 2*time.Second)
	if d == nil {
		t.Fatal("no drift fitted")
	}
	if d.Low.Duration > 8*time.Millisecond || d.High.Duration < 8*time.Millisecond || !near(d.PerHour.Duration, 8*time.Millisecond) {
		t.Errorf("slope %v [%v, %v] an hour: want 8ms within its interval", d.PerHour.Duration, d.Low.Duration, d.High.Duration)
	}
	short := []Phase{{Variant: string(result.Dapr), Start: start, End: start.Add(9 * time.Minute)}}
	if got := LatencyDrift(windows, short, string(result.Dapr), 0); got != nil {
		t.Errorf("a 9-minute load got a drift: %+v", got)
	}
	thin := []result.LatencyWindows{{Variant: result.Dapr, StartUnixNano: start.UnixNano(), Width: 30, Windows: make([]result.LatencyWindow, 60)}}
	for k := range thin[0].Windows {
		thin[0].Windows[k] = result.LatencyWindow{Successes: minWindowRequests - 1, P50Us: 10_000, P90Us: 10_000, P99Us: 10_000, MaxUs: 10_000}
	}
	if got := LatencyDrift(thin, phases, string(result.Dapr), 0); got != nil {
		t.Errorf("windows of %d requests each got a drift: %+v", minWindowRequests-1, got)
	}
}

// near is within 5% of want: a window's p90 is its requests', spread around it.
func near(got, want time.Duration) bool {
	return got > want*95/100 && got < want*105/100
}
