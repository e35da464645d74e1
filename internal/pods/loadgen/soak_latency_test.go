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

package loadgen

import (
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// near is within the histograms' three significant digits.
func near(got, want int64) bool { return got >= want && got <= want+want/500 }

func TestASoaksLatencyWindowsSumItsSecondsFromTheScheduleStart(t *testing.T) {
	block := func(micros, n int64) latency.Counts {
		return latency.Counts{Values: []int64{micros}, Counts: []int64{n}}
	}
	start := time.Unix(1000, 0)
	dapr, baseline := latency.Key{Variant: result.DaprVariant(0), Rep: 0}, latency.Key{Variant: result.Baseline, Rep: 0}
	recs := map[latency.Key]*latency.Recorded{
		dapr:     {Blocks: []latency.Counts{block(1000, 10), block(2000, 10), block(3000, 10)}, FailedBlocks: []int64{0, 0, 4}},
		baseline: {Blocks: []latency.Counts{block(500, 10)}},
		// A run without a part (a pod's own share the leader never measured) has none.
		{Variant: result.DaprVariant(0), Rep: 1}: {Blocks: []latency.Counts{block(1, 1)}},
	}
	// A repetition measured in two halves, joined as the runner joins them, the second half
	// two minutes after the first.
	halved := latency.Key{Variant: result.Dapr, Rep: 2}
	first, second := latency.NewRecorded(), latency.NewRecorded()
	first.Blocks, second.Blocks, second.FailedBlocks = []latency.Counts{block(7000, 30)}, []latency.Counts{block(8000, 30)}, []int64{2}
	recs[halved] = latency.NewRecorded()
	recs[halved].Append(first)
	recs[halved].Append(second)
	parts := map[latency.Key][]phasePart{dapr: {{start: start.Add(time.Minute), blocks: 3, failed: 3}}, baseline: {{start: start, blocks: 1}},
		halved: {{start: start.Add(2 * time.Minute), blocks: 1}, {start: start.Add(4 * time.Minute), blocks: 1, failed: 1}}}
	ws := latencyWindowsOf(recs, parts, 2)
	if len(ws) != 4 || ws[0].Variant != result.Baseline || ws[1].Variant != result.DaprVariant(0) {
		t.Fatalf("windows %+v: want the baseline's, the Dapr path's, then each half's, by start", ws)
	}
	for i, want := range []struct {
		at     time.Time
		p90    int64
		failed int64
	}{{start.Add(2 * time.Minute), 7000, 0}, {start.Add(4 * time.Minute), 8000, 2}} {
		h := ws[2+i]
		if h.Start() != want.at || len(h.Windows) != 1 || !near(h.Windows[0].P90Us, want.p90) || h.Windows[0].Failed != want.failed {
			t.Errorf("half %d's windows %+v: want one from %v at p90 %d µs with %d failed", i+1, h, want.at, want.p90, want.failed)
		}
	}
	d := ws[1]
	if d.Width != 2 || d.Start() != start.Add(time.Minute) || len(d.Windows) != 2 {
		t.Fatalf("Dapr path's windows %+v: want two of 2 s from its start", d)
	}
	from, to := d.WindowSpan(1)
	if from != start.Add(time.Minute+2*time.Second) || to != from.Add(2*time.Second) {
		t.Errorf("window 1 spans %v..%v", from, to)
	}
	// Window 0 holds 10 requests of 1 ms and 10 of 2 ms; window 1 10 of 3 ms and 4 failures.
	for k, want := range []result.LatencyWindow{{Successes: 20, P50Us: 1000, P90Us: 2000, P99Us: 2000, MaxUs: 2000}, {Successes: 10, Failed: 4, P50Us: 3000, P90Us: 3000, P99Us: 3000, MaxUs: 3000}} {
		got := d.Windows[k]
		if got.Successes != want.Successes || got.Failed != want.Failed || !near(got.P50Us, want.P50Us) || !near(got.P90Us, want.P90Us) || !near(got.MaxUs, want.MaxUs) {
			t.Errorf("window %d = %+v, want %+v (to the histogram's three digits)", k, got, want)
		}
	}
	if result.LatencyWindowWidth(9*time.Minute) != 0 || result.LatencyWindowWidth(30*time.Minute) != 30 || result.LatencyWindowWidth(24*time.Hour) != 360 {
		t.Errorf("widths: under a soak %d, 30m %d, 24h %d; want 0, 30, 360", result.LatencyWindowWidth(9*time.Minute),
			result.LatencyWindowWidth(30*time.Minute), result.LatencyWindowWidth(24*time.Hour))
	}
}
