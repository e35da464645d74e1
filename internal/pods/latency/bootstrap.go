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
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// Pair is one repetition's recordings of the two paths measured in it.
type Pair struct {
	Baseline, Dapr *Recorded
}

// Estimate is Dapr's value minus the baseline's, in microseconds, with its interval.
type Estimate = result.Interval

// Added is the latency Dapr adds over the baseline.
type Added struct {
	// Percentiles holds an estimate per requested percentile, in the requested order.
	Percentiles []float64
	Estimates   []Estimate
	Avg         Estimate
	// Confidence of every interval (e.g. 0.95) and the block-bootstrap resamples behind it.
	Confidence float64
	Resamples  int
	// Reps is the number of paired repetitions; with one the interval is within-run only.
	Reps int
}

// Bootstrap settings: 1000 resamples estimate a within-run spread to a few percent; the
// seed makes one input give one answer.
const (
	DefaultResamples  = 1000
	DefaultConfidence = 0.95
	seed              = 0x6461707262656e63 // "daprbenc"
)

// EstimateAdded returns, per percentile, the merged Dapr latency minus the merged baseline's
// (the figures status reports for each path), with an interval that holds across runs: the
// contrast Dapr − baseline of EstimateContrast. It returns false without a pair.
func EstimateAdded(pairs []Pair, percentiles []float64, resamples int, confidence float64) (Added, bool) {
	var base, dapr []*Recorded
	for _, p := range pairs {
		base, dapr = append(base, p.Baseline), append(dapr, p.Dapr)
	}
	// The baseline is resampled first, as it always was: one input keeps giving one answer.
	return EstimateContrast([]Term{{Weight: -1, Reps: base}, {Weight: 1, Reps: dapr}}, percentiles, resamples, confidence)
}

// Term is one path's recording in every repetition (the same repetitions for every term of
// a contrast) and its weight in the contrast.
type Term struct {
	Weight float64
	Reps   []*Recorded
}

// EstimateContrast returns, per percentile, Σ weight·(the path's merged latency at that
// percentile) — a path's own latency (one term of weight 1), what Dapr adds (Dapr − baseline)
// or the interaction of two sidecars (both − client only − server only + direct) — with an
// interval that holds across runs:
//
//   - Between repetitions: each repetition's own contrast c_r; their spread s is what a
//     rerun would see (a run's drift, its placement of GC and throttled periods), so with
//     R ≥ 2 repetitions the interval is point ± t(R−1)·se with se² = max(s²/R, w²).
//   - Within runs: w is the spread of the statistic when every run's one-second blocks are
//     resampled with replacement (a block bootstrap), each path's independently: requests
//     within a second share their fate, so single requests are never treated as
//     independent. It guards the case where R is small and the repetitions happen to agree
//     by chance.
//
// With one repetition only the within-run spread exists: the interval is the block
// bootstrap's percentile interval, and Reps = 1 says so. It returns false without a
// repetition, with terms of unequal repetitions, or with a path that recorded nothing.
func EstimateContrast(terms []Term, percentiles []float64, resamples int, confidence float64) (Added, bool) {
	if len(terms) == 0 || resamples < 2 {
		return Added{}, false
	}
	reps := len(terms[0].Reps)
	sets := make([]*blockSet, len(terms))
	for i, t := range terms {
		if len(t.Reps) != reps || reps == 0 {
			return Added{}, false
		}
		if sets[i] = newBlockSet(t.Reps); sets[i].empty() {
			return Added{}, false
		}
	}
	out := Added{Percentiles: slices.Clone(percentiles), Confidence: confidence, Resamples: resamples, Reps: reps}
	// combine weighs each path's statistic into the contrast.
	combine := func(stat func(i int) []float64) []float64 {
		sum := make([]float64, len(percentiles)+1)
		for i, t := range terms {
			for k, v := range stat(i) {
				sum[k] += t.Weight * v
			}
		}
		return sum
	}
	// statOf is a path's quantiles and, last, its mean, under the blocks' weights.
	statOf := func(s *blockSet, weights []float64) []float64 {
		var out []float64
		for _, q := range s.quantiles(weights, percentiles) {
			out = append(out, float64(q))
		}
		return append(out, s.mean(weights))
	}
	point := combine(func(i int) []float64 { return statOf(sets[i], sets[i].all()) })

	// Within runs: the block bootstrap.
	rng := rand.New(rand.NewPCG(seed, uint64(reps)))
	within := make([][]float64, len(percentiles)+1)
	for range resamples {
		weights := make([][]float64, len(sets))
		for i, s := range sets {
			weights[i] = s.resample(rng)
		}
		for k, v := range combine(func(i int) []float64 { return statOf(sets[i], weights[i]) }) {
			within[k] = append(within[k], v)
		}
	}
	// Between repetitions: each repetition's own contrast.
	between := make([][]float64, len(percentiles)+1)
	for r := range reps {
		c := combine(func(i int) []float64 {
			rec := terms[i].Reps[r]
			var out []float64
			for _, p := range percentiles {
				out = append(out, float64(rec.Latency.ValueAtPercentile(p)))
			}
			return append(out, rec.Latency.Mean())
		})
		for k, v := range c {
			between[k] = append(between[k], v)
		}
	}
	interval := func(point float64, within []float64, reps []float64) Estimate {
		est := Estimate{Us: int64(math.Round(point))}
		if len(reps) < 2 {
			lo, hi := quantilesOf(within, (1-confidence)/2)
			est.LowUs, est.HighUs = int64(math.Round(lo)), int64(math.Round(hi))
			return est
		}
		_, wsd := meanSD(within)
		_, rsd := meanSD(reps)
		se := math.Sqrt(math.Max(rsd*rsd/float64(len(reps)), wsd*wsd))
		half := stats.StudentT(1-(1-confidence)/2, len(reps)-1) * se
		est.LowUs, est.HighUs = int64(math.Floor(point-half)), int64(math.Ceil(point+half))
		return est
	}
	for k := range percentiles {
		out.Estimates = append(out.Estimates, interval(point[k], within[k], between[k]))
	}
	avg := len(percentiles)
	out.Avg = interval(point[avg], within[avg], between[avg])
	return out, true
}

// quantilesOf returns the alpha and 1-alpha quantiles of samples (nearest rank).
func quantilesOf(samples []float64, alpha float64) (lo, hi float64) {
	s := slices.Clone(samples)
	slices.Sort(s)
	at := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return at(alpha), at(1 - alpha)
}

func meanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// blockSet holds one path's blocks, of every repetition, as sparse rows over the union of
// their values, so a weighted merge of blocks is a weighted sum of rows.
type blockSet struct {
	values []int64   // every value any block holds, ascending
	rows   []row     // one per non-empty block
	runs   [][]int   // per repetition, its rows
	acc    []float64 // scratch: weighted count per value
}

type row struct {
	index  []int32 // into values
	counts []float64
	n, sum float64
}

func newBlockSet(recs []*Recorded) *blockSet {
	col := map[int64]int{}
	for _, r := range recs {
		for _, b := range blocksOf(r) {
			for _, v := range b.Values {
				col[v] = 0
			}
		}
	}
	s := &blockSet{}
	for v := range col {
		s.values = append(s.values, v)
	}
	slices.Sort(s.values)
	for i, v := range s.values {
		col[v] = i
	}
	s.acc = make([]float64, len(s.values))
	for _, r := range recs {
		var run []int
		for _, b := range blocksOf(r) {
			if b.Total() == 0 {
				continue
			}
			var w row
			for i, v := range b.Values {
				c := float64(b.Counts[i])
				w.index, w.counts = append(w.index, int32(col[v])), append(w.counts, c)
				w.n, w.sum = w.n+c, w.sum+c*float64(v)
			}
			run = append(run, len(s.rows))
			s.rows = append(s.rows, w)
		}
		s.runs = append(s.runs, run)
	}
	return s
}

// blocksOf is a recording's blocks, or its whole latency histogram as one block when it
// has none (a recording made without a schedule).
func blocksOf(r *Recorded) []Counts {
	if len(r.Blocks) > 0 {
		return r.Blocks
	}
	return []Counts{CountsOf(r.Latency)}
}

// CountsOf is a histogram's non-empty buckets as Counts.
func CountsOf(h *hdrhistogram.Histogram) Counts {
	var c Counts
	for _, bar := range h.Distribution() {
		if bar.Count > 0 {
			c.Values, c.Counts = append(c.Values, bar.To), append(c.Counts, bar.Count)
		}
	}
	return c
}

func (s *blockSet) empty() bool { return len(s.rows) == 0 }

// all weighs every block once.
func (s *blockSet) all() []float64 { return slices.Repeat([]float64{1}, len(s.rows)) }

// resample draws, for every repetition, as many of its blocks as it has, with replacement.
func (s *blockSet) resample(rng *rand.Rand) []float64 {
	w := make([]float64, len(s.rows))
	for _, run := range s.runs {
		for range run {
			w[run[rng.IntN(len(run))]]++
		}
	}
	return w
}

// quantiles returns the value at each percentile of the weighted merge of blocks, as an
// HDR histogram reports it (nearest rank, highest equivalent value).
func (s *blockSet) quantiles(weights, percentiles []float64) []int64 {
	clear(s.acc)
	for r, w := range weights {
		if w == 0 {
			continue
		}
		for i, idx := range s.rows[r].index {
			s.acc[idx] += w * s.rows[r].counts[i]
		}
	}
	var n float64
	for i, c := range s.acc {
		n += c
		s.acc[i] = n
	}
	out := make([]int64, len(percentiles))
	for i, pct := range percentiles {
		rank := math.Min(math.Max(math.Floor(pct/100*n+0.5), 1), n)
		j := sort.SearchFloat64s(s.acc, rank)
		out[i] = s.values[min(j, len(s.values)-1)]
	}
	return out
}

// mean returns the weighted merge's mean.
func (s *blockSet) mean(weights []float64) float64 {
	var n, sum float64
	for r, w := range weights {
		n, sum = n+w*s.rows[r].n, sum+w*s.rows[r].sum
	}
	return sum / n
}
