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

// Package faults judges what a fault did to a measured path, from its timeline: the windows
// before, during and after the fault with each one's error share and latency, how long the
// path took to come back inside the band the pre-fault window sets, and how many requests
// the app saw per request sent (Resiliency's retries made visible). It reads, never
// subtracts: every latency is from each request's scheduled send, as the load tester timed it.
package faults

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// Second is one second of a path's timeline on the load tester's one clock: the requests
// whose slot fell in it, those that failed, and their latency from the slot.
type Second struct {
	// At is the second's start.
	At time.Time
	// Sent counts the requests whose slot fell in the second; Errors, those that failed.
	Sent, Errors int64
	// Latency holds each successful request's latency from its slot in µs, in result's
	// geometry, as the load tester records it (a fast failure would pull the percentiles
	// down, so failures are only counted); nil or empty for a second with no success.
	Latency *hdrhistogram.Histogram
}

// Fault is when a fault held, [Start, End), as recorded when it was applied and lifted (for
// a pod deleted, End is when its replacement was ready): the analysis reads the recorded
// times, not the planned ones.
type Fault struct{ Start, End time.Time }

// Window is a span of the timeline, summed: every second of it merged, none averaged.
type Window struct {
	// From is the first second's start, To the last one's end; both zero for an empty window.
	From, To time.Time
	Seconds  int
	// Sent and Errors over the window; ErrorShare is Errors/Sent with its 95% Wilson interval
	// (zero and [0, 1] with nothing sent).
	Sent, Errors                    int64
	ErrorShare, ErrorLow, ErrorHigh float64
	// Latency of every successful request in the window, merged: nil with none.
	Latency *hdrhistogram.Histogram
}

// P is the window's latency at percentile p (0–100); zero with none.
func (w Window) P(p float64) time.Duration {
	if w.Latency == nil || w.Latency.TotalCount() == 0 {
		return 0
	}
	return time.Duration(w.Latency.ValueAtQuantile(p)) * time.Microsecond
}

// Windows cuts the timeline at the fault: before holds the seconds that ended by its start,
// after those that began at or past its end, and during the rest, so a second the fault
// touched at all is during.
func Windows(timeline []Second, f Fault) (before, during, after Window) {
	b, d, a := cut(timeline, f)
	return window(b), window(d), window(a)
}

// cut is Windows' split of the seconds, before they are summed.
func cut(timeline []Second, f Fault) (before, during, after []Second) {
	for _, s := range timeline {
		switch end := s.At.Add(time.Second); {
		case !end.After(f.Start):
			before = append(before, s)
		case !s.At.Before(f.End):
			after = append(after, s)
		default:
			during = append(during, s)
		}
	}
	return before, during, after
}

// window sums seconds, in timeline order.
func window(seconds []Second) Window {
	var w Window
	w.add(seconds)
	w.finish()
	return w
}

// add sums a phase's seconds into the window, phase after phase: From stays the first
// second's start, To becomes the last one's end.
func (w *Window) add(seconds []Second) {
	if len(seconds) == 0 {
		return
	}
	if w.Seconds == 0 {
		w.From = seconds[0].At
	}
	w.To = seconds[len(seconds)-1].At.Add(time.Second)
	w.Seconds += len(seconds)
	for _, s := range seconds {
		w.Sent += s.Sent
		w.Errors += s.Errors
		if s.Latency != nil {
			if w.Latency == nil {
				w.Latency = result.NewHistogram()
			}
			w.Latency.Merge(s.Latency)
		}
	}
}

// finish sets the window's error share and its Wilson interval from its sums.
func (w *Window) finish() {
	w.ErrorShare = 0
	if w.Sent > 0 {
		w.ErrorShare = float64(w.Errors) / float64(w.Sent)
	}
	w.ErrorLow, w.ErrorHigh = stats.Wilson(w.Errors, w.Sent)
}
