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

package faults

import (
	"math"
	"time"

	"github.com/daprbench/daprbench/internal/kit/stats"
)

// MinBandSeconds is how many pre-fault seconds a band needs: with fewer, their spread says
// too little about where a healthy second falls.
const MinBandSeconds = 5

// DefaultHold is how many healthy seconds in a row count as recovered: one can be luck.
const DefaultHold = 3

// Band is what the pre-fault seconds say a healthy second of the path looks like. Recovery
// is judged against it to the second.
type Band struct {
	// P99High is where a further healthy second's p99 falls: the pre-fault seconds' p99s,
	// mean + t·sd·√(1 + 1/n) with t at 97.5%, a one-sided prediction bound (not the mean's
	// interval), as far as the seconds' p99s are normal and independent.
	P99High time.Duration
	// RateHigh is the pre-fault error rate's 95% Wilson upper bound: the path's own rate of
	// errors, at most. A second is judged against it by its own interval (Healthy).
	RateHigh float64
	// Seconds is how many pre-fault seconds set it.
	Seconds int
}

// BandOf is the band the seconds before the fault set: pass the measured phase's seconds
// only, warm-up left out, or its spread widens the band. false with fewer than
// MinBandSeconds of them with a success to time.
func BandOf(timeline []Second, f Fault) (Band, bool) {
	var p99s []float64
	var sent, errs int64
	for _, s := range timeline {
		if s.At.Add(time.Second).After(f.Start) {
			continue
		}
		sent += s.Sent
		errs += s.Errors
		if s.succeeded() {
			p99s = append(p99s, float64(s.P99.Microseconds()))
		}
	}
	n := len(p99s)
	if n < MinBandSeconds {
		return Band{Seconds: n}, false
	}
	mean, _, _, _ := stats.MeanInterval(p99s, 0.95)
	var ss float64
	for _, x := range p99s {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	high := mean + stats.StudentT(0.975, n-1)*sd*math.Sqrt(1+1/float64(n))
	_, rateHigh := stats.Wilson(errs, sent)
	return Band{P99High: time.Duration(math.Ceil(high)) * time.Microsecond, RateHigh: rateHigh, Seconds: n}, true
}

// Healthy is whether a second sits inside the band: it sent, a success was timed, its p99 is
// at most P99High, and its errors do not show a rate above RateHigh (its own Wilson interval
// lies not wholly above it: one second is a small sample, and one error in a busy second
// is within what chance allows a path that errs as rarely as before). A second that sent
// nothing, or timed no success, is no evidence of health.
func (b Band) Healthy(s Second) bool {
	if !s.succeeded() {
		return false
	}
	if low, _ := stats.Wilson(s.Errors, s.Sent); low > b.RateHigh {
		return false
	}
	return s.P99 <= b.P99High
}

// Recovery is the time from the fault's end to the start of the first of hold healthy
// seconds in a row, among the seconds after it (those that began at or past its end, as
// Windows cuts them), to the second; a gap in the timeline breaks a run. false when the
// timeline ends first (the path did not recover within it) or the band is not one BandOf
// made. A path back in the band at once recovers in under a second: zero.
func Recovery(timeline []Second, f Fault, b Band, hold int) (time.Duration, bool) {
	if b.Seconds < MinBandSeconds || b.P99High <= 0 {
		return 0, false
	}
	hold = max(hold, 1)
	run := 0
	var first, prev time.Time
	for _, s := range timeline {
		if s.At.Before(f.End) {
			continue // during or before the fault
		}
		switch {
		case !b.Healthy(s):
			run = 0
		case run > 0 && s.At.Equal(prev.Add(time.Second)):
			run++
		default: // a healthy second begins a run, or follows a gap
			first, run = s.At, 1
		}
		prev = s.At
		if run == hold {
			return first.Sub(f.End), true
		}
	}
	return 0, false
}
