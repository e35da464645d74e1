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

// Package latency records every request exactly through fortio's per-request hook — its
// latency from the slot it was due in (the headline), its service time from its actual send,
// and the load tester's send lag — and estimates the latency Dapr adds with an interval that
// holds across repetitions.
package latency

import (
	"context"
	"sync"
	"time"

	"fortio.org/fortio/periodic"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// SignificantDigits of every recorded latency: a recorded value is within 0.1% of the
// request's latency (exact to the microsecond up to 2.048 ms, 2 µs steps up to 4.096 ms, ...).
const SignificantDigits = 3

// Latencies are recorded in whole microseconds from 1 µs to highestMicros (longer requests
// are recorded as highestMicros: no request timeout daprbench allows is that long).
const highestMicros = int64(10 * time.Minute / time.Microsecond)

// NewHistogram returns an empty histogram of daprbench's geometry; histograms of one
// geometry merge exactly.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, highestMicros, SignificantDigits)
}

// Recorder is a fortio AccessLogger that keeps every request's slot index, actual send time
// and service time, per fortio thread: each thread reports only from its own goroutine, so
// recording takes no lock. Finish turns them into histograms once the run's schedule is
// known (fortio's start time is only in its result).
type Recorder struct {
	threads [][]sample
	// spill takes reports from thread ids beyond those expected (fortio only ever lowers
	// the thread count, so this is a guard, not a path).
	mu    sync.Mutex
	spill []sample
}

// sample is one request: its slot on its thread, when it was sent and how long it took.
type sample struct {
	thread int32
	slot   int64
	sent   int64 // Unix ns
	took   time.Duration
}

var _ periodic.AccessLogger = (*Recorder)(nil)

// NewRecorder returns a recorder for a fortio run of the given number of threads.
func NewRecorder(threads int) *Recorder {
	return &Recorder{threads: make([][]sample, max(threads, 1))}
}

// Start is fortio's hook before each request; nothing to do.
func (r *Recorder) Start(ctx context.Context, _ periodic.ThreadID, _ int64, _ time.Time) context.Context {
	return ctx
}

// Report keeps one request (errors included, as fortio's own histogram counts them): i is
// its slot on the thread, sent its actual send time, took its service time in seconds.
func (r *Recorder) Report(_ context.Context, id periodic.ThreadID, i int64, sent time.Time, took float64, _ bool, _ string) {
	s := sample{thread: int32(id), slot: i, sent: sent.UnixNano(), took: time.Duration(took * float64(time.Second))}
	if int(id) >= 0 && int(id) < len(r.threads) {
		r.threads[id] = append(r.threads[id], s)
		return
	}
	r.mu.Lock()
	r.spill = append(r.spill, s)
	r.mu.Unlock()
}

// Info names the hook in fortio's log.
func (r *Recorder) Info() string { return "daprbench HDR histograms" }

// Finish returns the run's recording against its schedule; call it after the run.
func (r *Recorder) Finish(s Schedule) *Recorded {
	out := NewRecorded()
	blocks := map[int]map[int64]int64{}
	record := func(x sample) {
		service := micros(x.took)
		var lag int64
		block := 0
		if s.Paced() {
			due := s.Intended(int(x.thread), x.slot)
			// A send can only be late: time.After never fires early. Clamp the clock's jitter.
			lag = max(micros(time.Duration(x.sent-due.UnixNano())), 0)
			block = int(due.Sub(s.Start) / BlockLength)
		}
		latency := min(service+lag, highestMicros)
		_ = out.Latency.RecordValue(latency) // in range by construction
		_ = out.Service.RecordValue(service)
		_ = out.Lag.RecordValue(min(lag, highestMicros))
		if blocks[block] == nil {
			blocks[block] = map[int64]int64{}
		}
		blocks[block][Equivalent(latency)]++
	}
	for _, t := range r.threads {
		for _, x := range t {
			record(x)
		}
	}
	for _, x := range r.spill {
		record(x)
	}
	out.Blocks = countsOfBlocks(blocks)
	return out
}

// micros rounds to whole microseconds within the histograms' range (a lag may be 0).
func micros(d time.Duration) int64 {
	return min(max(d.Round(time.Microsecond).Microseconds(), 0), highestMicros)
}
