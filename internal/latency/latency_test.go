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

package latency

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"fortio.org/fortio/periodic"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/result"
)

func TestRecorderKeepsEveryLatencyToThreeSignificantDigits(t *testing.T) {
	r := NewRecorder(4)
	// 2.345 ms lies inside one of fortio's 500 µs buckets (2-8 ms at its default resolution),
	// where fortio can only interpolate; the recorder keeps it to the microsecond.
	want := []float64{0.000050, 0.002345, 0.002346, 0.0079999, 0.150123}
	var wg sync.WaitGroup
	for id := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, v := range want {
				r.Report(context.Background(), periodic.ThreadID(id), 0, time.Time{}, v, true, "")
			}
		}()
	}
	wg.Wait()
	r.Report(context.Background(), periodic.ThreadID(9), 0, time.Time{}, 0.002345, false, "") // beyond the threads
	h := r.Histogram()
	if h.TotalCount() != 21 {
		t.Fatalf("recorded %d latencies, want 21", h.TotalCount())
	}
	for _, v := range want {
		us := v * 1e6
		got := h.ValueAtPercentile(percentileOf(h, int64(math.Round(us))))
		if rel := math.Abs(float64(got)-us) / us; rel > 0.001 {
			t.Errorf("%.1f µs recorded as %d µs: relative error %.5f, want <= 0.001", us, got, rel)
		}
	}
}

// percentileOf returns the percentile at which v is the highest recorded value not above it.
func percentileOf(h *hdrhistogram.Histogram, v int64) float64 {
	var below int64
	for _, b := range h.Distribution() {
		if b.From <= v {
			below += b.Count
		}
	}
	return 100 * float64(below) / float64(h.TotalCount())
}

// draws returns a histogram of n latencies from a log-normal around median µs, plus shift.
func draws(rng *rand.Rand, n int, median, shift float64) *hdrhistogram.Histogram {
	h := NewHistogram()
	for range n {
		_ = h.RecordValue(int64(median*math.Exp(0.4*rng.NormFloat64()) + shift))
	}
	return h
}

func TestEstimateAddedPointIsMergedDaprMinusMergedBaseline(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var pairs []Pair
	mb, md := NewHistogram(), NewHistogram()
	for range 3 {
		p := Pair{Baseline: draws(rng, 4000, 700, 0), Dapr: draws(rng, 4000, 700, 2000)}
		mb.Merge(p.Baseline)
		md.Merge(p.Dapr)
		pairs = append(pairs, p)
	}
	ps := []float64{50, 90, 99, 99.9}
	a, ok := EstimateAdded(pairs, ps, 500, DefaultConfidence)
	if !ok {
		t.Fatal("no estimate from three pairs")
	}
	for i, p := range ps {
		e := a.Estimates[i]
		if want := md.ValueAtPercentile(p) - mb.ValueAtPercentile(p); e.Us != want {
			t.Errorf("p%v: point %d µs, want merged dapr - merged baseline = %d µs", p, e.Us, want)
		}
		if e.WithinNoise() {
			t.Errorf("p%v: a 2 ms shift called within noise: [%d, %d]", p, e.LowUs, e.HighUs)
		}
		if p <= 90 && e.HighUs-e.LowUs > 200 {
			t.Errorf("p%v: interval [%d, %d] is wider than 10%% of a 2 ms shift over 12000 requests", p, e.LowUs, e.HighUs)
		}
		if !(e.LowUs <= e.Us && e.Us <= e.HighUs) {
			t.Errorf("p%v: point %d outside its interval [%d, %d]", p, e.Us, e.LowUs, e.HighUs)
		}
	}
	again, _ := EstimateAdded(pairs, ps, 500, DefaultConfidence)
	if again.Estimates[1] != a.Estimates[1] || again.Avg != a.Avg {
		t.Errorf("one input gave two answers: %+v then %+v", a.Estimates[1], again.Estimates[1])
	}
	if math.Abs(float64(a.Avg.Us)-2000) > 50 {
		t.Errorf("added avg %d µs, want about 2000", a.Avg.Us)
	}
}

func TestEstimateAddedSaysWithinNoiseWhenThePathsAreAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var pairs []Pair
	for range 3 {
		pairs = append(pairs, Pair{Baseline: draws(rng, 3000, 900, 0), Dapr: draws(rng, 3000, 900, 0)})
	}
	a, _ := EstimateAdded(pairs, []float64{50, 90, 99}, 1000, DefaultConfidence)
	for i, e := range a.Estimates {
		if !e.WithinNoise() || e.HighUs < 0 {
			t.Errorf("p%v: alike paths gave [%d, %d] µs, want an interval around 0", a.Percentiles[i], e.LowUs, e.HighUs)
		}
	}
}

// The interval must hold the true difference about as often as it claims: 100 experiments
// with a known added latency of 700 µs at every percentile.
func TestEstimateAddedCoversTheTrueDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const trials, trueAdded = 100, 700
	covered := map[float64]int{}
	ps := []float64{50, 90, 99}
	for range trials {
		var pairs []Pair
		for range 3 {
			pairs = append(pairs, Pair{Baseline: draws(rng, 2000, 1000, 0), Dapr: draws(rng, 2000, 1000, trueAdded)})
		}
		a, _ := EstimateAdded(pairs, ps, 400, DefaultConfidence)
		for i, e := range a.Estimates {
			// the histograms' own precision (0.1%) widens the target by a microsecond or two
			if e.LowUs-2 <= trueAdded && trueAdded <= e.HighUs+2 {
				covered[ps[i]]++
			}
		}
	}
	for _, p := range ps {
		if covered[p] < 88 {
			t.Errorf("p%v: the 95%% interval held the true difference in %d of %d experiments", p, covered[p], trials)
		}
	}
}

func TestEstimateAddedNeedsAPair(t *testing.T) {
	if _, ok := EstimateAdded(nil, []float64{50}, 100, DefaultConfidence); ok {
		t.Error("an estimate from no pairs")
	}
	if _, ok := EstimateAdded([]Pair{{Baseline: NewHistogram(), Dapr: NewHistogram()}}, []float64{50}, 100, DefaultConfidence); ok {
		t.Error("an estimate from empty histograms")
	}
}

func TestSummarizeFillsRunsMergedAndAddedFromHistograms(t *testing.T) {
	constant := func(us int64, n int) *hdrhistogram.Histogram {
		h := NewHistogram()
		_ = h.RecordValues(us, int64(n))
		return h
	}
	sum := result.Summary{Runs: []result.Run{
		{Variant: result.Baseline, Rep: 0}, {Variant: result.Dapr, Rep: 0},
		{Variant: result.Baseline, Rep: 1}, {Variant: result.Dapr, Rep: 1},
		{Variant: result.Dapr, Rep: 2}, // its baseline failed to report: no pair
	}}
	hists := map[Key]*hdrhistogram.Histogram{
		{result.Baseline, 0}: constant(600, 1000), {result.Dapr, 0}: constant(1000, 1000),
		{result.Baseline, 1}: constant(700, 1000), {result.Dapr, 1}: constant(1200, 1000),
		{result.Dapr, 2}: constant(2000, 1000), // values below 2048 µs are exact
	}
	Summarize(&sum, hists, []float64{50, 90, 99.9})
	if sum.Digits != SignificantDigits {
		t.Errorf("digits %d", sum.Digits)
	}
	if p90, _ := sum.Runs[3].Latency(90); p90 != 1200*time.Microsecond || sum.Runs[3].MaxUs != 1200 || sum.Runs[3].AvgUs != 1200 {
		t.Errorf("dapr rep 1 = %+v", sum.Runs[3])
	}
	dapr, ok := sum.MergedOf(result.Dapr)
	// every request of the three Dapr runs: 1000 at 1 ms, 1000 at 1.2 ms, 1000 at 2 ms
	if p50, _ := dapr.Latency(50); !ok || p50 != 1200*time.Microsecond || dapr.MaxUs != 2000 || dapr.AvgUs != 1400 {
		t.Errorf("merged dapr = %+v", dapr)
	}
	// added from the two pairs only: dapr {1000, 1200} - baseline {600, 700}
	a50, ok := sum.Added.At(50)
	if !ok || a50.Us != 1000-600 {
		t.Errorf("added p50 = %+v, want merged 1000 - merged 600 over the pairs", a50)
	}
	if a, _ := sum.Added.At(90); a.Us != 1200-700 || a.LowUs > a.Us || a.HighUs < a.Us {
		t.Errorf("added p90 = %+v", a)
	}
	if sum.Added.Avg.Us != 1100-650 {
		t.Errorf("added avg = %+v", sum.Added.Avg)
	}

	direct := result.Summary{Runs: []result.Run{{Variant: result.Direct, Rep: 0}}}
	Summarize(&direct, map[Key]*hdrhistogram.Histogram{{result.Direct, 0}: constant(400, 10)}, []float64{50})
	if direct.Added != nil || len(direct.Merged) != 1 {
		t.Errorf("direct only: added %+v, merged %+v", direct.Added, direct.Merged)
	}
}

// BenchmarkRecorderReport is the hook's own cost per request (hack/bench-latency-hook.sh
// measures it against fortio's whole per-request cost).
func BenchmarkRecorderReport(b *testing.B) {
	r := NewRecorder(1)
	ctx := context.Background()
	for i := range b.N {
		r.Report(ctx, 0, int64(i), time.Time{}, 0.0005+float64(i%4096)*1e-6, true, "200")
	}
}
