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
	"maps"
	"math/bits"
	"slices"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// BlockLength is the time span of one block of a run: requests whose slots fall in one
// second share their fate (a burst, a throttled CPU period, a GC pause), so the interval's
// bootstrap resamples whole blocks, never single requests.
const BlockLength = time.Second

// Recorded is one run's measurements, in microseconds.
type Recorded struct {
	// Latency of each successful request from the slot it was due in to its completion,
	// nothing taken off: what a client sending at the requested rate would see (the
	// headline), the waits behind a connection's previous request and the load tester's own
	// lateness (TesterLag, judged apart) included.
	// Slots never sent by the end of the run are in it too, at the least they waited.
	Latency *hdrhistogram.Histogram
	// Service of each successful request from its actual send to its completion (fortio's
	// own figure).
	Service *hdrhistogram.Histogram
	// Lag of each successful send behind its slot: the tester's own lag plus the wait for
	// the connection's previous request (a stalled path makes the next sends late).
	Lag *hdrhistogram.Histogram
	// TesterLag of every send behind max(its slot, the previous completion on its
	// connection): how late the load tester itself was, apart from any wait on the path.
	TesterLag *hdrhistogram.Histogram
	// Failed holds the latency of the requests that failed, apart from the successes'.
	Failed *hdrhistogram.Histogram
	// Blocks holds Latency per BlockLength of slots, in time order.
	Blocks []Counts
	// FailedBlocks counts the failed requests per BlockLength of slots, like Blocks (its own
	// length: a second with no failure at the end is left off). With Blocks, it is the run's
	// per-second timeline a fault run is judged by.
	FailedBlocks []int64
	// Tally counts the run's slots: scheduled, sent, failed, never sent.
	Tally Tally
}

// Tally accounts for every slot of a run's schedule.
type Tally struct {
	// Scheduled is the number of slots fortio's schedule had (its sends for an unpaced run).
	Scheduled int64
	// Sent is the number of requests sent; Failed of them failed.
	Sent, Failed int64
	// Unsent is the number of slots never sent: fortio stops sending at the end time.
	Unsent int64
}

// Plus adds another pod's tally of the same run.
func (t Tally) Plus(o Tally) Tally {
	return Tally{Scheduled: t.Scheduled + o.Scheduled, Sent: t.Sent + o.Sent, Failed: t.Failed + o.Failed, Unsent: t.Unsent + o.Unsent}
}

// NewRecorded returns an empty recording.
func NewRecorded() *Recorded {
	return &Recorded{Latency: result.NewHistogram(), Service: result.NewHistogram(), Lag: result.NewHistogram(),
		TesterLag: result.NewHistogram(), Failed: result.NewHistogram()}
}

// Merge adds another recording of the same run (another load-tester pod's share): the
// histograms merge exactly and block k of both (the same second, the pods start each phase
// together) becomes one block.
func (r *Recorded) Merge(o *Recorded) {
	r.Latency.Merge(o.Latency)
	r.Service.Merge(o.Service)
	r.Lag.Merge(o.Lag)
	if o.TesterLag != nil {
		r.TesterLag.Merge(o.TesterLag)
	}
	if o.Failed != nil {
		r.Failed.Merge(o.Failed)
	}
	r.Tally = r.Tally.Plus(o.Tally)
	for k, b := range o.Blocks {
		if k < len(r.Blocks) {
			r.Blocks[k] = r.Blocks[k].plus(b)
		} else {
			r.Blocks = append(r.Blocks, b)
		}
	}
	for k, n := range o.FailedBlocks {
		if k < len(r.FailedBlocks) {
			r.FailedBlocks[k] += n
		} else {
			r.FailedBlocks = append(r.FailedBlocks, n)
		}
	}
}

// Append adds a later recording of the same path and repetition (the second half of a
// repetition measured in two): histograms merge, its blocks follow this one's (they are
// other seconds), and its failed counts follow from the same second as its blocks.
func (r *Recorded) Append(o *Recorded) {
	blocks, failed := r.Blocks, r.FailedBlocks
	r.Merge(&Recorded{Latency: o.Latency, Service: o.Service, Lag: o.Lag, TesterLag: o.TesterLag, Failed: o.Failed, Tally: o.Tally})
	r.Blocks = append(blocks, o.Blocks...)
	if len(o.FailedBlocks) > 0 {
		pad := max(len(blocks), len(failed))
		failed = append(failed, make([]int64, pad-len(failed))...)
		r.FailedBlocks = append(failed, o.FailedBlocks...)
	} else {
		r.FailedBlocks = failed
	}
}

// Counts is a compact histogram: ascending HDR-equivalent values (see Equivalent) and how
// many requests had each.
type Counts struct {
	Values []int64 `json:"v"`
	Counts []int64 `json:"c"`
}

// Total is the number of requests counted.
func (c Counts) Total() int64 {
	var n int64
	for _, x := range c.Counts {
		n += x
	}
	return n
}

// Histogram is c as a histogram of result's geometry (its values came from one).
func (c Counts) Histogram() *hdrhistogram.Histogram {
	h := result.NewHistogram()
	for i, v := range c.Values {
		_ = h.RecordValues(v, c.Counts[i])
	}
	return h
}

// Windows sums blocks width at a time: window k holds blocks [k·width, (k+1)·width), the
// last one what is left, and failed (one count a block, as FailedBlocks) the same way (nil
// for a part without a failure); width under 1 reads as 1.
func Windows(blocks []Counts, failed []int64, width int) (lat []Counts, failedPerWindow []int64) {
	width = max(width, 1)
	for from := 0; from < len(blocks); from += width {
		var w Counts
		for _, b := range blocks[from:min(from+width, len(blocks))] {
			w = w.plus(b)
		}
		lat = append(lat, w)
	}
	for k, n := range failed {
		for len(failedPerWindow) <= k/width {
			failedPerWindow = append(failedPerWindow, 0)
		}
		failedPerWindow[k/width] += n
	}
	return lat, failedPerWindow
}

// Parts cuts a recording joined by Append back into its parts, given each part's own
// count of blocks and of failed counts (as it was before the join): the blocks and failed
// counts of each, in order. The last part takes whatever is left.
func (r *Recorded) Parts(sizes [][2]int) (blocks [][]Counts, failed [][]int64) {
	b, f := 0, 0
	for i, size := range sizes {
		bTo, fTo := min(b+size[0], len(r.Blocks)), min(f+max(size[0], size[1]), len(r.FailedBlocks))
		if i == len(sizes)-1 {
			bTo, fTo = len(r.Blocks), len(r.FailedBlocks)
		}
		blocks, failed = append(blocks, r.Blocks[b:bTo]), append(failed, r.FailedBlocks[f:fTo])
		// Append pads the failed counts to the blocks before the next part's.
		b, f = bTo, fTo
	}
	return blocks, failed
}

func (c Counts) plus(o Counts) Counts {
	m := map[int64]int64{}
	for i, v := range c.Values {
		m[v] += c.Counts[i]
	}
	for i, v := range o.Values {
		m[v] += o.Counts[i]
	}
	return countsOf(m)
}

func countsOf(m map[int64]int64) Counts {
	out := Counts{Values: slices.Sorted(maps.Keys(m))}
	for _, v := range out.Values {
		out.Counts = append(out.Counts, m[v])
	}
	return out
}

// countsOfBlocks orders blocks by index; a second without a slot (none can be, while the
// run is paced) is an empty block.
func countsOfBlocks(blocks map[int]map[int64]int64) []Counts {
	if len(blocks) == 0 {
		return nil
	}
	out := make([]Counts, slices.Max(slices.Collect(maps.Keys(blocks)))+1)
	for k, m := range blocks {
		if k >= 0 {
			out[k] = countsOf(m)
		}
	}
	return out
}

// failedOfBlocks orders failed counts by block, as countsOfBlocks does latencies.
func failedOfBlocks(failed map[int]int64) []int64 {
	if len(failed) == 0 {
		return nil
	}
	out := make([]int64, slices.Max(slices.Collect(maps.Keys(failed)))+1)
	for k, n := range failed {
		if k >= 0 {
			out[k] = n
		}
	}
	return out
}

// Equivalent is the highest value an HDR histogram of daprbench's geometry counts v as
// (the value its Distribution reports): exact below 2048 µs, then 3 significant binary
// digits past 11 bits (steps of 2, 4, 8 … µs).
func Equivalent(v int64) int64 {
	if v < 2048 {
		return max(v, 0)
	}
	shift := bits.Len64(uint64(v)) - 11
	step := int64(1) << shift
	return v&^(step-1) + step - 1
}
