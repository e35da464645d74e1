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
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// Key names one measured run: a variant and a repetition.
type Key struct {
	Variant result.Variant
	Rep     int
}

// Summarize completes sum from the recordings of its runs: each run's latency percentiles,
// avg and max (from the slots requests were due in) and its send lag; each variant's
// latency, service time and send lag over all its repetitions, from the merged histograms;
// the latency Dapr adds over the baseline with its interval, from the repetitions that
// measured both; and each further sidecar variant's comparisons. Runs without a recording
// keep what they hold.
func Summarize(sum *result.Summary, recs map[Key]*Recorded, percentiles []float64) {
	sum.Digits = result.SignificantDigits
	for i := range sum.Runs {
		r := &sum.Runs[i]
		rec := recs[Key{r.Variant, r.Rep}]
		if rec == nil || rec.Latency.TotalCount() == 0 {
			continue
		}
		r.Percentiles, r.AvgUs, r.MaxUs = describe(rec.Latency, percentiles)
		r.LagP99Us = rec.Lag.ValueAtPercentile(99)
		if rec.TesterLag != nil {
			r.TesterLagP99Us = rec.TesterLag.ValueAtPercentile(99)
		}
	}
	order, merged := MergeByVariant(sum.Runs, recs)
	sum.Merged = nil
	for _, v := range order {
		m := result.Merged{Variant: v}
		m.Percentiles, m.AvgUs, m.MaxUs = describe(merged[v].Latency, percentiles)
		m.Service.Percentiles, m.Service.AvgUs, m.Service.MaxUs = describe(merged[v].Service, percentiles)
		m.Lag.Percentiles, m.Lag.AvgUs, m.Lag.MaxUs = describe(merged[v].Lag, percentiles)
		if merged[v].TesterLag.TotalCount() > 0 {
			m.TesterLag.Percentiles, m.TesterLag.AvgUs, m.TesterLag.MaxUs = describe(merged[v].TesterLag, percentiles)
		}
		sum.Merged = append(sum.Merged, m)
	}
	sum.Added = added(sum.Runs, recs, percentiles, result.Dapr, result.Baseline)
	sum.Compared = comparisons(sum.Runs, recs, percentiles)
	sum.Attribution = attribution(sum.Runs, recs, percentiles)
}

// MergeByVariant merges each variant's recordings over its runs (repetitions), in the
// order the runs list the variants; runs without a recording are left out.
func MergeByVariant(runs []result.Run, recs map[Key]*Recorded) ([]result.Variant, map[result.Variant]*Recorded) {
	merged := map[result.Variant]*Recorded{}
	var order []result.Variant
	for _, r := range runs {
		rec := recs[Key{r.Variant, r.Rep}]
		if rec == nil || rec.Latency.TotalCount() == 0 {
			continue
		}
		if merged[r.Variant] == nil {
			merged[r.Variant] = NewRecorded()
			order = append(order, r.Variant)
		}
		merged[r.Variant].Merge(&Recorded{Latency: rec.Latency, Service: rec.Service, Lag: rec.Lag,
			TesterLag: rec.TesterLag, Failed: rec.Failed})
	}
	return order, merged
}

// HistogramsOf is every variant's merged latency and service time, encoded for the report.
func HistogramsOf(runs []result.Run, recs map[Key]*Recorded) (result.Histograms, error) {
	var h result.Histograms
	order, merged := MergeByVariant(runs, recs)
	for _, v := range order {
		lat, err := result.EncodeHistogram(merged[v].Latency)
		if err != nil {
			return h, err
		}
		svc, err := result.EncodeHistogram(merged[v].Service)
		if err != nil {
			return h, err
		}
		h.Paths = append(h.Paths, result.PathHistograms{Variant: v, Latency: lat, Service: svc})
	}
	return h, nil
}

func describe(h *hdrhistogram.Histogram, percentiles []float64) (ps []result.Percentile, avgUs, maxUs int64) {
	for _, p := range percentiles {
		ps = append(ps, result.Percentile{P: p, Us: h.ValueAtPercentile(p)})
	}
	return ps, int64(math.Round(h.Mean())), h.Max()
}

// added pairs the repetitions that measured both paths and estimates the difference v −
// against; nil without such a repetition.
func added(runs []result.Run, recs map[Key]*Recorded, percentiles []float64, v, against result.Variant) *result.Added {
	var reps []int
	for _, r := range runs {
		if r.Variant == v && recs[Key{against, r.Rep}] != nil && recs[Key{v, r.Rep}] != nil {
			reps = append(reps, r.Rep)
		}
	}
	slices.Sort(reps)
	var pairs []Pair
	for _, rep := range slices.Compact(reps) {
		pairs = append(pairs, Pair{Baseline: recs[Key{against, rep}], Dapr: recs[Key{v, rep}]})
	}
	a, ok := EstimateAdded(pairs, percentiles, DefaultResamples, DefaultConfidence)
	if !ok {
		return nil
	}
	return encoded(a)
}

// encoded is an estimate in the summary's form.
func encoded(a Added) *result.Added {
	out := &result.Added{Confidence: a.Confidence, Resamples: a.Resamples, Reps: a.Reps, Avg: a.Avg}
	for i, p := range a.Percentiles {
		out.Percentiles = append(out.Percentiles, result.AddedPercentile{P: p, Interval: a.Estimates[i]})
	}
	return out
}

// comparisons estimates, for every further sidecar variant, what it adds over the baseline
// and its difference from the first variant.
func comparisons(runs []result.Run, recs map[Key]*Recorded, percentiles []float64) []result.Comparison {
	var out []result.Comparison
	for i := 1; ; i++ {
		v := result.DaprVariant(i)
		if !slices.ContainsFunc(runs, func(r result.Run) bool { return r.Variant == v }) {
			return out
		}
		for _, against := range []result.Variant{result.Baseline, result.Dapr} {
			if a := added(runs, recs, percentiles, v, against); a != nil {
				out = append(out, result.Comparison{Variant: v, Against: against, Added: *a})
			}
		}
	}
}
