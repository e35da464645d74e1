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
	"cmp"
	"slices"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// measuredSpan is the measured load's planned length: every path's repetitions, back to
// back. A soak (result.MinTrendSpan or more) reads daprd's gauges and reports its latency
// in windows.
func measuredSpan(cfg Config) time.Duration {
	return cfg.Duration * time.Duration(cfg.Repetitions*len(cfg.Targets))
}

// phasePart is one measured phase (or half of a repetition measured in two): its
// schedule's start on the load tester's clock and its recording's count of blocks and of
// failed counts, before a second half joined it.
type phasePart struct {
	start          time.Time
	blocks, failed int
}

// latencyWindowsOf are the measured runs' latency in windows of width seconds: each
// recording cut back into its phases' parts, each part's blocks summed width at a time from
// its own schedule's start and read as percentiles. A repetition measured in halves gives
// two, one a half. Every pod starts a phase together: the leader's parts cut the merged
// recordings (another pod's half may hold a block more or less, a second off in a window).
func latencyWindowsOf(recs map[latency.Key]*latency.Recorded, parts map[latency.Key][]phasePart, width int) []result.LatencyWindows {
	var out []result.LatencyWindows
	for k, rec := range recs {
		own := parts[k]
		if len(own) == 0 {
			continue
		}
		sizes := make([][2]int, len(own))
		for i, p := range own {
			sizes[i] = [2]int{p.blocks, p.failed}
		}
		blocks, failed := rec.Parts(sizes)
		for i, p := range own {
			w := result.LatencyWindows{Variant: k.Variant, Rep: k.Rep, StartUnixNano: p.start.UnixNano(), Width: width}
			lat, failedPerWindow := latency.Windows(blocks[i], failed[i], width)
			for j := range max(len(lat), len(failedPerWindow)) {
				var win result.LatencyWindow
				if j < len(failedPerWindow) {
					win.Failed = failedPerWindow[j]
				}
				if j < len(lat) && lat[j].Total() > 0 {
					h := lat[j].Histogram()
					win.Successes, win.MaxUs = h.TotalCount(), h.Max()
					win.P50Us, win.P90Us, win.P99Us = h.ValueAtQuantile(50), h.ValueAtQuantile(90), h.ValueAtQuantile(99)
				}
				w.Windows = append(w.Windows, win)
			}
			out = append(out, w)
		}
	}
	slices.SortFunc(out, func(a, b result.LatencyWindows) int {
		return cmp.Or(cmp.Compare(a.StartUnixNano, b.StartUnixNano), cmp.Compare(a.Variant, b.Variant))
	})
	return out
}
