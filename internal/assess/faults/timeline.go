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
	// P99 is the successes' 99th percentile latency from their slots (0 with none): what
	// the band and a recovery judge a second by.
	P99 time.Duration
	// Latency holds each successful request's latency from its slot in µs, in result's
	// geometry, as the load tester records it (a fast failure would pull the percentiles
	// down, so failures are only counted); nil or empty for a second with no success, and
	// nil where only the figures above were kept (Judge: about 170 KB a second decoded).
	Latency *hdrhistogram.Histogram
}

// succeeded reports whether a request of the second succeeded: only then is it timed.
func (s Second) succeeded() bool { return s.Sent > s.Errors }

// p99Of is a second's P99 from its successes' histogram; 0 with none.
func p99Of(h *hdrhistogram.Histogram) time.Duration {
	if h == nil || h.TotalCount() == 0 {
		return 0
	}
	return time.Duration(h.ValueAtQuantile(99)) * time.Microsecond
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
		switch placeOf(s, f) {
		case placeBefore:
			before = append(before, s)
		case placeAfter:
			after = append(after, s)
		default:
			during = append(during, s)
		}
	}
	return before, during, after
}

// place is the window a second falls in.
type place int

const (
	placeBefore place = iota
	placeDuring
	placeAfter
)

// placeOf is the window of a second: before when it ended by the fault's start, after when
// it began at or past the fault's end, during when the fault touched it at all.
func placeOf(s Second, f Fault) place {
	switch {
	case !s.At.Add(time.Second).After(f.Start):
		return placeBefore
	case !s.At.Before(f.End):
		return placeAfter
	default:
		return placeDuring
	}
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
	for _, s := range seconds {
		w.addSecond(s, s.Latency)
	}
}

// addSecond sums one second into the window, the next in timeline order, with h its
// successes' latency (nil: none).
func (w *Window) addSecond(s Second, h *hdrhistogram.Histogram) {
	if w.Seconds == 0 {
		w.From = s.At
	}
	w.To = s.At.Add(time.Second)
	w.Seconds++
	w.Sent += s.Sent
	w.Errors += s.Errors
	if h != nil {
		if w.Latency == nil {
			w.Latency = result.NewHistogram()
		}
		w.Latency.Merge(h)
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
