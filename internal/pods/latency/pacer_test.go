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
	"sync"
	"testing"
	"time"
)

// The pacer never releases a request before its slot, and the recording is timed from the
// pacer's slots and releases: fortio's own send times (its wake-ups) are not used.
func TestPacerReleasesNoRequestBeforeItsSlot(t *testing.T) {
	plan := Schedule{QPS: 400, Duration: 500 * time.Millisecond, Threads: 2}
	r := NewPacedRecorder(plan, make(chan struct{}))
	var wg sync.WaitGroup
	early := make(chan string, 400)
	for th := range plan.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range plan.callsPerThread() {
				ctx := r.Start(context.Background(), periodicThread(th), i, time.Now())
				released := time.Now()
				if due := r.Schedule().Intended(th, i); released.Before(due) {
					early <- due.Sub(released).String()
				}
				r.Report(ctx, periodicThread(th), i, time.Unix(0, 0), 5, true, "") // fortio's wake-up and timing: ignored
			}
		}()
	}
	wg.Wait()
	close(early)
	for e := range early {
		t.Errorf("a request released %s before its slot", e)
	}
	s := r.Schedule()
	if s.Start.IsZero() || s.QPS != plan.QPS || s.Threads != plan.Threads {
		t.Fatalf("schedule %+v, want the plan started by the first request", s)
	}
	rec := r.Finish(s, time.Time{})
	if n := rec.Latency.TotalCount(); n != 2*plan.callsPerThread() {
		t.Errorf("recorded %d requests, want %d", n, 2*plan.callsPerThread())
	}
	if rec.Service.Max() > 1000 {
		t.Errorf("service time max %d µs: timed from fortio's wake-up, not the pacer's release", rec.Service.Max())
	}
}

// An aborted run's held request is let go at once, not at its slot.
func TestPacerLetsGoWhenTheRunIsAborted(t *testing.T) {
	stop := make(chan struct{})
	r := NewPacedRecorder(Schedule{QPS: 1, Duration: time.Hour, Threads: 1}, stop)
	r.Start(context.Background(), 0, 0, time.Now()) // sets the start; slot 0 is PacerLead away
	done := make(chan struct{})
	go func() {
		r.Start(context.Background(), 0, 10, time.Now()) // due ten seconds later
		close(done)
	}()
	close(stop)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a held request was not let go when the run was aborted")
	}
	r.Finish(r.Schedule(), time.Time{})
}

func TestFortioThreadsMirrorsFortio(t *testing.T) {
	for _, c := range []struct {
		qps     float64
		d       time.Duration
		threads int
		want    int
	}{{1000, time.Second, 16, 16}, {10, time.Second, 16, 5}, {1, time.Second, 4, 1}, {3, time.Second, 2, 1}} {
		if got := FortioThreads(c.qps, c.d, c.threads); got != c.want {
			t.Errorf("FortioThreads(%v, %v, %d) = %d, want %d", c.qps, c.d, c.threads, got, c.want)
		}
	}
}
