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

// Package result is the contract between the load tester and the controller: the versioned
// report the load tester writes at the end of its log, whole (report.go) — the summary of
// every run (each path's merged latency and added latency, computed by the load tester from
// its histograms), the histograms and the profiles — and the percentile maths both sides
// read it with (by percentile value, never by list index).
package result

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// SchemaVersion is bumped on any incompatible change of the encoded summary.
// 2: latencies from HDR histograms of every request, merged latency per variant, added
// latency with its bootstrap interval.
// 3: latency from each request's scheduled send (coordinated omission corrected), service
// time and send lag beside it, the schedule's gap, the interval's repetitions.
// 4: the whole report in one frame of the log; the termination message a pointer to it.
const SchemaVersion = 4

// MaxMessageBytes is the Kubernetes limit on a container's termination message: a Pointer
// fits it.
const MaxMessageBytes = 4096

// Variant names a measured path.
type Variant string

const (
	// Baseline is the sidecar-free twin, called directly through its Service.
	Baseline Variant = "b"
	// Dapr is the path through the caller's and the target's sidecars.
	Dapr Variant = "d"
	// Direct is the measured path when Dapr is disabled: the target called through its Service.
	Direct Variant = "x"
	// ClientOnly is the caller's sidecar invoking the app as a non-Dapr HTTP endpoint: no
	// sidecar on the target's side (a run measuring four paths).
	ClientOnly Variant = "c"
	// ServerOnly is the load tester calling the target's sidecar on its pod address, which
	// invokes its own app: no sidecar on the caller's side (a run measuring four paths).
	ServerOnly Variant = "s"
)

// DaprVariant is the code of the i-th sidecar variant's path: Dapr for the first (a run
// without spec.variants has only that one), then d1, d2, …
func DaprVariant(i int) Variant {
	if i == 0 {
		return Dapr
	}
	return Variant("d" + strconv.Itoa(i))
}

// String returns the variant's readable name.
func (v Variant) String() string {
	switch v {
	case Baseline:
		return "baseline"
	case Dapr:
		return "dapr"
	case Direct:
		return "direct"
	case ClientOnly:
		return "client-only"
	case ServerOnly:
		return "server-only"
	}
	return string(v)
}

// StandardPercentiles are the percentiles every run reports (fortio's CLI default set).
var StandardPercentiles = []float64{50, 75, 90, 99, 99.9}

// Percentile is one percentile value; the percentile travels with its value so it is always
// selected by value, never by its position in a list.
type Percentile struct {
	P  float64 // e.g. 99.9
	Us int64   // latency in microseconds
}

// MarshalJSON encodes a percentile as a two-element array [p, µs] to save space.
func (p Percentile) MarshalJSON() ([]byte, error) {
	return json.Marshal([2]any{p.P, p.Us})
}

// UnmarshalJSON decodes [p, µs].
func (p *Percentile) UnmarshalJSON(b []byte) error {
	var pair [2]float64
	if err := json.Unmarshal(b, &pair); err != nil {
		return fmt.Errorf("percentile: %w", err)
	}
	p.P, p.Us = pair[0], int64(math.Round(pair[1]))
	return nil
}

// Run is one measured run: one variant, one repetition.
type Run struct {
	Variant Variant `json:"v"`
	// Rep is the repetition index, from 0. Baseline and Dapr runs with the same Rep form a pair.
	Rep int `json:"i"`
	// StartUnix is the start time in Unix seconds.
	StartUnix int64 `json:"t,omitempty"`
	// SecondHalfUnix is set when the repetition was measured in two halves (an odd
	// repetition count is balanced that way): the second half's start; each half lasts
	// Seconds/2 (see loadsettings.PhaseOrder).
	SecondHalfUnix int64 `json:"t2,omitempty"`
	// Seconds is the actual duration of the run.
	Seconds float64 `json:"s,omitempty"`
	// ActualQPS is the achieved rate.
	ActualQPS float64 `json:"q"`
	// RequestedQPS is set when the run holds fewer load-tester pods' measurements than the
	// group had (a replica killed by a LoadTester PodKill takes its phase's recording with
	// it): the rate those pods were asked for, below Summary.RequestedQPS. Zero: all of it.
	RequestedQPS float64 `json:"rq,omitempty"`
	// Requests is the number of requests made.
	Requests int64 `json:"n"`
	// Errors is the number of requests that did not return 200, socket errors included.
	Errors int64 `json:"e,omitempty"`
	// Codes counts responses by status code ("-1": socket errors).
	Codes map[string]int64 `json:"c,omitempty"`
	// Percentiles of latency, in microseconds, from each request's scheduled send
	// (Summary.Merged holds every variant's latency over all its runs).
	Percentiles []Percentile `json:"p,omitempty"`
	AvgUs       int64        `json:"a"`
	MaxUs       int64        `json:"m"`
	// LagP99Us is the 99th percentile of how late requests were sent behind their slots
	// (the tester's own lag plus the wait for the connection's previous request).
	LagP99Us int64 `json:"l,omitempty"`
	// TesterLagP99Us is the 99th percentile of the load tester's own lag: each send behind
	// max(its slot, the previous completion on its connection).
	TesterLagP99Us int64 `json:"tl,omitempty"`
	// Scheduled is the number of slots the schedule had; Scheduled − Requests were never
	// sent (fortio stops at the end time) and are in the latency at the least they waited.
	Scheduled int64 `json:"sc,omitempty"`
	// DaprdCPU is the CPU each daprd used over the run, read at its exact edges; nil when
	// no daprd was read (no sidecar, or an older load tester).
	DaprdCPU *DaprdCPU `json:"dc,omitempty"`
}

// Requested is the rate the run's measured pods were asked for: of the whole, all unless a
// pod's measurements were lost.
func (r *Run) Requested(whole float64) float64 {
	if r.RequestedQPS > 0 {
		return r.RequestedQPS
	}
	return whole
}

// Unsent is the number of scheduled slots the run never sent.
func (r *Run) Unsent() int64 { return max(r.Scheduled-r.Requests, 0) }

// Latency returns the latency at percentile p, selected by value.
func (r *Run) Latency(p float64) (time.Duration, bool) {
	for _, pc := range r.Percentiles {
		if SamePercentile(pc.P, p) {
			return time.Duration(pc.Us) * time.Microsecond, true
		}
	}
	return 0, false
}

// SamePercentile compares percentiles as float values may differ in their last bits.
func SamePercentile(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Summary is the load tester's figures of every run it made (Report.Summary).
type Summary struct {
	Version int `json:"ver"`
	// RequestedQPS is the rate asked for.
	RequestedQPS float64 `json:"rq"`
	// Error says why the load tester failed; empty on success.
	Error string `json:"err,omitempty"`
	// Runs in the order they were made (B D B D ... when interleaved).
	Runs []Run `json:"runs,omitempty"`
	// Digits is the precision of every latency: significant decimal digits of the
	// histograms every request was recorded into.
	Digits int `json:"sd,omitempty"`
	// Merged is each variant's latency over all its repetitions, from their merged
	// histograms: the distribution of every request the variant made.
	Merged []Merged `json:"mg,omitempty"`
	// Added is the latency Dapr adds over the baseline, with its interval; nil without
	// a repetition that measured both.
	Added *Added `json:"ad,omitempty"`
	// Compared holds, for every sidecar variant after the first, its latency minus the
	// baseline's and minus the first variant's, with their intervals.
	Compared []Comparison `json:"cmp,omitempty"`
	// Attribution splits what Dapr adds between the two sidecars; nil unless the run
	// measured the four paths.
	Attribution *Attribution `json:"att,omitempty"`
	// GapUs is one connection's time between two scheduled sends (connections / rate): a
	// load tester whose sends lag by more than that could not keep its schedule.
	GapUs int64 `json:"gap,omitempty"`
	// Delivery is a PubSub run's publish-to-delivery figures; nil for other scenarios.
	Delivery *Delivery `json:"dl,omitempty"`
	// Pods holds each load-tester pod's share and achieved rate when the load was split
	// over several pods (spec.loadTester.replicas); their runs above are already merged.
	Pods []PodLoad `json:"pods,omitempty"`
}

// PodLoad is one load-tester pod's part of a parallel run.
type PodLoad struct {
	// Pod is the pod's index (its Job completion index).
	Pod int `json:"i"`
	// RequestedQPS is the pod's share of the requested rate.
	RequestedQPS float64 `json:"rq"`
	// ActualQPS is the pod's achieved rate over its measured runs (requests / seconds).
	ActualQPS float64 `json:"q"`
}

// Comparison is one path's latency minus another's, per percentile, with its interval.
type Comparison struct {
	Variant Variant `json:"v"`
	Against Variant `json:"vs"`
	Added
}

// Comparison returns the comparison of v against another path.
func (s *Summary) Comparison(v, against Variant) (*Added, bool) {
	for i := range s.Compared {
		if c := &s.Compared[i]; c.Variant == v && c.Against == against {
			return &c.Added, true
		}
	}
	return nil, false
}

// Merged is one variant's latency over all its repetitions: from each request's scheduled
// send (the headline), its service time from its actual send, and the send lag.
type Merged struct {
	Variant     Variant      `json:"v"`
	Percentiles []Percentile `json:"p"`
	AvgUs       int64        `json:"a"`
	MaxUs       int64        `json:"m"`
	Service     Spectrum     `json:"st,omitzero"`
	Lag         Spectrum     `json:"lag,omitzero"`
	// TesterLag is the load tester's own lag (see Run.TesterLagP99Us).
	TesterLag Spectrum `json:"tl,omitzero"`
}

// Latency returns the merged latency at percentile p, selected by value.
func (m *Merged) Latency(p float64) (time.Duration, bool) {
	return (&Run{Percentiles: m.Percentiles}).Latency(p)
}

// Spectrum is one distribution's percentiles, mean and maximum, in microseconds.
type Spectrum struct {
	Percentiles []Percentile `json:"p,omitempty"`
	AvgUs       int64        `json:"a,omitempty"`
	MaxUs       int64        `json:"m,omitempty"`
}

// At returns the value at percentile p, selected by value.
func (s Spectrum) At(p float64) (time.Duration, bool) {
	return (&Run{Percentiles: s.Percentiles}).Latency(p)
}

// MergedOf returns the merged latency of variant v.
func (s *Summary) MergedOf(v Variant) (Merged, bool) {
	for _, m := range s.Merged {
		if m.Variant == v {
			return m, true
		}
	}
	return Merged{}, false
}

// Added is Dapr's latency minus the baseline's, per percentile and for the mean.
type Added struct {
	// Confidence of every interval (0.95: a 95% interval) and the bootstrap resamples it
	// was estimated from.
	Confidence float64 `json:"cf"`
	Resamples  int     `json:"rs"`
	// Reps is the number of repetitions that measured both paths: with two or more the
	// interval holds between runs, with one it is within-run only.
	Reps int `json:"r,omitempty"`
	// Percentiles: the difference at each percentile value.
	Percentiles []AddedPercentile `json:"p"`
	Avg         Interval          `json:"a"`
}

// At returns the added latency at percentile p, selected by value.
func (a *Added) At(p float64) (Interval, bool) {
	for _, ap := range a.Percentiles {
		if SamePercentile(ap.P, p) {
			return ap.Interval, true
		}
	}
	return Interval{}, false
}

// Interval is an estimate with its confidence interval, in microseconds.
type Interval struct {
	Us, LowUs, HighUs int64
}

// WithinNoise reports whether the interval admits no difference at all (or a negative one):
// the estimate cannot be told apart from zero.
func (i Interval) WithinNoise() bool { return i.LowUs <= 0 }

// MarshalJSON encodes an interval as [µs, low, high].
func (i Interval) MarshalJSON() ([]byte, error) {
	return json.Marshal([3]int64{i.Us, i.LowUs, i.HighUs})
}

// UnmarshalJSON decodes [µs, low, high].
func (i *Interval) UnmarshalJSON(b []byte) error {
	var t [3]int64
	if err := json.Unmarshal(b, &t); err != nil {
		return fmt.Errorf("interval: %w", err)
	}
	i.Us, i.LowUs, i.HighUs = t[0], t[1], t[2]
	return nil
}

// AddedPercentile is the added latency at one percentile.
type AddedPercentile struct {
	P float64
	Interval
}

// MarshalJSON encodes [p, µs, low, high].
func (a AddedPercentile) MarshalJSON() ([]byte, error) {
	return json.Marshal([4]any{a.P, a.Us, a.LowUs, a.HighUs})
}

// UnmarshalJSON decodes [p, µs, low, high].
func (a *AddedPercentile) UnmarshalJSON(b []byte) error {
	var t [4]float64
	if err := json.Unmarshal(b, &t); err != nil {
		return fmt.Errorf("added percentile: %w", err)
	}
	a.P = t[0]
	a.Us, a.LowUs, a.HighUs = int64(math.Round(t[1])), int64(math.Round(t[2])), int64(math.Round(t[3]))
	return nil
}

// MinRepetitionsForTail is the fewest repetitions at which the interval of a tail
// percentile (p99 and above) holds about as often as it claims under an episodic tail: in
// 95% of 400 experiments at five repetitions and 80.5% at three, in latency.EpisodicModel
// (docs/measurement-coverage.md); with fewer it is reported as approximate.
const MinRepetitionsForTail = 5

// TailPercentile reports whether percentile p is a tail one, whose interval needs
// MinRepetitionsForTail.
func TailPercentile(p float64) bool { return p >= 99 }

// MinAchievedShare is the share of the requested rate a path must achieve to count as
// having carried it (Dapr's own perf gates: actual qps > 0.99 × requested).
const MinAchievedShare = 0.99

// MaxErrorShare is the share of a path's requests that may fail before its latency —
// over its successes only — no longer stands for the path: above it no added latency is
// claimed for the run.
const MaxErrorShare = 0.01

// Erroring is a path that failed more than MaxErrorShare of its requests.
type Erroring struct {
	Variant          Variant
	Failed, Requests int64
}

// Share is the failed share of the path's requests.
func (e Erroring) Share() float64 { return float64(e.Failed) / float64(max(e.Requests, 1)) }

// ErroringPaths returns the paths whose failed share exceeds MaxErrorShare, in the order
// of their first run.
func (s *Summary) ErroringPaths() []Erroring {
	var order []Variant
	by := map[Variant]*Erroring{}
	for _, r := range s.Runs {
		e := by[r.Variant]
		if e == nil {
			e = &Erroring{Variant: r.Variant}
			by[r.Variant] = e
			order = append(order, r.Variant)
		}
		e.Failed += r.Errors
		e.Requests += r.Requests
	}
	var out []Erroring
	for _, v := range order {
		if e := by[v]; e.Requests > 0 && e.Share() > MaxErrorShare {
			out = append(out, *e)
		}
	}
	return out
}

// Saturation says a path's load tester could not keep its schedule.
type Saturation struct {
	Variant Variant
	// Rep is the first repetition in which it fell behind.
	Rep int
	// ActualQPS is the path's lowest achieved rate over its repetitions.
	ActualQPS float64
	// TesterLagP99 is the highest 99th percentile of the tester's own lag over the
	// path's repetitions.
	TesterLagP99 time.Duration
	// LagP99 is its sends' 99th-percentile lag behind their slots, over every repetition
	// (connection waits included: shown, not judged).
	LagP99 time.Duration
	// Gap is one connection's time between slots; Bound the tester lag allowed.
	Gap, Bound time.Duration
}

// TesterLagBound is the most the load tester's own lag may reach at p99 in a repetition:
// one connection's gap between slots (1 ms at the least). A tester a whole slot late bunches
// the load it was asked to spread, and the path saw another load than the one asked for.
// (The added latency's claim has a tighter limit on the same lateness: LatenessLimit.)
func TesterLagBound(gap time.Duration) time.Duration { return max(gap, time.Millisecond) }

// Saturated returns the paths whose load tester fell behind its schedule in some
// repetition: it achieved less than MinAchievedShare of the requested rate, or its own
// send lag (not a wait for the connection's previous request: a stalled path shows as
// latency, never as saturation) exceeded TesterLagBound at p99. Each repetition is judged
// on its own, so one bad repetition is not diluted by the others.
func (s *Summary) Saturated() []Saturation {
	var out []Saturation
	gap := time.Duration(s.GapUs) * time.Microsecond
	for _, r := range s.Runs {
		bound := TesterLagBound(gap)
		behind := s.RequestedQPS > 0 && r.ActualQPS < MinAchievedShare*r.Requested(s.RequestedQPS)
		lagging := s.GapUs > 0 && time.Duration(r.TesterLagP99Us)*time.Microsecond > bound
		if (!behind && !lagging) || slices.ContainsFunc(out, func(o Saturation) bool { return o.Variant == r.Variant }) {
			continue
		}
		sat := Saturation{Variant: r.Variant, Rep: r.Rep, ActualQPS: math.Inf(1), Gap: gap, Bound: bound}
		if m, ok := s.MergedOf(r.Variant); ok {
			sat.LagP99, _ = m.Lag.At(99)
		}
		for _, o := range s.Runs {
			if o.Variant == r.Variant {
				sat.ActualQPS = math.Min(sat.ActualQPS, o.ActualQPS)
				sat.TesterLagP99 = max(sat.TesterLagP99, time.Duration(o.TesterLagP99Us)*time.Microsecond)
			}
		}
		out = append(out, sat)
	}
	return out
}
