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
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"fortio.org/fortio/periodic"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// A stalled request makes the next ones on its connection late: that wait is the path's
// (it is in the latency and the send lag) and none of it is the tester's own lag. A send
// that goes out late while its connection was free is the tester's.
func TestTesterLagIsApartFromTheConnectionsWait(t *testing.T) {
	s := Schedule{Start: time.Now(), QPS: 100, Duration: time.Second, Threads: 1} // a slot every 10 ms
	r := NewRecorder(1)
	ctx := context.Background()
	// Slot 0 takes 100 ms (a stall); slots 1..9 were due meanwhile and go out back to back.
	r.Report(ctx, 0, 0, s.Intended(0, 0), 0.100, true, "")
	done := s.Intended(0, 0).Add(100 * time.Millisecond)
	for i := int64(1); i < 10; i++ {
		r.Report(ctx, 0, i, done, 0.001, true, "")
		done = done.Add(time.Millisecond)
	}
	// Slot 50: the connection was idle, and the tester sent it 12 ms late.
	r.Report(ctx, 0, 50, s.Intended(0, 50).Add(12*time.Millisecond), 0.001, true, "")
	rec := r.Finish(s, time.Time{})
	if got := rec.Lag.Max(); got < 89_000 {
		t.Errorf("send lag max %d µs: the wait behind the stalled request is missing", got)
	}
	if got := rec.TesterLag.ValueAtPercentile(90); got > 100 {
		t.Errorf("tester lag p90 %d µs, want ~0: the sends behind the stall went out as soon as their connection was free", got)
	}
	if got := rec.TesterLag.Max(); got < 11_900 || got > 12_100 {
		t.Errorf("tester lag max %d µs, want the 12 ms the tester itself was late", got)
	}
}

// Failed requests are counted and kept apart: the latency percentiles are the successes'.
func TestFailuresAreKeptApartFromLatency(t *testing.T) {
	s := Schedule{Start: time.Now(), QPS: 1000, Duration: time.Second, Threads: 1}
	r := NewRecorder(1)
	ctx := context.Background()
	for i := range int64(1000) {
		ok, took := i%5 != 0, 0.002
		if !ok {
			took = 0.0001 // a fast 503
		}
		r.Report(ctx, 0, i, s.Intended(0, i), took, ok, "")
	}
	rec := r.Finish(s, s.Start.Add(s.Duration))
	if rec.Tally.Failed != 200 || rec.Failed.TotalCount() != 200 || rec.Latency.TotalCount() != 800 {
		t.Errorf("failed %d (histogram %d), latencies %d; want 200 failures apart from 800 successes",
			rec.Tally.Failed, rec.Failed.TotalCount(), rec.Latency.TotalCount())
	}
	if p1 := rec.Latency.ValueAtPercentile(1); p1 < 1900 {
		t.Errorf("latency p1 %d µs: fast failures pulled the successes' percentiles down", p1)
	}
}

// Slots fortio never sent because a connection was still busy at the end time are
// counted, and recorded at the least they waited: until their thread stopped — its last
// request's completion past the end time — never the slowest thread's end.
func TestSlotsNeverSentAreRecordedAtTheLeastTheyWaited(t *testing.T) {
	s := Schedule{Start: time.Now(), QPS: 200, Duration: time.Second, Threads: 2} // 100 slots a thread, 10.1 ms apart
	r := NewRecorder(2)
	ctx := context.Background()
	endTime := s.Start.Add(s.Duration)
	// Thread 0: slot 89's request hangs until 5 ms past the end time; slots 90..99 never go.
	for i := range int64(89) {
		r.Report(ctx, 0, i, s.Intended(0, i), 0.001, true, "")
	}
	r.Report(ctx, 0, 89, s.Intended(0, 89), endTime.Add(5*time.Millisecond).Sub(s.Intended(0, 89)).Seconds(), true, "")
	// Thread 1: slot 97's request hangs for 3 s (a timeout); slots 98, 99 never go.
	for i := range int64(97) {
		r.Report(ctx, 1, i, s.Intended(1, i), 0.001, true, "")
	}
	r.Report(ctx, 1, 97, s.Intended(1, 97), 3, true, "")
	end := s.Intended(1, 97).Add(3 * time.Second) // the run ends with its slowest thread
	rec := r.Finish(s, end)
	if rec.Tally.Scheduled != 200 || rec.Tally.Sent != 188 || rec.Tally.Unsent != 12 {
		t.Fatalf("tally %+v, want 200 scheduled, 188 sent, 12 never sent", rec.Tally)
	}
	if got := rec.Latency.TotalCount(); got != 200 {
		t.Errorf("%d latencies recorded, want every slot's 200", got)
	}
	// Thread 0's slots 90..99 waited until thread 0 stopped, 5 ms past the end time (at most
	// ~100 ms) — not the 3 s thread 1's hung request kept the run going. Over 200 ms: thread
	// 1's hung request and its two unsent slots only.
	long := int64(0)
	for _, bar := range rec.Latency.Distribution() {
		if bar.From > 200_000 {
			long += bar.Count
		}
	}
	if long != 3 {
		t.Errorf("%d latencies over 200 ms, want 3: thread 0's unsent slots were charged until another thread's end", long)
	}
	want := endTime.Add(5 * time.Millisecond).Sub(s.Intended(0, 90)).Microseconds()
	if got := rec.Latency.ValueAtPercentile(98); got < want-100 || got > want+100 { // the 196th of 200: above it slot 89 and the three
		t.Errorf("the 196th latency %d µs, want thread 0's slot 90 waiting until its thread stopped, %d µs", got, want)
	}
	total := int64(0)
	for _, b := range rec.Blocks {
		total += b.Total()
	}
	if total != 200 {
		t.Errorf("blocks hold %d requests, want 200 (the interval's bootstrap must see the censored slots)", total)
	}
}

// Nothing is taken off a request's latency: on a queue-bound path a request the tester sent
// late would have waited in the queue anyway, its completion is where it would have been,
// and its latency from the slot is the queue's. Subtracting the tester's lateness (as this
// recorder once did) reads the queue's percentiles low — the model shows by how much, so
// this test fails if it comes back.
func TestLatencyIsTheQueuesWithNothingSubtracted(t *testing.T) {
	const threads = 4
	s := Schedule{Start: time.Now(), QPS: 1000, Duration: 2 * time.Second, Threads: threads}
	const service = 900 * time.Microsecond // one server, FIFO: 90% busy at 1000 rps
	type req struct {
		thread int
		slot   int64
		due    time.Time
	}
	var reqs []req
	for th := range threads {
		for i := range s.callsPerThread() {
			reqs = append(reqs, req{th, i, s.Intended(th, i)})
		}
	}
	slices.SortFunc(reqs, func(a, b req) int { return a.due.Compare(b.due) })
	rng := rand.New(rand.NewPCG(3, 5))
	r := NewRecorder(threads)
	truth, subtracted := result.NewHistogram(), result.NewHistogram()
	serverFree, connFree := s.Start, make([]time.Time, threads)
	for _, q := range reqs {
		testerLate := time.Duration(rng.IntN(800)) * time.Microsecond // a late timer, every send
		ready := q.due
		if connFree[q.thread].After(ready) {
			ready = connFree[q.thread]
		}
		sent := ready.Add(testerLate)
		begin := sent
		if serverFree.After(begin) {
			begin = serverFree
		}
		done := begin.Add(service)
		serverFree, connFree[q.thread] = done, done
		r.Report(context.Background(), periodicThread(q.thread), q.slot, sent, done.Sub(sent).Seconds(), true, "")
		_ = truth.RecordValue(done.Sub(q.due).Microseconds())
		_ = subtracted.RecordValue(done.Sub(q.due).Microseconds() - testerLate.Microseconds())
	}
	rec := r.Finish(s, s.Start.Add(s.Duration))
	for _, p := range []float64{50, 90, 99} {
		want, got := truth.ValueAtPercentile(p), rec.Latency.ValueAtPercentile(p)
		if diff := got - want; diff < -2 || diff > 2 {
			t.Errorf("p%v %d µs, want the queue's %d µs", p, got, want)
		}
		// The model must make the difference this test guards: the old, subtracted reading is
		// well below the queue's.
		if old := subtracted.ValueAtPercentile(p); want-old < 200 {
			t.Fatalf("model too gentle: the subtracted p%v %d µs is within 200 µs of the queue's %d µs", p, old, want)
		}
	}
	if rec.TesterLag.Max() == 0 {
		t.Error("the tester's lateness is not kept as a figure of its own")
	}
}

// A tester late by more than one connection's gap on one path saw another load than the
// one asked for: that path is saturated, whatever its latency.
func TestATesterLateByMoreThanAGapSaturatesThePath(t *testing.T) {
	const qps, threads = 1000, 16
	rng := rand.New(rand.NewPCG(7, 7))
	record := func(testerLate time.Duration) *Recorded {
		s := Schedule{Start: time.Now(), QPS: qps, Duration: 2 * time.Second, Threads: threads}
		r := NewRecorder(threads)
		for th := range threads {
			for i := range s.callsPerThread() {
				late := time.Duration(rng.IntN(200)) * time.Microsecond
				if i%4 == 0 {
					late += testerLate
				}
				r.Report(context.Background(), periodicThread(th), i, s.Intended(th, i).Add(late), 0.0015, true, "")
			}
		}
		return r.Finish(s, s.Start.Add(s.Duration))
	}
	judge := func(late time.Duration) result.Summary {
		sum := result.Summary{RequestedQPS: qps, GapUs: 16_000, Runs: []result.Run{
			{Variant: result.Baseline, Rep: 0, ActualQPS: 1000}, {Variant: result.Dapr, Rep: 0, ActualQPS: 1000},
			{Variant: result.Baseline, Rep: 1, ActualQPS: 1000}, {Variant: result.Dapr, Rep: 1, ActualQPS: 1000},
		}}
		recs := map[Key]*Recorded{
			{result.Baseline, 0}: record(0), {result.Dapr, 0}: record(0),
			{result.Baseline, 1}: record(0), {result.Dapr, 1}: record(late), // one repetition only
		}
		Summarize(&sum, recs, result.StandardPercentiles)
		return sum
	}
	within := judge(12 * time.Millisecond)
	if sat := within.Saturated(); len(sat) != 0 {
		t.Errorf("saturated %+v: 12 ms is within the 16 ms gap", sat)
	}
	if m, _ := within.MergedOf(result.Dapr); durationOf(m.TesterLag, 99) < 11*time.Millisecond {
		t.Errorf("tester lag p99 %v, want the 12 ms shown", durationOf(m.TesterLag, 99))
	}
	late := judge(20 * time.Millisecond)
	sat := late.Saturated()
	if len(sat) != 1 || sat[0].Variant != result.Dapr || sat[0].Rep != 1 || sat[0].TesterLagP99 < 19*time.Millisecond {
		t.Errorf("saturated %+v, want the dapr path in its second repetition, 20 ms late against a 16 ms gap", sat)
	}
}

func durationOf(s result.Spectrum, p float64) time.Duration {
	d, _ := s.At(p)
	return d
}

// 20% fast 503s on the Dapr path: the added latency is computed over successes (700 µs),
// and the path is named as failing beyond the share that lets a figure stand.
func TestFastErrorsDoNotPullTheAddedLatencyDown(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	record := func(serviceUs int, failShare float64) *Recorded {
		s := Schedule{Start: time.Now(), QPS: 1000, Duration: 3 * time.Second, Threads: 4}
		r := NewRecorder(4)
		for th := range 4 {
			for i := range s.callsPerThread() {
				ok, took := true, float64(serviceUs+rng.IntN(200))*1e-6
				if rng.Float64() < failShare {
					ok, took = false, 80e-6
				}
				r.Report(context.Background(), periodicThread(th), i, s.Intended(th, i), took, ok, "")
			}
		}
		return r.Finish(s, s.Start.Add(s.Duration))
	}
	sum := result.Summary{RequestedQPS: 1000}
	recs := map[Key]*Recorded{}
	for rep := range 3 {
		b, d := record(1000, 0), record(1700, 0.2)
		recs[Key{result.Baseline, rep}], recs[Key{result.Dapr, rep}] = b, d
		sum.Runs = append(sum.Runs,
			result.Run{Variant: result.Baseline, Rep: rep, ActualQPS: 1000, Requests: b.Tally.Sent, Errors: b.Tally.Failed},
			result.Run{Variant: result.Dapr, Rep: rep, ActualQPS: 1000, Requests: d.Tally.Sent, Errors: d.Tally.Failed})
	}
	Summarize(&sum, recs, result.StandardPercentiles)
	p50, _ := sum.Added.At(50)
	if p50.Us < 630 || p50.Us > 770 {
		t.Errorf("added p50 %d µs, want 700 ± 10%% (over the successes)", p50.Us)
	}
	e := sum.ErroringPaths()
	if len(e) != 1 || e[0].Variant != result.Dapr || e[0].Share() < 0.18 {
		t.Errorf("erroring paths %+v, want the dapr path at ~20%%", e)
	}
}

func periodicThread(i int) periodic.ThreadID { return periodic.ThreadID(i) }
