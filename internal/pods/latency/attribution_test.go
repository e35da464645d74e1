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
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// What each synthetic path adds over the direct one, in µs: the client sidecar 300, the
// server sidecar 500, both together 900, so the interaction is 900 − 300 − 500 = 100.
var fourPathShifts = map[result.Variant]float64{result.Baseline: 0, result.ClientOnly: 300, result.ServerOnly: 500, result.Dapr: 900}

// fourPathRun records every path of reps repetitions of blocks one-second blocks of 50
// requests; each run drifts by its own offset (standard deviation between µs) and its
// seconds by blockSD.
func fourPathRun(rng *rand.Rand, reps, blocks int, between, blockSD float64) (result.Summary, map[Key]*Recorded) {
	var sum result.Summary
	recs := map[Key]*Recorded{}
	for rep := range reps {
		for _, v := range result.AttributionPaths {
			sum.Runs = append(sum.Runs, result.Run{Variant: v, Rep: rep})
			recs[Key{v, rep}] = run(rng, blocks, 50, 1000, fourPathShifts[v], between*rng.NormFloat64(), blockSD)
		}
	}
	return sum, recs
}

func TestAttributionSplitsTheAddedLatencyBetweenTheSidecars(t *testing.T) {
	sum, recs := fourPathRun(rand.New(rand.NewPCG(37, 1)), 3, 400, 10, 5)
	ps := []float64{50, 90}
	Summarize(&sum, recs, ps)
	at := sum.Attribution
	if at == nil {
		t.Fatal("no attribution from a run that measured all four paths")
	}
	// Each mean is rounded to the µs on its own: the sum may be off by the roundings.
	if d := at.Client.Avg.Us + at.Server.Avg.Us + at.Interaction.Avg.Us - sum.Added.Avg.Us; d < -2 || d > 2 {
		t.Errorf("means: client %d + server %d + interaction %d µs ≠ added %d µs", at.Client.Avg.Us, at.Server.Avg.Us, at.Interaction.Avg.Us, sum.Added.Avg.Us)
	}
	if len(at.Interaction.Percentiles) != 0 {
		t.Errorf("interaction at percentiles %+v: only means decompose", at.Interaction.Percentiles)
	}
	parts := []struct {
		name string
		got  result.Interval
		want int64
	}{{"client mean", at.Client.Avg, 300}, {"server mean", at.Server.Avg, 500}, {"interaction mean", at.Interaction.Avg, 100}}
	for i, p := range ps {
		parts = append(parts, struct {
			name string
			got  result.Interval
			want int64
		}{fmt.Sprintf("client only over direct p%v", p), at.Client.Percentiles[i].Interval, 300},
			struct {
				name string
				got  result.Interval
				want int64
			}{fmt.Sprintf("server only over direct p%v", p), at.Server.Percentiles[i].Interval, 500})
	}
	for _, c := range parts {
		// 60,000 requests a path: sampling moves a path's p90 by about 5 µs (one standard
		// deviation) and a contrast of four paths by about 10 µs
		if d := c.got.Us - c.want; d < -30 || d > 30 {
			t.Errorf("%s: %d µs, want %d", c.name, c.got.Us, c.want)
		}
		if c.got.LowUs > c.want || c.got.HighUs < c.want || (c.got.LowUs <= 0 && c.got.HighUs >= 0) {
			t.Errorf("%s: interval [%d, %d] µs must hold %d and exclude 0", c.name, c.got.LowUs, c.got.HighUs, c.want)
		}
	}
	if len(at.Paths) != 4 || at.Paths[1].Variant != result.ClientOnly || at.Paths[1].Estimate.Reps != 3 {
		t.Fatalf("paths %+v, want b c s d over 3 repetitions", at.Paths)
	}
	own := at.Paths[3].Estimate.Percentiles[0]
	if merged, _ := sum.MergedOf(result.Dapr); merged.Percentiles[0].Us != own.Us || own.LowUs > own.Us || own.HighUs < own.Us {
		t.Errorf("the Dapr path's own p50 %+v, want its merged p50 %d inside its interval", own, merged.Percentiles[0].Us)
	}
	// One input, one answer: the bootstrap's seed is fixed.
	again, _ := fourPathRun(rand.New(rand.NewPCG(37, 1)), 3, 400, 10, 5)
	Summarize(&again, recs, ps)
	if again.Attribution.Interaction.Avg != at.Interaction.Avg {
		t.Errorf("one input gave two interactions: %+v then %+v", at.Interaction.Avg, again.Attribution.Interaction.Avg)
	}
}

// The interaction's interval, a contrast of four paths that each drift between runs, must
// hold the true 100 µs at least about as often as it claims (the larger of the between-run
// and within-run spreads makes it err on the wide side).
func TestTheInteractionsIntervalCoversTheTruth(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	held, trials := 0, 120
	for range trials {
		sum, recs := fourPathRun(rng, 3, 10, 150, 10)
		a := attribution(sum.Runs, recs, []float64{50})
		if e := a.Interaction.Avg; e.LowUs-2 <= 100 && 100 <= e.HighUs+2 {
			held++
		}
	}
	pct := 100 * float64(held) / float64(trials)
	if pct < 92 {
		t.Errorf("the 95%% interval of the interaction held 100 µs in %.1f%% of experiments, want 95 or more", pct)
	}
	t.Logf("the interaction's 95%% interval held the truth in %.1f%% of %d experiments", pct, trials)
}

// Two sidecars whose delays are independent (exponential, means 1 ms and 0.8 ms) interact
// in nothing, yet the percentiles of the both-sidecars path are not the sums of theirs: a
// percentile "interaction" reads hundreds of µs to milliseconds. The split claims the mean
// alone, whose interaction holds 0.
func TestIndependentSidecarsInteractOnlyAtTheMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	const reps, blocks, perBlock, base = 3, 60, 200, 400.0
	var sum result.Summary
	recs := map[Key]*Recorded{}
	direct, clientOnly, serverOnly, both := result.NewHistogram(), result.NewHistogram(), result.NewHistogram(), result.NewHistogram()
	record := func(v result.Variant, rep int, delay func() float64, all *Recorded, pooled interface{ RecordValue(int64) error }) {
		for range blocks {
			m := map[int64]int64{}
			for range perBlock {
				us := int64(math.Round(base + delay()))
				_ = all.Latency.RecordValue(us)
				_ = pooled.RecordValue(us)
				m[Equivalent(us)]++
			}
			all.Blocks = append(all.Blocks, countsOf(m))
		}
	}
	client := func() float64 { return 1000 * rng.ExpFloat64() }
	server := func() float64 { return 800 * rng.ExpFloat64() }
	for rep := range reps {
		for _, p := range []struct {
			v      result.Variant
			delay  func() float64
			pooled interface{ RecordValue(int64) error }
		}{{result.Baseline, func() float64 { return 0 }, direct}, {result.ClientOnly, client, clientOnly},
			{result.ServerOnly, server, serverOnly}, {result.Dapr, func() float64 { return client() + server() }, both}} {
			rec := NewRecorded()
			record(p.v, rep, p.delay, rec, p.pooled)
			recs[Key{p.v, rep}] = rec
			sum.Runs = append(sum.Runs, result.Run{Variant: p.v, Rep: rep})
		}
	}
	// The model must show what the split guards against.
	ix99 := both.ValueAtPercentile(99) - clientOnly.ValueAtPercentile(99) - serverOnly.ValueAtPercentile(99) + direct.ValueAtPercentile(99)
	if ix99 > -1000 {
		t.Fatalf("model: a p99 interaction of %d µs, want well below zero", ix99)
	}
	Summarize(&sum, recs, []float64{50, 90, 99})
	a := sum.Attribution
	if a == nil || len(a.Interaction.Percentiles) != 0 {
		t.Fatalf("attribution %+v: want an interaction at the mean only", a)
	}
	if in := a.Interaction.Avg; in.LowUs > 0 || in.HighUs < 0 {
		t.Errorf("the mean interaction of independent sidecars [%d, %d] µs excludes 0 (a p99 contrast read %d µs)", in.LowUs, in.HighUs, ix99)
	}
	t.Logf("mean interaction %d µs [%d, %d]; the p99 contrast the split no longer claims: %d µs", a.Interaction.Avg.Us, a.Interaction.Avg.LowUs, a.Interaction.Avg.HighUs, ix99)
}

func TestNoAttributionWithoutAllFourPaths(t *testing.T) {
	sum, recs := fourPathRun(rand.New(rand.NewPCG(5, 6)), 2, 10, 10, 5)
	for rep := range 2 {
		delete(recs, Key{result.ServerOnly, rep})
	}
	if a := attribution(sum.Runs, recs, []float64{50}); a != nil {
		t.Errorf("attribution %+v from a run without the server-only path", a)
	}
}

// Four paths of three repetitions (the most admission lets a four-path run make), the first
// split in halves as the phase order makes it, fit a termination message with their
// attribution and their timeline.
func TestAFourPathSummaryArrivesWholeInItsReport(t *testing.T) {
	sum, recs := fourPathRun(rand.New(rand.NewPCG(7, 8)), 5, 20, 10, 5)
	for _, rec := range recs {
		rec.TesterLag = result.NewHistogram()
		_ = rec.TesterLag.RecordValues(180, 900)
		_ = rec.TesterLag.RecordValues(2500, 100)
	}
	for i := range sum.Runs {
		r := &sum.Runs[i]
		r.Codes, r.ActualQPS, r.Requests, r.Scheduled = map[string]int64{"200": 30000}, 999.9, 30000, 30000
		r.StartUnix, r.Seconds = 1764000000, 30
		if r.Rep == 0 {
			r.SecondHalfUnix = 1764000100
		}
	}
	Summarize(&sum, recs, []float64{50, 75, 90, 99, 99.9})
	var log bytes.Buffer
	p, err := result.WriteFrame(&log, result.Report{Summary: sum}, "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := result.ReadFrame(log.Bytes(), *p.Frame)
	back := rep.Summary
	if err != nil || back.Attribution == nil || back.Error != "" || back.Runs[len(back.Runs)-1].StartUnix == 0 || len(back.Attribution.Paths) != 4 {
		t.Fatalf("a report of %d bytes read back to attribution %+v, error %q (%v)", p.Frame.Bytes, back.Attribution, back.Error, err)
	}
	t.Logf("a four-path summary of %d runs over 5 repetitions: a report of %d bytes gzipped", len(sum.Runs), p.Frame.Bytes)
}
