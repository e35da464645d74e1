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
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"fortio.org/fortio/periodic"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
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
			for i, v := range want {
				r.Report(context.Background(), periodic.ThreadID(id), int64(i), time.Time{}, v, true, "")
			}
		}()
	}
	wg.Wait()
	r.Report(context.Background(), periodic.ThreadID(9), 0, time.Time{}, 0.002345, true, "") // beyond the threads
	rec := r.Finish(Schedule{}, time.Time{})                                                 // unpaced: no slots
	for name, h := range map[string]*hdrhistogram.Histogram{"latency": rec.Latency, "service": rec.Service} {
		if h.TotalCount() != 21 {
			t.Fatalf("%s: recorded %d latencies, want 21", name, h.TotalCount())
		}
		for _, v := range want {
			us := v * 1e6
			got := h.ValueAtPercentile(percentileOf(h, int64(math.Round(us))))
			if rel := math.Abs(float64(got)-us) / us; rel > 0.001 {
				t.Errorf("%s: %.1f µs recorded as %d µs: relative error %.5f, want <= 0.001", name, us, got, rel)
			}
		}
	}
	if rec.Lag.Max() != 0 {
		t.Errorf("an unpaced run has no send lag, got max %d µs", rec.Lag.Max())
	}
}

// A request sent late because its connection was busy is timed from the slot it was due
// in: its latency is its service time plus its wait, and it belongs to the block of its
// slot, not of its send.
func TestRecorderTimesEachRequestFromItsSlot(t *testing.T) {
	start := time.Unix(1000, 0)
	s := Schedule{Start: start, QPS: 100, Duration: 3 * time.Second, Threads: 1}
	r := NewRecorder(1)
	ctx := context.Background()
	// slot 0 stalls for 600 ms; slot 50 (due ≈ 0.505 s) goes out when it returns, at 600 ms.
	r.Report(ctx, 0, 0, s.Intended(0, 0), 0.600, true, "")
	r.Report(ctx, 0, 50, s.Intended(0, 0).Add(600*time.Millisecond), 0.001, true, "")
	rec := r.Finish(s, time.Time{})
	wait := s.Intended(0, 0).Add(600 * time.Millisecond).Sub(s.Intended(0, 50)).Microseconds()
	if got := rec.Latency.Min(); got < wait+900 || got > wait+1100 {
		t.Errorf("latency of the late request %d µs, want its %d µs wait plus 1 ms service", got, wait)
	}
	if got := rec.Service.Max(); got < 599_500 || got > 600_500 {
		t.Errorf("service time max %d µs, want 600 ms (fortio's own figure)", got)
	}
	if got := rec.Lag.Max(); got < wait-100 || got > wait+100 {
		t.Errorf("lag max %d µs, want about %d", got, wait)
	}
	if got := rec.TesterLag.Max(); got > 100 {
		t.Errorf("tester lag max %d µs: the wait was the connection's, not the tester's", got)
	}
	if len(rec.Blocks) != 1 || rec.Blocks[0].Total() != 2 {
		t.Errorf("blocks %+v: both slots are in the first second", rec.Blocks)
	}
}

// The schedule must be fortio's own: a thread's send never precedes the slot computed for
// it, and on an idle target it is sent close to it. Checked against fortio's real periodic
// runner, in both arrival modes and with the uneven split fortio makes of a rate.
func TestScheduleIsFortiosPacing(t *testing.T) {
	for _, uniform := range []bool{false, true} {
		opts := periodic.RunnerOptions{QPS: 997, Duration: 1500 * time.Millisecond, NumThreads: 7, Uniform: uniform,
			Out: io.Discard, Percentiles: []float64{50}}
		sends := &sendLog{threads: make([][]sent, 7)}
		opts.AccessLogger = sends
		r := periodic.NewPeriodicRunner(&opts)
		r.Options().MakeRunners(noop{})
		res := r.Run()
		s := Schedule{Start: res.StartTime, QPS: opts.QPS, Duration: opts.Duration, Threads: res.NumThreads, Uniform: uniform}
		var lags []time.Duration
		for id, th := range sends.threads {
			for _, x := range th {
				lag := x.at.Sub(s.Intended(id, x.i))
				if lag < -100*time.Microsecond {
					t.Fatalf("uniform=%v: thread %d sent slot %d %v before the computed slot", uniform, id, x.i, -lag)
				}
				lags = append(lags, lag)
			}
		}
		slices.Sort(lags)
		if len(lags) < 1400 {
			t.Fatalf("uniform=%v: %d sends, want about 1495", uniform, len(lags))
		}
		if med := lags[len(lags)/2]; med > 5*time.Millisecond {
			t.Errorf("uniform=%v: median send %v after the computed slot: the schedule is not fortio's", uniform, med)
		}
		if want := 7 * time.Second / 997; s.Gap() != want {
			t.Errorf("gap %v, want %v", s.Gap(), want)
		}
	}
}

type noop struct{}

func (noop) Run(context.Context, periodic.ThreadID) (bool, string) { return true, "" }

type sent struct {
	i  int64
	at time.Time
}

type sendLog struct{ threads [][]sent }

func (l *sendLog) Start(ctx context.Context, _ periodic.ThreadID, _ int64, _ time.Time) context.Context {
	return ctx
}
func (l *sendLog) Report(_ context.Context, id periodic.ThreadID, i int64, at time.Time, _ float64, _ bool, _ string) {
	l.threads[id] = append(l.threads[id], sent{i, at})
}
func (l *sendLog) Info() string { return "send log" }

func TestEquivalentIsTheHistogramsBucket(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	h := result.NewHistogram()
	want := map[int64]int64{}
	for range 20000 {
		v := int64(math.Exp(rng.Float64() * math.Log(float64(result.HighestMicros))))
		_ = h.RecordValue(v)
		want[Equivalent(v)]++
	}
	if got := CountsOf(h); !slices.Equal(got.Values, countsOf(want).Values) || !slices.Equal(got.Counts, countsOf(want).Counts) {
		t.Errorf("the histogram's buckets differ from Equivalent's: %d buckets vs %d", len(got.Values), len(want))
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

// run synthesises one run's recording: blocks of perBlock requests, log-normal around
// median µs, shifted by shift + offset (the run's own drift) + a per-block offset of
// standard deviation blockSD (requests within a second share their fate).
func run(rng *rand.Rand, blocks, perBlock int, median, shift, offset, blockSD float64) *Recorded {
	rec := NewRecorded()
	for range blocks {
		m := map[int64]int64{}
		b := blockSD * rng.NormFloat64()
		for range perBlock {
			v := max(int64(median*math.Exp(0.4*rng.NormFloat64())+shift+offset+b), 1)
			_ = rec.Latency.RecordValue(v)
			m[Equivalent(v)]++
		}
		rec.Blocks = append(rec.Blocks, countsOf(m))
	}
	return rec
}

func TestEstimateAddedPointIsMergedDaprMinusMergedBaseline(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var pairs []Pair
	mb, md := result.NewHistogram(), result.NewHistogram()
	for range 3 {
		p := Pair{Baseline: run(rng, 40, 100, 700, 0, 0, 0), Dapr: run(rng, 40, 100, 700, 2000, 0, 0)}
		mb.Merge(p.Baseline.Latency)
		md.Merge(p.Dapr.Latency)
		pairs = append(pairs, p)
	}
	ps := []float64{50, 90, 99, 99.9}
	a, ok := EstimateAdded(pairs, ps, 500, DefaultConfidence)
	if !ok || a.Reps != 3 {
		t.Fatalf("estimate from three pairs: ok %v, reps %d", ok, a.Reps)
	}
	for i, p := range ps {
		e := a.Estimates[i]
		if want := md.ValueAtPercentile(p) - mb.ValueAtPercentile(p); e.Us != want {
			t.Errorf("p%v: point %d µs, want merged dapr - merged baseline = %d µs", p, e.Us, want)
		}
		if e.WithinNoise() {
			t.Errorf("p%v: a 2 ms shift called within noise: [%d, %d]", p, e.LowUs, e.HighUs)
		}
		if p <= 90 && e.HighUs-e.LowUs > 400 {
			t.Errorf("p%v: interval [%d, %d] is wider than 20%% of a 2 ms shift over 12000 requests", p, e.LowUs, e.HighUs)
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

// coverage runs trials simulated experiments of reps repetitions and returns, per
// percentile, the share whose interval held trueAdded. Every run drifts by its own offset
// (standard deviation between µs, independent for the two paths of a repetition) and its
// seconds by blockSD: the noise a rerun sees, which resampling requests cannot reveal.
func coverage(seed uint64, trials, reps int, trueAdded, between, blockSD float64, ps []float64) map[float64]float64 {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	covered := map[float64]int{}
	for range trials {
		var pairs []Pair
		for range reps {
			pairs = append(pairs, Pair{
				Baseline: run(rng, 20, 50, 1000, 0, between*rng.NormFloat64(), blockSD),
				Dapr:     run(rng, 20, 50, 1000, trueAdded, between*rng.NormFloat64(), blockSD),
			})
		}
		a, _ := EstimateAdded(pairs, ps, 200, DefaultConfidence)
		for i, e := range a.Estimates {
			// the histograms' own precision (0.1%) widens the target by a microsecond or two
			if float64(e.LowUs-2) <= trueAdded && trueAdded <= float64(e.HighUs+2) {
				covered[ps[i]]++
			}
		}
	}
	out := map[float64]float64{}
	for _, p := range ps {
		out[p] = 100 * float64(covered[p]) / float64(trials)
	}
	return out
}

// With run-to-run drift the interval must hold the true difference about as often as it
// claims: 95 ± 3% of 400 experiments of three repetitions, a known 700 µs added.
func TestEstimateAddedCoversTheTrueDifferenceAcrossRuns(t *testing.T) {
	ps := []float64{50, 90}
	for p, pct := range coverage(11, 400, 3, 700, 150, 40, ps) {
		if pct < 92 || pct > 98 {
			t.Errorf("p%v: the 95%% interval held the true difference in %.1f%% of experiments, want 95 ± 3", p, pct)
		}
	}
}

// A/A: the same path against itself, drift and all, must be called "no difference" (an
// interval that holds 0) in at least 95% of experiments.
func TestEstimateAddedAAHoldsZero(t *testing.T) {
	ps := []float64{50, 90, 99}
	for p, pct := range coverage(13, 400, 3, 0, 150, 40, ps) {
		if pct < 95 {
			t.Errorf("A/A p%v: the interval held 0 in %.1f%% of experiments, want >= 95", p, pct)
		}
	}
}

// One repetition has no between-run spread to measure: its interval is the block
// bootstrap's alone, and Reps says so.
func TestEstimateAddedWithOneRepetitionIsWithinRunOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pair := Pair{Baseline: run(rng, 30, 100, 900, 0, 0, 30), Dapr: run(rng, 30, 100, 900, 500, 0, 30)}
	a, ok := EstimateAdded([]Pair{pair}, []float64{50, 90}, 500, DefaultConfidence)
	if !ok || a.Reps != 1 {
		t.Fatalf("ok %v, reps %d, want one within-run-only estimate", ok, a.Reps)
	}
	for i, e := range a.Estimates {
		if e.LowUs > 500 || e.HighUs < 500 || e.HighUs-e.LowUs > 300 {
			t.Errorf("p%v: [%d, %d] µs, want a narrow interval around 500", a.Percentiles[i], e.LowUs, e.HighUs)
		}
	}
}

// Blocks that share their fate widen the interval: the same requests, regrouped so every
// second drifts, must not look as certain as independent ones.
func TestEstimateAddedResamplesBlocksNotRequests(t *testing.T) {
	width := func(blockSD float64) int64 {
		rng := rand.New(rand.NewPCG(21, 22))
		pair := Pair{Baseline: run(rng, 30, 100, 900, 0, 0, blockSD), Dapr: run(rng, 30, 100, 900, 500, 0, blockSD)}
		a, _ := EstimateAdded([]Pair{pair}, []float64{50}, 500, DefaultConfidence)
		return a.Estimates[0].HighUs - a.Estimates[0].LowUs
	}
	if calm, drifting := width(0), width(150); drifting < 2*calm {
		t.Errorf("interval %d µs wide with drifting seconds, %d µs with calm ones: blocks are not resampled as units", drifting, calm)
	}
}

func TestEstimateAddedNeedsAPair(t *testing.T) {
	if _, ok := EstimateAdded(nil, []float64{50}, 100, DefaultConfidence); ok {
		t.Error("an estimate from no pairs")
	}
	if _, ok := EstimateAdded([]Pair{{Baseline: NewRecorded(), Dapr: NewRecorded()}}, []float64{50}, 100, DefaultConfidence); ok {
		t.Error("an estimate from empty recordings")
	}
}

func TestSummarizeFillsRunsMergedAndAddedFromRecordings(t *testing.T) {
	constant := func(us int64, n int) *Recorded {
		r := NewRecorded()
		_ = r.Latency.RecordValues(us, int64(n))
		_ = r.Service.RecordValues(us-100, int64(n))
		_ = r.Lag.RecordValues(100, int64(n))
		return r
	}
	sum := result.Summary{Runs: []result.Run{
		{Variant: result.Baseline, Rep: 0}, {Variant: result.Dapr, Rep: 0},
		{Variant: result.Baseline, Rep: 1}, {Variant: result.Dapr, Rep: 1},
		{Variant: result.Dapr, Rep: 2}, // its baseline failed to report: no pair
	}}
	recs := map[Key]*Recorded{
		{result.Baseline, 0}: constant(600, 1000), {result.Dapr, 0}: constant(1000, 1000),
		{result.Baseline, 1}: constant(700, 1000), {result.Dapr, 1}: constant(1200, 1000),
		{result.Dapr, 2}: constant(2000, 1000), // values below 2048 µs are exact
	}
	Summarize(&sum, recs, []float64{50, 90, 99.9})
	if sum.Digits != result.SignificantDigits {
		t.Errorf("digits %d", sum.Digits)
	}
	if p90, _ := sum.Runs[3].Latency(90); p90 != 1200*time.Microsecond || sum.Runs[3].MaxUs != 1200 || sum.Runs[3].AvgUs != 1200 || sum.Runs[3].LagP99Us != 100 {
		t.Errorf("dapr rep 1 = %+v", sum.Runs[3])
	}
	dapr, ok := sum.MergedOf(result.Dapr)
	// every request of the three Dapr runs: 1000 at 1 ms, 1000 at 1.2 ms, 1000 at 2 ms
	if p50, _ := dapr.Latency(50); !ok || p50 != 1200*time.Microsecond || dapr.MaxUs != 2000 || dapr.AvgUs != 1400 {
		t.Errorf("merged dapr = %+v", dapr)
	}
	if st, _ := dapr.Service.At(50); st != 1100*time.Microsecond || dapr.Lag.MaxUs != 100 {
		t.Errorf("merged dapr service %+v, lag %+v", dapr.Service, dapr.Lag)
	}
	// added from the two pairs only: dapr {1000, 1200} - baseline {600, 700}
	a50, ok := sum.Added.At(50)
	if !ok || a50.Us != 1000-600 || sum.Added.Reps != 2 {
		t.Errorf("added p50 = %+v over %d reps, want merged 1000 - merged 600 over the 2 pairs", a50, sum.Added.Reps)
	}
	if a, _ := sum.Added.At(90); a.Us != 1200-700 || a.LowUs > a.Us || a.HighUs < a.Us {
		t.Errorf("added p90 = %+v", a)
	}
	if sum.Added.Avg.Us != 1100-650 {
		t.Errorf("added avg = %+v", sum.Added.Avg)
	}

	direct := result.Summary{Runs: []result.Run{{Variant: result.Direct, Rep: 0}}}
	Summarize(&direct, map[Key]*Recorded{{result.Direct, 0}: constant(400, 10)}, []float64{50})
	if direct.Added != nil || len(direct.Merged) != 1 {
		t.Errorf("direct only: added %+v, merged %+v", direct.Added, direct.Merged)
	}
}

// BenchmarkRecorderReport is the hook's own cost per request (hack/bench/latency-hook.sh
// measures it against fortio's whole per-request cost).
func BenchmarkRecorderReport(b *testing.B) {
	r := NewRecorder(1)
	ctx := context.Background()
	now := time.Now()
	for i := range b.N {
		r.Report(ctx, 0, int64(i), now, 0.0005+float64(i%4096)*1e-6, true, "200")
	}
}

// BenchmarkRecorderFinish is the per-request cost of turning a run's samples into its
// histograms and blocks, paid once after the run.
func BenchmarkRecorderFinish(b *testing.B) {
	s := Schedule{Start: time.Unix(0, 0), QPS: 1000, Duration: 60 * time.Second, Threads: 16}
	r := NewRecorder(16)
	ctx := context.Background()
	for th := range 16 {
		for i := range int64(3750) {
			r.Report(ctx, periodic.ThreadID(th), i, s.Intended(th, i).Add(50*time.Microsecond), 0.0005+float64(i%4096)*1e-6, true, "")
		}
	}
	b.ResetTimer()
	for range b.N {
		r.Finish(s, s.Start.Add(s.Duration))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/60000, "ns/request")
}

// A failure counts in the second of its slot, apart from the latencies: with Blocks, the
// per-second timeline a fault run is judged by. Pods' recordings add second by second, and a
// second half's seconds follow the first's.
func TestRecorderCountsFailuresPerSecondOfTheirSlot(t *testing.T) {
	start := time.Unix(1000, 0)
	s := Schedule{Start: start, QPS: 10, Duration: 3 * time.Second, Threads: 1}
	r := NewRecorder(1)
	ctx := context.Background()
	for i := range int64(30) {
		// seconds 1 and 2 fail their slots 12, 13 and 25 (due at about 1.2, 1.3 and 2.6 s).
		r.Report(ctx, 0, i, s.Intended(0, i), 0.001, i != 12 && i != 13 && i != 25, "")
	}
	rec := r.Finish(s, time.Time{})
	if want := []int64{0, 2, 1}; !slices.Equal(rec.FailedBlocks, want) {
		t.Errorf("failed per second %v, want %v", rec.FailedBlocks, want)
	}
	var got []int64
	for _, b := range rec.Blocks {
		got = append(got, b.Total())
	}
	// fortio spreads 30 calls over the whole 3 s, so the last slot is due at 3.0 s.
	if !slices.Equal(got, []int64{10, 8, 8, 1}) {
		t.Errorf("successes per second %v, want [10 8 8 1]: a failure is not timed", got)
	}
	other := &Recorded{Latency: NewRecorded().Latency, Service: NewRecorded().Service, Lag: NewRecorded().Lag, FailedBlocks: []int64{1, 0, 0, 4}}
	rec.Merge(other)
	if want := []int64{1, 2, 1, 4}; !slices.Equal(rec.FailedBlocks, want) {
		t.Errorf("merged failed per second %v, want %v: another pod's second k adds to this one's", rec.FailedBlocks, want)
	}
	first := NewRecorded()
	first.Blocks, first.FailedBlocks = make([]Counts, 3), []int64{0, 5}
	first.Append(&Recorded{Latency: NewRecorded().Latency, Service: NewRecorded().Service, Lag: NewRecorded().Lag, FailedBlocks: []int64{7}})
	if want := []int64{0, 5, 0, 7}; !slices.Equal(first.FailedBlocks, want) {
		t.Errorf("appended failed per second %v, want %v: the second half starts where the first's blocks end", first.FailedBlocks, want)
	}
}
