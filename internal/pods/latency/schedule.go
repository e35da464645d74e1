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
	"time"
)

// Schedule is fortio's pacing of one fixed-rate run (periodic.runOne): when each thread was
// due to send its i-th request. Each thread is a closed loop with one request in flight, and
// after a stall fortio sends the missed slots back to back (catch-up). Timing a request from
// its actual send would hide the stall from every percentile (coordinated omission); timing it
// from the slot it was due in does not.
type Schedule struct {
	// Start is fortio's run start (RunnerResults.StartTime), taken after its connections opened.
	Start time.Time
	// QPS is the run's requested rate; 0 or less: as fast as possible, no schedule.
	QPS float64
	// Duration of the run.
	Duration time.Duration
	// Threads as fortio ran them (RunnerResults.NumThreads: fortio lowers it for tiny runs).
	Threads int
	// Uniform: each thread's first slot is offset by its share of one period (fortio -uniform).
	Uniform bool
}

// Paced reports whether the run had a schedule (a fixed rate).
func (s Schedule) Paced() bool { return s.QPS > 0 && s.Threads > 0 && s.Duration > 0 }

// Intended returns when thread was due to send its i-th request (i from 0). It mirrors
// fortio's arithmetic: numCalls = ⌊QPS·duration⌋ (at least 2) split evenly over the threads,
// slot i at (i + i/(numCalls−1)) / perThreadQPS after the thread's start, and with Uniform
// the thread's start is delayed by id/threads of one period.
func (s Schedule) Intended(thread int, i int64) time.Time {
	if !s.Paced() {
		return time.Time{}
	}
	perThreadQPS := s.QPS / float64(s.Threads)
	start := s.Start
	if s.Uniform {
		period := 1 / perThreadQPS
		offset := period - period/float64(s.Threads)*float64(s.Threads-thread)
		start = start.Add(time.Duration(offset * float64(time.Second)))
	}
	if i <= 0 {
		return start
	}
	calls := s.callsPerThread()
	elapsed := (float64(i) + float64(i)/float64(calls-1)) / perThreadQPS
	return start.Add(time.Duration(int64(elapsed * 1e9)))
}

// callsPerThread is fortio's per-thread call count of a duration run (runQPSSetup).
func (s Schedule) callsPerThread() int64 {
	total := max(int64(s.QPS*s.Duration.Seconds()), 2)
	return max(total/int64(s.Threads), 2)
}

// Gap is the time between two slots of one thread: the longest a request can wait for its
// send without the thread falling a whole slot behind.
func (s Schedule) Gap() time.Duration {
	if !s.Paced() {
		return 0
	}
	return time.Duration(float64(s.Threads) / s.QPS * float64(time.Second))
}

// FortioThreads is the number of threads fortio runs a fixed-rate run of duration d at qps
// over threads connections with (runQPSSetup): fewer when the run has too few calls for two
// on each thread, one when it has fewer than two calls.
func FortioThreads(qps float64, d time.Duration, threads int) int {
	calls := int64(qps * d.Seconds())
	if calls < 2 {
		return 1
	}
	if int64(2*threads) > calls {
		return int(calls / 2)
	}
	return max(threads, 1)
}
