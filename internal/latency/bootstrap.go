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

	"github.com/daprbench/daprbench/internal/result"
)

// Pair is one repetition's histograms of the two paths measured back to back.
type Pair struct {
	Baseline, Dapr *hdrhistogram.Histogram
}

// Estimate is Dapr's value minus the baseline's, in microseconds, with its interval.
type Estimate = result.Interval

// Added is the latency Dapr adds over the baseline.
type Added struct {
	// Percentiles holds an estimate per requested percentile, in the requested order.
	Percentiles []float64
	Estimates   []Estimate
	Avg         Estimate
	// Confidence of every interval (e.g. 0.95) and the resamples it was estimated from.
	Confidence float64
	Resamples  int
}

// Bootstrap settings: 2000 resamples make a 95% interval's ends stable to well within
// the histograms' precision; the seed makes one input give one answer.
const (
	DefaultResamples  = 2000
	DefaultConfidence = 0.95
	seed              = 0x6461707262656e63 // "daprbenc"
)

// EstimateAdded returns, per percentile, the merged Dapr histogram's value minus the merged
// baseline's (the same statistic status reports for each path), and a percentile-bootstrap
// interval for it. Each resample draws the repetitions with replacement, in pairs (the two
// paths of a repetition share its drift), and then the requests within them: the rank of a
// percentile in a resample of N requests is drawn from its normal approximation,
// N·q ± z·√(N·q·(1−q)), which is the order statistic's own sampling law. Resampling both
// stages is conservative (a slightly wide interval), the safe side for "within noise".
// It returns false when there is no pair.
func EstimateAdded(pairs []Pair, percentiles []float64, resamples int, confidence float64) (Added, bool) {
	if len(pairs) == 0 || resamples < 1 {
		return Added{}, false
	}
	base, dapr := make([]*hdrhistogram.Histogram, len(pairs)), make([]*hdrhistogram.Histogram, len(pairs))
	for i, p := range pairs {
		base[i], dapr[i] = p.Baseline, p.Dapr
	}
	b, d := newPooled(base), newPooled(dapr)
	if b.empty() || d.empty() {
		return Added{}, false
	}
	ones := slices.Repeat([]float64{1}, len(pairs))
	out := Added{Percentiles: slices.Clone(percentiles), Confidence: confidence, Resamples: resamples}
	pointB, pointD := b.quantiles(ones, percentiles, nil), d.quantiles(ones, percentiles, nil)
	diffs := make([][]int64, len(percentiles))
	avgDiffs := make([]int64, 0, resamples)
	rng := rand.New(rand.NewPCG(seed, uint64(len(pairs))))
	weights := make([]float64, len(pairs))
	for range resamples {
		clear(weights)
		for range pairs {
			weights[rng.IntN(len(pairs))]++
		}
		qb, qd := b.quantiles(weights, percentiles, rng), d.quantiles(weights, percentiles, rng)
		for i := range percentiles {
			diffs[i] = append(diffs[i], qd[i]-qb[i])
		}
		avgDiffs = append(avgDiffs, int64(math.Round(d.mean(weights, rng)-b.mean(weights, rng))))
	}
	alpha := (1 - confidence) / 2
	for i := range percentiles {
		lo, hi := quantilesOf(diffs[i], alpha)
		out.Estimates = append(out.Estimates, Estimate{Us: pointD[i] - pointB[i], LowUs: lo, HighUs: hi})
	}
	lo, hi := quantilesOf(avgDiffs, alpha)
	out.Avg = Estimate{Us: int64(math.Round(d.mean(ones, nil) - b.mean(ones, nil))), LowUs: lo, HighUs: hi}
	return out, true
}

// quantilesOf returns the alpha and 1-alpha quantiles of samples (nearest rank).
func quantilesOf(samples []int64, alpha float64) (lo, hi int64) {
	s := slices.Clone(samples)
	slices.Sort(s)
	at := func(q float64) int64 {
		i := int(math.Ceil(q*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return at(alpha), at(1 - alpha)
}

// pooled holds one path's repetitions as counts over the union of their recorded values,
// so a weighted merge of repetitions is a weighted sum of rows.
type pooled struct {
	values []int64     // every value any repetition recorded (highest equivalent), ascending
	counts [][]float64 // per repetition, count at each value
	total  []float64   // per repetition, requests
	sum    []float64   // per repetition, Σ value
	sumSq  []float64   // per repetition, Σ value²
	cum    []float64   // scratch
}

func newPooled(hs []*hdrhistogram.Histogram) *pooled {
	col := map[int64]int{}
	bars := make([][]hdrhistogram.Bar, len(hs))
	for i, h := range hs {
		for _, bar := range h.Distribution() {
			if bar.Count > 0 {
				bars[i] = append(bars[i], bar)
				col[bar.To] = 0
			}
		}
	}
	p := &pooled{}
	for v := range col {
		p.values = append(p.values, v)
	}
	slices.Sort(p.values)
	for i, v := range p.values {
		col[v] = i
	}
	p.cum = make([]float64, len(p.values))
	for i := range hs {
		row := make([]float64, len(p.values))
		var n, s, s2 float64
		for _, bar := range bars[i] {
			c, v := float64(bar.Count), float64(bar.To)
			row[col[bar.To]] = c
			n, s, s2 = n+c, s+c*v, s2+c*v*v
		}
		p.counts, p.total, p.sum, p.sumSq = append(p.counts, row), append(p.total, n), append(p.sum, s), append(p.sumSq, s2)
	}
	return p
}

func (p *pooled) empty() bool { return len(p.values) == 0 }

// quantiles returns the value at each percentile of the weighted merge of repetitions, as
// an HDR histogram reports it (nearest rank, highest equivalent value). With rng, each
// percentile's rank is drawn from its sampling law (the within-repetition bootstrap stage).
func (p *pooled) quantiles(weights, percentiles []float64, rng *rand.Rand) []int64 {
	var acc float64
	for i := range p.values {
		var c float64
		for r, w := range weights {
			if w != 0 {
				c += w * p.counts[r][i]
			}
		}
		acc += c
		p.cum[i] = acc
	}
	n := acc
	out := make([]int64, len(percentiles))
	for i, pct := range percentiles {
		q := pct / 100
		rank := q*n + 0.5
		if rng != nil {
			rank += rng.NormFloat64() * math.Sqrt(n*q*(1-q))
		}
		rank = math.Min(math.Max(math.Floor(rank), 1), n)
		j := sort.SearchFloat64s(p.cum, rank)
		out[i] = p.values[min(j, len(p.values)-1)]
	}
	return out
}

// mean returns the weighted merge's mean; with rng, plus a draw of its sampling error.
func (p *pooled) mean(weights []float64, rng *rand.Rand) float64 {
	var n, s, s2 float64
	for r, w := range weights {
		n, s, s2 = n+w*p.total[r], s+w*p.sum[r], s2+w*p.sumSq[r]
	}
	m := s / n
	if rng != nil {
		variance := math.Max(s2/n-m*m, 0)
		m += rng.NormFloat64() * math.Sqrt(variance/n)
	}
	return m
}
