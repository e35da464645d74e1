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

// Package thresholds judges a run's result against spec.thresholds and its variants'
// thresholds, noise-aware: a limit on added latency (or on a variant's difference from the
// first) that lies inside the figure's confidence interval, or a limit on measured latency
// inside the spread of its repetitions, is Inconclusive, not a coin-flip pass or fail.
package thresholds

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Outcome of one check or of all of them.
type Outcome string

const (
	Met          Outcome = "met"
	Violated     Outcome = "VIOLATED"
	Inconclusive Outcome = "inconclusive"
)

// Check is one threshold with what was measured.
type Check struct {
	Name     string
	Measured string
	Limit    string
	Outcome  Outcome
}

func (c Check) String() string {
	return fmt.Sprintf("%s %s (limit %s): %s", c.Name, c.Measured, c.Limit, c.Outcome)
}

// Verdict is the outcome over every check, and the checks.
type Verdict struct {
	Outcome Outcome
	Checks  []Check
}

// Message lists every check, for the ThresholdsMet condition.
func (v Verdict) Message() string {
	parts := make([]string, len(v.Checks))
	for i, c := range v.Checks {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// EvaluateRun judges res against every gate spec sets: spec.thresholds, then each
// variant's thresholds on its difference from the first. It returns ok=false when none is set.
func EvaluateRun(spec *perfv1alpha1.PerfRunSpec, res *perfv1alpha1.Result) (Verdict, bool) {
	if spec == nil || res == nil {
		return Verdict{}, false
	}
	return verdictOf(append(runChecks(spec.Thresholds, res), variantChecks(spec.Variants, res)...))
}

// Evaluate judges res against t, the run's own thresholds (not its variants'). It returns
// ok=false when t sets no threshold.
func Evaluate(t *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) (Verdict, bool) {
	if res == nil {
		return Verdict{}, false
	}
	return verdictOf(runChecks(t, res))
}

// verdictOf is the outcome over checks: violated if one is, else inconclusive if one is,
// else met. ok=false for no checks.
func verdictOf(checks []Check) (Verdict, bool) {
	if len(checks) == 0 {
		return Verdict{}, false
	}
	v := Verdict{Outcome: Met, Checks: checks}
	for _, c := range checks {
		switch {
		case c.Outcome == Violated:
			v.Outcome = Violated
		case c.Outcome == Inconclusive && v.Outcome == Met:
			v.Outcome = Inconclusive
		}
	}
	return v, true
}

// runChecks are the checks of spec.thresholds on res (nil t: none).
func runChecks(t *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) []Check {
	if t == nil {
		return nil
	}
	var checks []Check
	// queue is true for a limit-bound added latency: a queue's, which grows with the run's
	// length, so a gate it stays under is not shown to be met.
	latency := func(name string, limit *metav1.Duration, f perfv1alpha1.LatencyFigure,
		summary *perfv1alpha1.LatencySummary, bounds *bounds, queue bool) {
		if limit == nil {
			return
		}
		c := latencyCheck(name, limit.Duration, summary, bounds, f)
		if queue && c.Outcome == Met {
			c.Outcome, c.Measured = Inconclusive, c.Measured+" (limit-bound: a queue's, not shown to be met)"
		}
		checks = append(checks, c)
	}
	var spread perfv1alpha1.Spread
	if res.Spread != nil {
		spread = *res.Spread
	}
	p90, p99 := perfv1alpha1.FigureP90, perfv1alpha1.FigureP99
	added := intervalBounds(res.AddedInterval)
	addedName := "added"
	if res.BaselineMethod != "" {
		addedName = "added (against a pipelining client)"
	}
	latency(addedName+" p90", t.MaxAddedP90, p90, res.Added, added, res.AddedLimitBound)
	latency(addedName+" p99", t.MaxAddedP99, p99, res.Added, added, res.AddedLimitBound)
	measured := spreadBounds(spread.Latency)
	latency("p90", t.MaxP90, p90, res.Latency, measured, false)
	latency("p99", t.MaxP99, p99, res.Latency, measured, false)
	checks = append(checks, outcomeChecks(t, res)...)
	checks = append(checks, faultChecks(t, res)...)
	checks = append(checks, memoryGrowthChecks(t, res)...)
	checks = append(checks, goroutineGrowthChecks(t, res)...)
	checks = append(checks, latencyDriftChecks(t, res)...)

	if t.MinQPSPercent != nil {
		// Of what the measured pods were asked for: a LoadTester kill's lost share is no
		// shortfall of the path's.
		c := Check{Name: "actual qps", Limit: fmt.Sprintf(">= %d%% of %s", *t.MinQPSPercent, strconv.FormatFloat(res.RequestedRate(), 'f', -1, 64)), Outcome: Inconclusive, Measured: "not measured"}
		if actual, ok := res.ActualRate(); ok && res.RequestedRate() > 0 {
			pct := actual / res.RequestedRate() * 100
			c.Measured = fmt.Sprintf("%s (%.2f%%)", res.ActualQPS, pct)
			c.Outcome = judge(pct >= float64(*t.MinQPSPercent))
		}
		checks = append(checks, c)
	}
	if t.MaxErrors != nil {
		checks = append(checks, Check{Name: "errors", Measured: strconv.FormatInt(res.Errors, 10),
			Limit: "<= " + strconv.FormatInt(*t.MaxErrors, 10), Outcome: judge(res.Errors <= *t.MaxErrors)})
	}
	if t.MaxRestarts != nil {
		c := Check{Name: "restarts", Limit: "<= " + strconv.Itoa(int(*t.MaxRestarts)), Outcome: Inconclusive, Measured: "not measured"}
		if r := res.Restarts; r != nil {
			n := r.App + r.Sidecar + r.LoadTester
			c.Measured, c.Outcome = strconv.Itoa(int(n)), judge(n <= *t.MaxRestarts)
		}
		checks = append(checks, c)
	}
	var per1k *perfv1alpha1.PerKQPS
	if res.Resources != nil {
		per1k = res.Resources.SidecarPer1kQPS
	}
	quantity := func(name string, limit *resource.Quantity, measured func(*perfv1alpha1.PerKQPS) *resource.Quantity) {
		if limit == nil {
			return
		}
		c := Check{Name: name, Limit: "<= " + limit.String(), Outcome: Inconclusive, Measured: "not measured"}
		if per1k != nil && measured(per1k) != nil {
			q := measured(per1k)
			c.Measured, c.Outcome = q.String(), judge(q.Cmp(*limit) <= 0)
		}
		checks = append(checks, c)
	}
	quantity("sidecar CPU per 1000 rps", t.MaxSidecarCPUPer1kQPS, func(p *perfv1alpha1.PerKQPS) *resource.Quantity { return p.CPU })
	quantity("sidecar memory per 1000 rps", t.MaxSidecarMemoryPer1kQPS, func(p *perfv1alpha1.PerKQPS) *resource.Quantity { return p.Memory })
	return checks
}

// variantChecks are the checks of each variant's thresholds on its difference from the
// first variant (the result document's result.variants[].difference), in spec order: absolute limits at
// p50, p90 and p99, then the percent limit at p90 and p99.
func variantChecks(variants []perfv1alpha1.SidecarVariant, res *perfv1alpha1.Result) []Check {
	var checks []Check
	for _, v := range variants {
		t := v.Thresholds
		if t == nil {
			continue
		}
		var vr, first *perfv1alpha1.VariantResult
		for i := range res.Variants {
			if res.Variants[i].Name == v.Name {
				vr = &res.Variants[i]
			}
		}
		if len(res.Variants) > 0 {
			first = &res.Variants[0]
		}
		slowdown := func(f perfv1alpha1.LatencyFigure, limit time.Duration, limitText string) {
			checks = append(checks, differenceCheck("variant "+v.Name+" "+f.Name+" slowdown", limit, limitText, vr, f))
		}
		for _, l := range []struct {
			f     perfv1alpha1.LatencyFigure
			limit *metav1.Duration
		}{{perfv1alpha1.FigureP50, t.MaxSlowdownP50}, {perfv1alpha1.FigureP90, t.MaxSlowdownP90}, {perfv1alpha1.FigureP99, t.MaxSlowdownP99}} {
			if l.limit != nil {
				slowdown(l.f, l.limit.Duration, "<= "+l.limit.Duration.String())
			}
		}
		if t.MaxSlowdownPercent == nil {
			continue
		}
		pct := *t.MaxSlowdownPercent
		for _, f := range []perfv1alpha1.LatencyFigure{perfv1alpha1.FigureP90, perfv1alpha1.FigureP99} {
			var ref *metav1.Duration
			if first != nil {
				ref = f.Of(first.Latency)
			}
			if ref == nil {
				checks = append(checks, Check{Name: "variant " + v.Name + " " + f.Name + " slowdown",
					Limit: fmt.Sprintf("<= %d%% of the first variant's %s (not measured)", pct, f.Name), Outcome: Inconclusive, Measured: "not measured"})
				continue
			}
			limit := time.Duration(int64(ref.Duration) * int64(pct) / 100)
			slowdown(f, limit, fmt.Sprintf("<= %d%% of %s's %s = %s", pct, first.Name, ref.Duration, limit))
		}
	}
	return checks
}

// differenceCheck judges a variant's difference from the first at figure f against limit
// with its interval between repetitions: met when the interval's high end is within the
// limit, violated when its low end is above it, inconclusive otherwise — and inconclusive
// without such an interval: one repetition measured each variant once, at its own time,
// and an interval within those runs cannot see what changed between them.
func differenceCheck(name string, limit time.Duration, limitText string, vr *perfv1alpha1.VariantResult, f perfv1alpha1.LatencyFigure) Check {
	c := Check{Name: name, Limit: limitText, Outcome: Inconclusive, Measured: "not measured"}
	if vr == nil || f.Of(vr.Difference) == nil {
		return c
	}
	point := f.Of(vr.Difference).Duration
	in := vr.DifferenceInterval
	switch {
	case in == nil || f.Of(&in.Low) == nil || f.Of(&in.High) == nil:
		c.Measured = point.String() + " (no interval: not judged)"
	case in.Basis == perfv1alpha1.IntervalWithinRunOnly:
		c.Measured = point.String() + " (one repetition: no interval between repetitions, not judged; set load.repetitions ≥ 3)"
	default:
		b := intervalBounds(in)
		c = latencyCheck(name, limit, vr.Difference, b, f)
		c.Limit = limitText
	}
	return c
}

// bounds is what a latency figure is uncertain within: the confidence interval of an added
// latency, or the spread of a measured one over repetitions.
type bounds struct {
	low, high perfv1alpha1.LatencySummary
	label     string // how the message names them, e.g. "95% interval"
}

func intervalBounds(i *perfv1alpha1.LatencyInterval) *bounds {
	if i == nil {
		return nil
	}
	return &bounds{low: i.Low, high: i.High, label: fmt.Sprintf("%d%% interval ", i.ConfidencePercent)}
}

func spreadBounds(r *perfv1alpha1.LatencyRange) *bounds {
	if r == nil {
		return nil
	}
	return &bounds{low: r.Min, high: r.Max, label: "repetitions "}
}

// latencyCheck: met when the whole interval (or every repetition) is within the limit,
// violated when it lies wholly above, inconclusive when the limit falls inside it.
func latencyCheck(name string, limit time.Duration, s *perfv1alpha1.LatencySummary, b *bounds, f perfv1alpha1.LatencyFigure) Check {
	pick := f.Of
	c := Check{Name: name, Limit: "<= " + limit.String(), Outcome: Inconclusive, Measured: "not measured"}
	if pick(s) == nil {
		return c
	}
	point := pick(s).Duration
	lo, hi := point, point
	c.Measured = point.String()
	if b != nil && pick(&b.low) != nil && pick(&b.high) != nil {
		lo, hi = pick(&b.low).Duration, pick(&b.high).Duration
		if lo != hi {
			c.Measured = fmt.Sprintf("%s (%s%s..%s)", point, b.label, lo, hi)
		}
	}
	c.Outcome = intervalOutcome(lo, hi, limit)
	return c
}

// intervalOutcome judges a figure known only within [low, high] against an upper limit: met
// when all of it is within, violated when none of it is, inconclusive when the limit is
// inside it.
func intervalOutcome[T int64 | float64 | time.Duration](low, high, limit T) Outcome {
	switch {
	case high <= limit:
		return Met
	case low > limit:
		return Violated
	}
	return Inconclusive
}

func judge(ok bool) Outcome {
	if ok {
		return Met
	}
	return Violated
}

// asyncFigure is what an asynchronous outcome's two gates read: a run's delivery, workflow
// completion or triggers. counted false: the run has no counts (not measured).
type asyncFigure struct {
	latency   *perfv1alpha1.LatencySummary
	counted   bool
	bad, of   int64
	breakdown string // what bad is made of, when more than one count ("" otherwise)
	// samples is how many outcomes the latency is over (completed, delivered, triggered),
	// and what they are called; 0 when not counted.
	samples     int64
	samplesName string
}

// tailBeyond is how many samples must lie beyond a percentile for a gate to judge it: with
// fewer, a p99 is one of the few largest values, which a rerun moves at will (a completion
// p99 from 3 × 200 instances is each repetition's second-largest).
const tailBeyond = 10

// samplesFor is the fewest samples a percentile p (99 for p99) can be judged from.
func samplesFor(p float64) int64 { return int64(math.Ceil(tailBeyond / (1 - p/100))) }

// asyncChecks are the gates on an asynchronous outcome: its p99 (every repetition merged, so
// no spread: the figure against the limit) and its bad outcomes. Figures a run lacks leave
// them Inconclusive, "not measured".
func asyncChecks(latencyName string, maxP99 *metav1.Duration, countName string, maxBad *int64, f asyncFigure) []Check {
	var checks []Check
	if maxP99 != nil {
		c := latencyCheck(latencyName, maxP99.Duration, f.latency, nil, perfv1alpha1.FigureP99)
		if need := samplesFor(perfv1alpha1.FigureP99.Percentile); f.counted && f.samples < need && c.Measured != "not measured" {
			c.Outcome = Inconclusive
			c.Measured += fmt.Sprintf(" from %d %s: a p99 is judged from %d or more (%d beyond it)", f.samples, f.samplesName, need, tailBeyond)
		}
		checks = append(checks, c)
	}
	if maxBad != nil {
		c := Check{Name: countName, Limit: fmt.Sprintf("<= %d", *maxBad), Outcome: Inconclusive, Measured: "not measured"}
		if f.counted {
			c.Measured = fmt.Sprintf("%d of %d", f.bad, f.of)
			if f.breakdown != "" {
				c.Measured += " (" + f.breakdown + ")"
			}
			c.Outcome = judge(f.bad <= *maxBad)
		}
		checks = append(checks, c)
	}
	return checks
}

// outcomeChecks are the gates of each outcome kind a threshold names: its p99 and its
// refused count (messages lost; instances failed or unfinished; triggers missed or doubled).
func outcomeChecks(t *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) []Check {
	var checks []Check
	for _, k := range perfv1alpha1.OutcomeKinds {
		maxP99, maxRefused := k.Limits(t)
		if maxP99 == nil && maxRefused == nil {
			continue
		}
		var f asyncFigure
		if o := k.Of(res); o != nil {
			f.latency = o.Latency
			if n := o.Counts; n != nil {
				f = asyncFigure{latency: o.Latency, counted: true, bad: o.Refused(), of: n.Sent, breakdown: o.Breakdown(), samples: n.Done, samplesName: k.DoneWord}
			}
		}
		checks = append(checks, asyncChecks(k.Name+" p99", maxP99, k.CountGate, maxRefused, f)...)
	}
	return checks
}
