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
)

// BlockLength is the time span of one block of a run: requests whose slots fall in one
// second share their fate (a burst, a throttled CPU period, a GC pause), so the interval's
// bootstrap resamples whole blocks, never single requests.
const BlockLength = time.Second

// Recorded is one run's measurements, in microseconds.
type Recorded struct {
	// Latency of each request from the slot it was due in to its completion: what a client
	// sending at the requested rate would see (the headline).
	Latency *hdrhistogram.Histogram
	// Service of each request from its actual send to its completion (fortio's own figure).
	Service *hdrhistogram.Histogram
	// Lag of each send behind its slot: how far the load tester fell behind its schedule.
	Lag *hdrhistogram.Histogram
	// Blocks holds Latency per BlockLength of slots, in time order.
	Blocks []Counts
}

// NewRecorded returns an empty recording.
func NewRecorded() *Recorded {
	return &Recorded{Latency: NewHistogram(), Service: NewHistogram(), Lag: NewHistogram()}
}

// Merge adds another recording of the same run (another load-tester pod's share): the
// histograms merge exactly and block k of both (the same second, the pods start each phase
// together) becomes one block.
func (r *Recorded) Merge(o *Recorded) {
	r.Latency.Merge(o.Latency)
	r.Service.Merge(o.Service)
	r.Lag.Merge(o.Lag)
	for k, b := range o.Blocks {
		if k < len(r.Blocks) {
			r.Blocks[k] = r.Blocks[k].plus(b)
		} else {
			r.Blocks = append(r.Blocks, b)
		}
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
