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

// Package regression judges a finished run against the history of its schedule's template.
// A figure regresses when all of these hold:
//
//   - the history since the accepted baseline changed level (a change point found by
//     E-divisive means with a permutation test, see ChangePoints) and the current run lies
//     in a segment after it, or — for the first runs after a step, before a segment of its
//     own can be significant — the current run is an outlier of the reference (modified
//     z-score, 0.6745·(x − median)/MAD, above 3.5, with at least minOutlierReference runs);
//   - it is worse than the reference median by more than the tolerance (the minimum
//     magnitude) — for a run of a shifted segment, the segment's median is, and the run
//     is worse than the reference at all, so a persisting step's runs stay flagged;
//   - the change exceeds the measurement's own precision: the latency histograms'
//     significant digits, the current run's confidence interval for added latency (its
//     best case must still be worse), a millicore for CPU.
//
// The reference is a segment of the history since the accepted baseline between change
// points — the first, or a later one no worse than it (an improvement becomes the new
// normal) — without runs that were themselves judged Regressed: a step for the worse is
// never absorbed as the new normal, it stays flagged until the history returns to the
// reference (the step is fixed) or a user accepts a new baseline.
package regression

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
)

// figure is one compared number of a result.
type figure struct {
	name          string
	higherIsWorse bool
	get           func(*perfv1alpha1.Result) (float64, bool)
	// bestCase is the most favourable value the current run's own uncertainty allows
	// (nil: the value itself).
	bestCase func(*perfv1alpha1.Result) (float64, bool)
	// precision is the smallest change the figure can show at value v in result r.
	precision func(r *perfv1alpha1.Result, v float64) float64
	format    func(float64) string
}

// added is a result's added latency; none for a limit-bound one (a queue's, which grows
// with the run's length and compares with no other run's).
func added(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.AddedLimitBound {
		return nil
	}
	return r.Added
}
func measured(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary { return r.Latency }
func addedLow(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.AddedInterval == nil || r.AddedLimitBound {
		return nil
	}
	return &r.AddedInterval.Low
}

var figures = []figure{
	{"added p90", true, latency(added, p90), latency(addedLow, p90), latencyPrecision, dur},
	{"added p99", true, latency(added, p99), latency(addedLow, p99), latencyPrecision, dur},
	{"p99", true, latency(measured, p99), nil, latencyPrecision, dur},
	{"actual qps", false, actualQPS, nil, func(*perfv1alpha1.Result, float64) float64 { return 0.1 }, // status rounds to 0.1
		func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }},
	{"sidecar CPU per 1000 rps", true, sidecarCPU, nil, func(*perfv1alpha1.Result, float64) float64 { return 1 }, // a millicore
		func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + "m" }},
	// The server sidecar's CPU per request, raw: no normaliser is offered (a compute-only
	// calibration moved two machines' costs apart where the raw ones agreed), so a run on
	// another machine says so through CalibrationWarning instead. Only daprd's own counter's
	// costs measured clear of the limit's stalls are judged: a throttled cost is not like an
	// unthrottled one, nor the kubelet's counter like daprd's.
	{"server sidecar CPU per request (µs)", true, serverSidecarCost, nil, func(*perfv1alpha1.Result, float64) float64 { return 0.1 },
		func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }},
}

func serverSidecarCost(r *perfv1alpha1.Result) (float64, bool) {
	for _, c := range r.SidecarCost {
		if c.Role == "serverSidecar" && c.CPUPerRequest.Duration > 0 && c.Source == perfv1alpha1.CostFromDaprd {
			// ThrottledPercent is set only with the kubelet's counters: without them the
			// cost's throttling is unknown. One source, unthrottled, is judged.
			throttled, err := strconv.ParseFloat(c.ThrottledPercent, 64)
			if err != nil || throttled >= ThrottledShare {
				return 0, false
			}
			return float64(c.CPUPerRequest.Duration) / float64(time.Microsecond), true
		}
	}
	return 0, false
}

// ThrottledShare is the share of CFS periods, in percent, from which a sidecar's cost counts
// as measured under its limit: regression judging and compare draw the line here alike.
const ThrottledShare = 1.0

// CalibrationDrift is the share by which the current run's node calibration differs from
// the reference runs' median beyond which a comparison of raw CPU or latency figures says
// the machines differ.
const CalibrationDrift = 0.10

// CalibrationWarning says how far the current node's calibration score is from the
// reference runs' median when it is more than CalibrationDrift apart; empty otherwise or
// without scores.
func CalibrationWarning(current float64, reference []float64) string {
	if current <= 0 || len(reference) == 0 {
		return ""
	}
	med := repetitions.Median(reference)
	if med <= 0 || abs(current-med)/med <= CalibrationDrift {
		return ""
	}
	return fmt.Sprintf("the node's calibration differs from the reference runs' (%.0f against a median of %.0f units per CPU-second, %+.0f%%): "+
		"a machine difference may explain CPU and latency changes: compare runs on like machines",
		current, med, (current-med)/med*100)
}

// outlierScore is Iglewicz and Hoaglin's threshold for the modified z-score;
// minOutlierReference the fewest reference runs whose MAD it is judged against (fewer make
// the MAD itself too noisy: 10% false alarms at three runs).
const (
	outlierScore        = 3.5
	minOutlierReference = 5
)

// latencyPrecision is one unit in the last significant digit the histograms kept (3
// digits: 0.1% of the value), and never under the microsecond status is written in.
func latencyPrecision(r *perfv1alpha1.Result, v float64) float64 {
	digits := r.LatencySignificantDigits
	if digits <= 0 {
		digits = 2 // results written before histograms: fortio's buckets, coarser
	}
	return max(abs(v)*math.Pow(10, -float64(digits)), float64(time.Microsecond))
}

// Finding is the comparison of one figure.
type Finding struct {
	Figure          string
	Current, Median string
	Low, High       string
	ChangePercent   float64
	Regressed       bool
	ReferenceRuns   int
	// ChangePoints are the history's change points, as indices into it (the current run is
	// the last), where its level changed.
	ChangePoints []int
	// Shifted: the current run lies in a segment after a change point, worse than the
	// reference by more than the tolerance; Outlier: it is an outlier of the reference.
	Shifted, Outlier bool
	// FlagsFromPercent is the smallest worsening, in percent of the median, at which this
	// reference flags a single run as an outlier (the tolerance, or the outlier line over
	// the reference's spread, whichever is larger; the run's own interval comes on top): how
	// sensitive the history is. 0: too few reference runs for the outlier test.
	FlagsFromPercent float64
}

func (f Finding) String() string {
	verdict := "ok"
	switch {
	case f.Regressed && f.Shifted:
		verdict = "REGRESSED (a change point in the history)"
	case f.Regressed:
		verdict = "REGRESSED (an outlier of the reference)"
	}
	out := fmt.Sprintf("%s %s vs median %s of %d reference runs (%s..%s), %+.1f%%: %s",
		f.Figure, f.Current, f.Median, f.ReferenceRuns, f.Low, f.High, f.ChangePercent, verdict)
	if f.FlagsFromPercent > 0 {
		out += fmt.Sprintf(" (this reference flags a single run from %.0f%% worse)", f.FlagsFromPercent)
	}
	return out
}

// Earlier is one earlier run of the history: its result, and whether it was itself judged
// Regressed (it is then data for the change points, never reference).
type Earlier struct {
	Result    *perfv1alpha1.Result
	Regressed bool
}

// Compare judges current against the earlier runs of its history since the accepted
// baseline, oldest first. ok is false when there is no reference run.
func Compare(current *perfv1alpha1.Result, history []Earlier, tolerancePercent int32) (regressed bool, findings []Finding, ok bool) {
	if current == nil || len(history) == 0 {
		return false, nil, false
	}
	tol := float64(tolerancePercent) / 100
	for _, fig := range slices.Concat(figures, outcomeFigures) {
		cur, ok := fig.get(current)
		if !ok {
			continue
		}
		var series []float64
		var flagged []bool
		for _, h := range history {
			if v, ok := fig.get(h.Result); ok {
				series, flagged = append(series, v), append(flagged, h.Regressed)
			}
		}
		series = append(series, cur)
		cps := ChangePoints(series, changePointSeed)
		from, to := referenceSegment(series, cps, fig.higherIsWorse)
		var ref []float64
		for i := from; i < to; i++ {
			if i < len(flagged) && !flagged[i] {
				ref = append(ref, series[i])
			}
		}
		if len(ref) == 0 {
			continue
		}
		slices.Sort(ref)
		med := repetitions.Median(ref)
		f := Finding{Figure: fig.name, Current: fig.format(cur), Median: fig.format(med), Low: fig.format(ref[0]),
			High: fig.format(ref[len(ref)-1]), ReferenceRuns: len(ref), ChangePoints: cps}
		if med != 0 {
			f.ChangePercent = (cur - med) / abs(med) * 100
		}
		worseBy := func(v float64) float64 { // a signed excess over the reference median
			if fig.higherIsWorse {
				return v - med
			}
			return med - v
		}
		// Judge the current run by its best case.
		best := cur
		if fig.bestCase != nil {
			if b, ok := fig.bestCase(current); ok {
				best = b
			}
		}
		worse := worseBy(best)
		if len(cps) > 0 {
			// The current run's segment starts after the reference and sits worse than it.
			last := cps[len(cps)-1]
			f.Shifted = last >= to && worseBy(repetitions.Median(series[last:])) > abs(med)*tol
		}
		deviations := make([]float64, len(ref))
		for i, v := range ref {
			deviations[i] = abs(v - med)
		}
		mad := repetitions.Median(deviations)
		// No spread at all: precision decides. Otherwise the MAD needs a few runs to be
		// worth judging against.
		f.Outlier = (mad == 0 && len(ref) > 1) || (len(ref) >= minOutlierReference && 0.6745*worse/mad > outlierScore)
		if len(ref) >= minOutlierReference && med != 0 {
			f.FlagsFromPercent = 100 * max(tol, outlierScore/0.6745*mad/abs(med))
		}
		// A shifted segment's level carries the tolerance (its median is worse by more than
		// it), so a run of a persisting step stays flagged while it is worse than the
		// reference at all; an outlier carries the tolerance itself.
		beyondPrecision := worse > fig.precision(current, cur)
		f.Regressed = beyondPrecision && (f.Shifted || f.Outlier && worse > abs(med)*tol)
		regressed = regressed || f.Regressed
		findings = append(findings, f)
	}
	return regressed, findings, true
}

// referenceSegment is the part of series (the current run last) a run is judged against:
// the first segment between change points, moved on to each later segment that is better
// than it (an improvement becomes the new normal; a step for the worse never does, nor the
// steps of a drift). The
// current run is never its own reference.
func referenceSegment(series []float64, cps []int, higherIsWorse bool) (from, to int) {
	bounds := append(append([]int{0}, cps...), len(series))
	from, to = bounds[0], bounds[1]
	for k := 1; k+1 < len(bounds); k++ {
		segment := series[bounds[k]:bounds[k+1]]
		if bounds[k+1] == len(series) {
			segment = segment[:len(segment)-1] // without the current run
		}
		if len(segment) == 0 {
			continue
		}
		ref, next := repetitions.Median(series[from:to]), repetitions.Median(segment)
		worse := next - ref
		if !higherIsWorse {
			worse = ref - next
		}
		if worse <= 0 { // better: within the tolerance would let a drift carry the reference along
			from, to = bounds[k], bounds[k]+len(segment)
		}
	}
	return from, min(to, len(series)-1)
}

// changePointSeed fixes the permutation tests' draws: one history, one answer.
const changePointSeed = 0x6368616e6765 // "change"

// LevelChanges is where a history of one figure (oldest first) changes level — the
// indices ChangePoints finds with the seed the judge uses, so a report marks the same
// change points a schedule's runs were judged by.
func LevelChanges(series []float64) []int { return ChangePoints(series, changePointSeed) }

// Message lists the findings, regressions first.
func Message(findings []Finding) string {
	sorted := slices.Clone(findings)
	slices.SortStableFunc(sorted, func(a, b Finding) int {
		switch {
		case a.Regressed && !b.Regressed:
			return -1
		case !a.Regressed && b.Regressed:
			return 1
		}
		return 0
	})
	parts := make([]string, len(sorted))
	for i, f := range sorted {
		parts[i] = f.String()
	}
	return strings.Join(parts, "; ")
}

func latency(which func(*perfv1alpha1.Result) *perfv1alpha1.LatencySummary, f perfv1alpha1.LatencyFigure) func(*perfv1alpha1.Result) (float64, bool) {
	return func(r *perfv1alpha1.Result) (float64, bool) {
		d := f.Of(which(r))
		if d == nil {
			return 0, false
		}
		return float64(d.Duration), true
	}
}

var p90, p99 = perfv1alpha1.FigureP90, perfv1alpha1.FigureP99

func actualQPS(r *perfv1alpha1.Result) (float64, bool) { return r.ActualRate() }

func sidecarCPU(r *perfv1alpha1.Result) (float64, bool) {
	if r.Resources == nil || r.Resources.SidecarPer1kQPS == nil || r.Resources.SidecarPer1kQPS.CPU == nil {
		return 0, false
	}
	return float64(r.Resources.SidecarPer1kQPS.CPU.MilliValue()), true
}

func dur(v float64) string { return time.Duration(v).Round(time.Microsecond).String() }

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
