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
	for i, p := range ps {
		client, server, ix := at.Client.Percentiles[i], at.Server.Percentiles[i], at.Interaction.Percentiles[i]
		added, _ := sum.Added.At(p)
		if client.Us+server.Us+ix.Us != added.Us {
			t.Errorf("p%v: client %d + server %d + interaction %d µs ≠ added %d µs", p, client.Us, server.Us, ix.Us, added.Us)
		}
		for _, c := range []struct {
			name string
			got  result.AddedPercentile
			want int64
		}{{"client", client, 300}, {"server", server, 500}, {"interaction", ix, 100}} {
			// 60,000 requests a path: sampling moves a path's p90 by about 5 µs (one standard
			// deviation) and a contrast of four paths by about 10 µs
			if d := c.got.Us - c.want; d < -30 || d > 30 {
				t.Errorf("p%v %s: %d µs, want %d", p, c.name, c.got.Us, c.want)
			}
			if c.got.LowUs > c.want || c.got.HighUs < c.want || c.got.WithinNoise() {
				t.Errorf("p%v %s: interval [%d, %d] µs must hold %d and exclude 0", p, c.name, c.got.LowUs, c.got.HighUs, c.want)
			}
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
	if again.Attribution.Interaction.Percentiles[1] != at.Interaction.Percentiles[1] {
		t.Errorf("one input gave two interactions: %+v then %+v", at.Interaction.Percentiles[1], again.Attribution.Interaction.Percentiles[1])
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
		if e := a.Interaction.Percentiles[0]; e.LowUs-2 <= 100 && 100 <= e.HighUs+2 {
			held++
		}
	}
	pct := 100 * float64(held) / float64(trials)
	if pct < 92 {
		t.Errorf("the 95%% interval of the interaction held 100 µs in %.1f%% of experiments, want 95 or more", pct)
	}
	t.Logf("the interaction's 95%% interval held the truth in %.1f%% of %d experiments", pct, trials)
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
func TestAFourPathSummaryFitsTheTerminationMessage(t *testing.T) {
	sum, recs := fourPathRun(rand.New(rand.NewPCG(7, 8)), 3, 20, 10, 5)
	for _, rec := range recs {
		rec.TesterLag = NewHistogram()
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
	b, err := result.Encode(sum)
	if err != nil {
		t.Fatal(err)
	}
	back, err := result.Decode(b)
	if err != nil || back.Attribution == nil || back.Error != "" || back.Runs[len(back.Runs)-1].StartUnix == 0 {
		t.Fatalf("%d bytes decoded to attribution %v, error %q (%v)", len(b), back != nil && back.Attribution != nil, back.Error, err)
	}
	t.Logf("a four-path summary of %d runs: %d bytes, degraded %d steps, path intervals kept %v", len(sum.Runs), len(b), back.Degraded, len(back.Attribution.Paths) == 4)
}
