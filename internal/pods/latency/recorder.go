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
// latency from the slot it was due in to its completion (the headline, nothing taken off),
// its service time from its actual send, and the load tester's own lateness as a figure of
// its own — and estimates the latency Dapr adds with an interval over the run's repetitions.
package latency

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"fortio.org/fortio/periodic"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// Recorder is a fortio AccessLogger that keeps every request's slot index, actual send time,
// service time and outcome, per fortio thread: each thread reports only from its own
// goroutine, so recording takes no lock. Finish turns them into histograms once the run's
// schedule is known (fortio's start time is only in its result).
type Recorder struct {
	threads [][]sample
	// pacer, when not nil, holds each request until its slot (see NewPacedRecorder).
	pacer *Pacer
	// base is the recorder's own clock reading: send times are kept as monotonic offsets
	// from it (fortio paces on the monotonic clock; a wall-clock step must not move them).
	base time.Time
	// spill takes reports from thread ids beyond those expected (fortio only ever lowers
	// the thread count, so this is a guard, not a path).
	mu    sync.Mutex
	spill []sample
}

// sample is one request: its slot on its thread, when it was sent, how long it took and
// whether it succeeded.
type sample struct {
	thread int32
	ok     bool
	slot   int64
	sent   time.Duration // monotonic, since Recorder.base
	took   time.Duration
}

var _ periodic.AccessLogger = (*Recorder)(nil)

// NewRecorder returns a recorder for a fortio run of the given number of threads.
func NewRecorder(threads int) *Recorder {
	return &Recorder{threads: make([][]sample, max(threads, 1)), base: time.Now()}
}

// NewPacedRecorder returns a recorder that also paces: its Start hook holds each request
// until the slot plan gives it, on a clock finer than fortio's (see Pacer), so the
// recording's schedule is the pacer's. plan has no Start: the pacer sets it. A wait is cut
// short when stop closes (the run was aborted).
func NewPacedRecorder(plan Schedule, stop <-chan struct{}) *Recorder {
	r := NewRecorder(plan.Threads)
	r.pacer = newPacer(plan, stop)
	return r
}

// Schedule is the schedule the recorder paced requests to (zero without a pacer, or
// before the first request).
func (r *Recorder) Schedule() Schedule {
	if r.pacer == nil {
		return Schedule{}
	}
	return r.pacer.schedule()
}

// Begun is closed once the schedule's start is set (by the first request the pacer held):
// from then on Schedule may be read from any goroutine. Never closed without a pacer.
func (r *Recorder) Begun() <-chan struct{} {
	if r.pacer == nil {
		return nil
	}
	return r.pacer.begun
}

// Close releases the pacer's clocks (Finish does it; call it where a run ends without one).
func (r *Recorder) Close() {
	if r.pacer != nil {
		r.pacer.close()
	}
}

// sentKey carries a paced request's actual send time from Start to Report.
type sentKey struct{}

// Start is fortio's hook before each request: with a pacer, it holds the request until its
// slot and notes when it really went out (fortio's own start time is its wake-up, earlier).
func (r *Recorder) Start(ctx context.Context, id periodic.ThreadID, i int64, _ time.Time) context.Context {
	if r.pacer == nil {
		return ctx
	}
	r.pacer.hold(int(id), i)
	sent := time.Now()
	ctx = context.WithValue(ctx, dueKey{}, r.pacer.schedule().Intended(int(id), i))
	return context.WithValue(ctx, sentKey{}, sent)
}

// dueKey carries a paced request's slot from Start to the call (a message that times its
// own delivery carries it).
type dueKey struct{}

// DueOf is the slot a paced request was due in, as the call sees it; false for a request
// no pacer held (fortio's own pacing, or a warm-up call).
func DueOf(ctx context.Context) (time.Time, bool) {
	due, ok := ctx.Value(dueKey{}).(time.Time)
	return due, ok
}

// Report keeps one request: i is its slot on the thread, sent its actual send time (with
// its monotonic reading), took its service time in seconds, ok whether it succeeded. A
// paced request's send time is the pacer's release, and its service time runs from there.
func (r *Recorder) Report(ctx context.Context, id periodic.ThreadID, i int64, sent time.Time, took float64, ok bool, _ string) {
	tookD := time.Duration(took * float64(time.Second))
	if released, isPaced := ctx.Value(sentKey{}).(time.Time); isPaced {
		sent, tookD = released, time.Since(released)
	}
	s := sample{thread: int32(id), ok: ok, slot: i, sent: sent.Sub(r.base), took: tookD}
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

// Finish returns the run's recording against its schedule; end is when the run ended
// (fortio's start plus its actual duration). Call it after the run.
//
// Every scheduled slot is accounted for. A slot fortio never sent — a connection still
// waiting on a stalled path at the end time, after which fortio stops sending — is recorded
// in Latency as (end − its scheduled send): the least it would have waited, exactly what a
// stall at the end of a run did to it. Sending those slots after the end instead would run
// into the next phase (or the group's barrier); leaving them out would drop up to the slowest
// 1% of a run while it reads clean. They are counted in Tally.Unsent.
func (r *Recorder) Finish(s Schedule, end time.Time) *Recorded {
	r.Close()
	out := NewRecorded()
	blocks, failedBlocks := map[int]map[int64]int64{}, map[int]int64{}
	blockOf := func(due time.Time) int {
		if s.Paced() {
			return int(due.Sub(s.Start) / BlockLength)
		}
		return 0
	}
	block := func(due time.Time, latency int64) {
		b := blockOf(due)
		if blocks[b] == nil {
			blocks[b] = map[int64]int64{}
		}
		blocks[b][Equivalent(latency)]++
	}
	record := func(x sample, prevDone time.Duration, first bool) {
		service := micros(x.took)
		var lag, testerLag int64
		var due time.Time
		if s.Paced() {
			due = s.Intended(int(x.thread), x.slot)
			dueAt := due.Sub(r.base)
			// A send can only be late: neither fortio nor the pacer sends early. Clamp the
			// clock's jitter.
			lag = micros(x.sent - dueAt)
			// The tester's own lag: late beyond both the slot and the connection's previous
			// request (a request cannot go out on its connection before that one completes).
			ready := dueAt
			if !first {
				ready = max(ready, prevDone)
			}
			testerLag = micros(x.sent - ready)
		}
		// From the scheduled send to completion, nothing taken off (as wrk2 and HdrHistogram
		// time it): the wait behind the connection's previous request is the path's
		// (coordinated omission), and so may be a late send's — on a queue-bound path the
		// request would have waited in the queue anyway. The tester's own lateness is kept
		// apart (TesterLag) and judged, never subtracted; the pacer keeps it small.
		latency := min(service+lag, result.HighestMicros)
		_ = out.TesterLag.RecordValue(testerLag) // every sent request: the tester's punctuality
		out.Tally.Sent++
		if !x.ok {
			// A failure is no latency of the path: a fast 503 would pull its percentiles down.
			out.Tally.Failed++
			_ = out.Failed.RecordValue(latency)
			failedBlocks[blockOf(due)]++
			return
		}
		_ = out.Latency.RecordValue(latency) // in range by construction
		_ = out.Service.RecordValue(service)
		_ = out.Lag.RecordValue(lag)
		block(due, latency)
	}
	for _, samples := range r.threads {
		eachOfThread(samples, record)
	}
	spilled := map[int32][]sample{}
	for _, x := range r.spill {
		spilled[x.thread] = append(spilled[x.thread], x)
	}
	for _, samples := range spilled {
		eachOfThread(samples, record)
	}
	out.Tally.Scheduled = out.Tally.Sent
	if s.Paced() {
		r.accountUnsent(s, end, out, block)
	}
	out.Blocks = countsOfBlocks(blocks)
	out.FailedBlocks = failedOfBlocks(failedBlocks)
	return out
}

// eachOfThread calls record for one thread's requests in slot order, each with the
// completion time of the one before it on the connection.
func eachOfThread(samples []sample, record func(x sample, prevDone time.Duration, first bool)) {
	slices.SortFunc(samples, func(a, b sample) int { return cmp.Compare(a.slot, b.slot) })
	var prevDone time.Duration
	for i, x := range samples {
		record(x, prevDone, i == 0)
		prevDone = x.sent + x.took
	}
}

// accountUnsent records each thread's slots after its last sent one, up to the schedule's
// count, as censored latencies (the thread's stop − due); slots due after it (an aborted
// run) are only counted.
//
// A fortio thread gives up on its own, at its first check of the clock after its last
// request completed past the end time, so its stop is that completion (never before the
// end time, never after the run's end): the slowest thread's end would overcharge the others.
func (r *Recorder) accountUnsent(s Schedule, end time.Time, out *Recorded, block func(time.Time, int64)) {
	calls := s.callsPerThread()
	out.Tally.Scheduled = 0
	endTime := s.Start.Add(s.Duration)
	for t := range s.Threads {
		sent, lastDone := int64(0), time.Duration(0)
		if t < len(r.threads) {
			for _, x := range r.threads[t] {
				sent = max(sent, x.slot+1)
				lastDone = max(lastDone, x.sent+x.took)
			}
		}
		out.Tally.Scheduled += max(calls, sent)
		stop := end
		if !end.IsZero() {
			stop = r.base.Add(lastDone)
			if stop.Before(endTime) {
				stop = endTime
			}
			if stop.After(end) {
				stop = end
			}
		}
		for i := sent; i < calls; i++ {
			out.Tally.Unsent++
			due := s.Intended(t, i)
			if stop.IsZero() || !stop.After(due) {
				continue
			}
			waited := micros(stop.Sub(due))
			_ = out.Latency.RecordValue(waited)
			block(due, waited)
		}
	}
}

// micros rounds to whole microseconds within the histograms' range (a lag may be 0).
func micros(d time.Duration) int64 {
	return min(max(d.Round(time.Microsecond).Microseconds(), 0), result.HighestMicros)
}
