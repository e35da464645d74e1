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

package result

import (
	"math"
	"slices"
	"time"

	"github.com/daprbench/daprbench/internal/stats"
)

// Stat is the median, lowest and highest of one figure over repetitions: the spread of a
// variant's repetitions. (Its latency over all repetitions is Summary.Merged.)
type Stat struct {
	Median, Min, Max time.Duration
}

// Latencies holds a Stat per percentile (keyed by the percentile's value) plus avg and max.
type Latencies struct {
	Percentiles map[float64]Stat
	Avg, Max    Stat
}

// Percentile returns the Stat of percentile p, selected by value.
func (l Latencies) Percentile(p float64) (Stat, bool) {
	for k, v := range l.Percentiles {
		if samePercentile(k, p) {
			return v, true
		}
	}
	return Stat{}, false
}

// VariantStats is the merged view of one variant over its repetitions.
type VariantStats struct {
	Variant   Variant
	Reps      int
	ActualQPS float64 // median over repetitions
	Requests  int64   // sum over repetitions
	Errors    int64   // sum over repetitions
	Latency   Latencies
}

// Merge folds the runs of one variant into its merged view; ok is false when the variant
// has no runs.
func (s *Summary) Merge(v Variant) (VariantStats, bool) {
	var runs []Run
	for _, r := range s.Runs {
		if r.Variant == v {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return VariantStats{}, false
	}
	out := VariantStats{Variant: v, Reps: len(runs)}
	qps := make([]float64, len(runs))
	for i, r := range runs {
		qps[i] = r.ActualQPS
		out.Requests += r.Requests
		out.Errors += r.Errors
	}
	out.ActualQPS = stats.Median(qps)
	out.Latency = latencies(runs)
	return out, true
}

// latencies computes the Stat of every percentile, avg and max over runs.
func latencies(runs []Run) Latencies {
	out := Latencies{Percentiles: map[float64]Stat{}}
	// Every percentile any run reports; a percentile missing from some runs uses the others.
	var ps []float64
	for _, r := range runs {
		for _, pc := range r.Percentiles {
			if !slices.ContainsFunc(ps, func(p float64) bool { return samePercentile(p, pc.P) }) {
				ps = append(ps, pc.P)
			}
		}
	}
	for _, p := range ps {
		var vals []time.Duration
		for _, r := range runs {
			if v, ok := r.Latency(p); ok {
				vals = append(vals, v)
			}
		}
		out.Percentiles[p] = stat(vals)
	}
	avgs, maxes := make([]time.Duration, len(runs)), make([]time.Duration, len(runs))
	for i, r := range runs {
		avgs[i], maxes[i] = us(r.AvgUs), us(r.MaxUs)
	}
	out.Avg, out.Max = stat(avgs), stat(maxes)
	return out
}

func stat(vals []time.Duration) Stat {
	if len(vals) == 0 {
		return Stat{}
	}
	return Stat{Median: stats.Median(vals), Min: slices.Min(vals), Max: slices.Max(vals)}
}

func us(v int64) time.Duration { return time.Duration(v) * time.Microsecond }

// Micros converts fortio's seconds to whole microseconds.
func Micros(seconds float64) int64 { return int64(math.Round(seconds * 1e6)) }
