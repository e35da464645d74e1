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
	"slices"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// Delivery is one message's trip, on one clock: the publisher and the subscriber are one
// process (the load tester subscribes to what it publishes), so no two clocks need agree.
type Delivery struct {
	// Due is when the message's publish was due (its slot), as an offset on the process's
	// monotonic clock; Received when its subscriber first had it, on the same clock.
	Due, Received time.Duration
}

// RecordDeliveries is one phase's publish-to-delivery latency: each message from the slot
// its publish was due in to its first delivery, nothing taken off, in one-second blocks by
// due time from start (the phase's first slot), as request latency is blocked, so the same
// bootstrap gives the delivery figures their intervals.
func RecordDeliveries(start time.Duration, ds []Delivery) *Recorded {
	out := NewRecorded()
	blocks := map[int]map[int64]int64{}
	for _, d := range ds {
		us := min(max(micros(d.Received-d.Due), 0), result.HighestMicros)
		_ = out.Latency.RecordValue(us)
		b := max(int((d.Due-start)/BlockLength), 0)
		if blocks[b] == nil {
			blocks[b] = map[int64]int64{}
		}
		blocks[b][Equivalent(us)]++
	}
	out.Tally = Tally{Scheduled: int64(len(ds)), Sent: int64(len(ds))}
	out.Blocks = countsOfBlocks(blocks)
	return out
}

// RecordSpans adds each span (a Workflow activity's dispatch latency) to h, in microseconds.
func RecordSpans(h *hdrhistogram.Histogram, spans []time.Duration) {
	for _, d := range spans {
		_ = h.RecordValue(micros(d))
	}
}

// own is path v's own latency over its repetitions with an interval (EstimateContrast of
// the one path), as wide as its repetitions differ. A latency is never below zero, so neither is an
// interval's low end (repetitions that disagree widely can put point − t·se there). nil
// without a recording.
func own(runs []result.Run, recs map[Key]*Recorded, percentiles []float64, v result.Variant) *result.Added {
	var reps []*Recorded
	seen := map[int]bool{}
	for _, r := range runs {
		if rec := recs[Key{v, r.Rep}]; r.Variant == v && rec != nil && !seen[r.Rep] {
			seen[r.Rep] = true
			reps = append(reps, rec)
		}
	}
	a, ok := EstimateContrast([]Term{{Weight: 1, Reps: reps}}, percentiles, DefaultResamples, DefaultConfidence)
	if !ok {
		return nil
	}
	for i := range a.Estimates {
		a.Estimates[i].LowUs = max(a.Estimates[i].LowUs, 0)
	}
	a.Avg.LowUs = max(a.Avg.LowUs, 0)
	return encoded(a)
}

// SummarizeDelivery is a PubSub run's delivery figures (a Workflow run's completion, a
// Scheduler run's trigger lateness): each path's publish-to-delivery latency over its
// repetitions (merged) with its interval, a Workflow run's activity dispatch latency, what Dapr adds to it over the baseline with its
// interval (the same estimate as the request latency's), and each path's message counts.
// nil without a recording.
func SummarizeDelivery(runs []result.Run, recs map[Key]*Recorded, counts map[Key]result.Messages,
	activities map[Key]*hdrhistogram.Histogram, percentiles []float64) *result.Delivery {
	if len(recs) == 0 && len(counts) == 0 {
		return nil
	}
	out := &result.Delivery{}
	order, merged := MergeByVariant(runs, recs)
	for _, r := range runs {
		if !slices.Contains(order, r.Variant) && counts[Key{r.Variant, r.Rep}] != (result.Messages{}) {
			order = append(order, r.Variant) // messages published, none delivered
		}
	}
	for _, v := range order {
		p := result.DeliveryPath{Variant: v}
		if m := merged[v]; m != nil {
			p.Percentiles, p.AvgUs, p.MaxUs = describe(m.Latency, percentiles)
			p.Interval = own(runs, recs, percentiles, v)
		}
		acts := result.NewHistogram()
		for _, r := range runs {
			if r.Variant == v {
				p.Messages = p.Messages.Plus(counts[Key{r.Variant, r.Rep}])
				if h := activities[Key{r.Variant, r.Rep}]; h != nil {
					acts.Merge(h)
				}
			}
		}
		if acts.TotalCount() > 0 {
			a := &p.Activities
			a.Percentiles, a.AvgUs, a.MaxUs = describe(acts, percentiles)
		}
		out.Paths = append(out.Paths, p)
	}
	out.Added = added(runs, recs, percentiles, result.Dapr, result.Baseline)
	return out
}
