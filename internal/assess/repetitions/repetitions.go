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

// Package repetitions says how a variant's repetitions agree: the median of each figure
// and its range. It reads the load tester's summary; the summary itself (internal/contract/result)
// is only the load tester ↔ controller contract.
package repetitions

import (
	"slices"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// Stat is the median, lowest and highest of one figure over repetitions. (A variant's
// latency over all its requests is result.Summary.Merged, from the merged histograms.)
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
		if result.SamePercentile(k, p) {
			return v, true
		}
	}
	return Stat{}, false
}

// Spread is one variant's repetitions side by side: the median rate, the totals, and
// each latency figure's median, lowest and highest.
type Spread struct {
	Variant   result.Variant
	Reps      int
	ActualQPS float64 // median over repetitions
	Requests  int64   // sum over repetitions
	Errors    int64   // sum over repetitions
	Latency   Latencies
}

// Of is the spread of variant v's repetitions in sum; ok is false when v has no runs.
func Of(sum *result.Summary, v result.Variant) (Spread, bool) {
	var runs []result.Run
	for _, r := range sum.Runs {
		if r.Variant == v {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return Spread{}, false
	}
	out := Spread{Variant: v, Reps: len(runs)}
	qps := make([]float64, len(runs))
	for i, r := range runs {
		qps[i] = r.ActualQPS
		out.Requests += r.Requests
		out.Errors += r.Errors
	}
	out.ActualQPS = Median(qps)
	out.Latency = latencies(runs)
	return out, true
}

// latencies computes the Stat of every percentile, avg and max over runs.
func latencies(runs []result.Run) Latencies {
	out := Latencies{Percentiles: map[float64]Stat{}}
	// Every percentile any run reports; a percentile missing from some runs uses the others.
	var ps []float64
	for _, r := range runs {
		for _, pc := range r.Percentiles {
			if !slices.ContainsFunc(ps, func(p float64) bool { return result.SamePercentile(p, pc.P) }) {
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
	return Stat{Median: Median(vals), Min: slices.Min(vals), Max: slices.Max(vals)}
}

func us(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
