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

// Package latency records every request's latency exactly (an HDR histogram, 3 significant
// digits) through fortio's per-request hook, and estimates the latency Dapr adds with its
// uncertainty (a two-stage bootstrap over repetitions and requests).
package latency

import (
	"context"
	"math"
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

// Recorder is a fortio AccessLogger that records every request's latency, as fortio
// measured it, into a histogram per fortio thread: each thread reports only from its own
// goroutine, so recording takes no lock.
type Recorder struct {
	threads []*hdrhistogram.Histogram
	// spill takes reports from thread ids beyond those expected (fortio only ever lowers
	// the thread count, so this is a guard, not a path).
	mu    sync.Mutex
	spill *hdrhistogram.Histogram
}

var _ periodic.AccessLogger = (*Recorder)(nil)

// NewRecorder returns a recorder for a fortio run of the given number of threads.
func NewRecorder(threads int) *Recorder {
	r := &Recorder{threads: make([]*hdrhistogram.Histogram, max(threads, 1)), spill: NewHistogram()}
	for i := range r.threads {
		r.threads[i] = NewHistogram()
	}
	return r
}

// Start is fortio's hook before each request; nothing to do.
func (r *Recorder) Start(ctx context.Context, _ periodic.ThreadID, _ int64, _ time.Time) context.Context {
	return ctx
}

// Report records one request's latency (seconds, as fortio measured it), errors included,
// as fortio's own histogram does.
func (r *Recorder) Report(_ context.Context, id periodic.ThreadID, _ int64, _ time.Time, latency float64, _ bool, _ string) {
	v := min(max(int64(math.Round(latency*1e6)), 1), highestMicros)
	if int(id) >= 0 && int(id) < len(r.threads) {
		_ = r.threads[id].RecordValue(v) // in range by construction
		return
	}
	r.mu.Lock()
	_ = r.spill.RecordValue(v)
	r.mu.Unlock()
}

// Info names the hook in fortio's log.
func (r *Recorder) Info() string { return "daprbench HDR histogram" }

// Histogram merges the threads' histograms; call it after the run.
func (r *Recorder) Histogram() *hdrhistogram.Histogram {
	h := NewHistogram()
	for _, t := range r.threads {
		h.Merge(t)
	}
	h.Merge(r.spill)
	return h
}
