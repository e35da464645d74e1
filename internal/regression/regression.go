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

// Package regression compares a finished run with the earlier runs of its schedule's
// template. A figure regresses only when all three hold:
//
//   - it is worse than the reference median by more than the tolerance;
//   - it is an outlier of the reference runs: its modified z-score, 0.6745·(x − median)/MAD
//     (Iglewicz and Hoaglin's robust outlier test), exceeds 3.5 — run-to-run noise, measured
//     robustly, is not a regression, and one wild reference run cannot mask one;
//   - the change exceeds the measurement's own precision: the latency histograms'
//     significant digits, the current run's confidence interval for added latency (its
//     best case must still be worse), a millicore for CPU.
package regression

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/stats"
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

func added(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary    { return r.Added }
func measured(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary { return r.Latency }
func addedLow(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.AddedInterval == nil {
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
}

// outlierScore is Iglewicz and Hoaglin's threshold for the modified z-score.
const outlierScore = 3.5

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
}

func (f Finding) String() string {
	verdict := "ok"
	if f.Regressed {
		verdict = "REGRESSED"
	}
	return fmt.Sprintf("%s %s vs median %s of %d runs (%s..%s), %+.1f%%: %s",
		f.Figure, f.Current, f.Median, f.ReferenceRuns, f.Low, f.High, f.ChangePercent, verdict)
}

// Compare judges current against the reference results (the previous successful runs,
// newest first, already cut to the window). ok is false when there is no reference.
func Compare(current *perfv1alpha1.Result, reference []*perfv1alpha1.Result, tolerancePercent int32) (regressed bool, findings []Finding, ok bool) {
	if current == nil || len(reference) == 0 {
		return false, nil, false
	}
	tol := float64(tolerancePercent) / 100
	for _, fig := range figures {
		cur, ok := fig.get(current)
		if !ok {
			continue
		}
		var ref []float64
		for _, r := range reference {
			if v, ok := fig.get(r); ok {
				ref = append(ref, v)
			}
		}
		if len(ref) == 0 {
			continue
		}
		slices.Sort(ref)
		med := stats.Median(ref)
		lo, hi := ref[0], ref[len(ref)-1]
		f := Finding{Figure: fig.name, Current: fig.format(cur), Median: fig.format(med), Low: fig.format(lo), High: fig.format(hi),
			ReferenceRuns: len(ref)}
		if med != 0 {
			f.ChangePercent = (cur - med) / abs(med) * 100
		}
		// Judge the current run by its best case, and "worse" as a signed excess.
		best := cur
		if fig.bestCase != nil {
			if b, ok := fig.bestCase(current); ok {
				best = b
			}
		}
		worse := best - med
		if !fig.higherIsWorse {
			worse = med - best
		}
		deviations := make([]float64, len(ref))
		for i, v := range ref {
			deviations[i] = abs(v - med)
		}
		mad := stats.Median(deviations)
		outlier := mad == 0 || 0.6745*worse/mad > outlierScore // no spread at all: precision decides
		f.Regressed = worse > abs(med)*tol && outlier && worse > fig.precision(current, cur)
		regressed = regressed || f.Regressed
		findings = append(findings, f)
	}
	return regressed, findings, true
}

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
