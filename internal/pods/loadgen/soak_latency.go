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

// latencyWindowsOf are the measured runs' latency in windows of width seconds: each
// recording's blocks summed width at a time, from its schedule's start, and read as
// percentiles.
func latencyWindowsOf(recs map[latency.Key]*latency.Recorded, starts map[latency.Key]time.Time, width int) []result.LatencyWindows {
	var out []result.LatencyWindows
	for k, rec := range recs {
		start, ok := starts[k]
		if !ok {
			continue
		}
		w := result.LatencyWindows{Variant: k.Variant, Rep: k.Rep, StartUnixNano: start.UnixNano(), Width: width}
		lat, failed := rec.Windows(width)
		for i := range max(len(lat), len(failed)) {
			var win result.LatencyWindow
			if i < len(failed) {
				win.Failed = failed[i]
			}
			if i < len(lat) && lat[i].Total() > 0 {
				h := lat[i].Histogram()
				win.Successes, win.MaxUs = h.TotalCount(), h.Max()
				win.P50Us, win.P90Us, win.P99Us = h.ValueAtQuantile(50), h.ValueAtQuantile(90), h.ValueAtQuantile(99)
			}
			w.Windows = append(w.Windows, win)
		}
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b result.LatencyWindows) int {
		return cmp.Or(cmp.Compare(a.StartUnixNano, b.StartUnixNano), cmp.Compare(a.Variant, b.Variant))
	})
	return out
}
