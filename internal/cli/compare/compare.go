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

package compare

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// Difference is one compared figure: its two values, the change and the interval of the
// change, what that shows, and, for a gated figure, the gate's outcome.
type Difference struct {
	Figure   string `json:"figure"`
	A        string `json:"a"`
	B        string `json:"b"`
	Change   string `json:"change"`
	Interval string `json:"changeInterval,omitempty"`
	Verdict  string `json:"verdict"`
	Gate     string `json:"gate,omitempty"`
	Limit    string `json:"limit,omitempty"`
}

// Comparison is what compare prints with -o json|yaml.
type Comparison struct {
	A              string   `json:"a"`
	B              string   `json:"b"`
	SettingsDiffer []string `json:"settingsDiffer,omitempty"`
	// Intervals says what the confidence intervals cover: a rerun, or this run alone.
	Intervals   string           `json:"intervals"`
	Differences []Difference     `json:"differences"`
	ExitCode    verdict.ExitCode `json:"exitCode"`
	Verdict     string           `json:"verdict"`
}

func Table(r Comparison) string {
	t := &textfmt.Table{}
	t.Add("FIGURE", r.A, r.B, "CHANGE", "95% INTERVAL", "VERDICT", "GATE")
	for _, d := range r.Differences {
		gate := d.Gate
		if gate != "" && d.Limit != "" {
			gate += " (limit " + d.Limit + ")"
		}
		t.Add(d.Figure, d.A, d.B, d.Change, textfmt.OrDash(d.Interval), d.Verdict, textfmt.OrDash(gate))
	}
	s := t.String()
	if r.Intervals != "" {
		s += r.Intervals + "\n"
	}
	for _, d := range r.SettingsDiffer {
		s += "settings differ: " + textfmt.TerminalCell(d) + "\n" // an exported file's strings
	}
	return s
}

// Compare lists the figures two results share, each with the interval of its change. The
// added-latency percentiles are gated against m (or the measured ones when a side has no
// added latency), and so are an asynchronous scenario's own (asyncPaths); nil gates against
// no slowdown at all. Confidence intervals are each run's own widened by rerun, the
// between-run relative spread (coveringRerun; none leaves them as they are).
func Compare(a, b *perfv1alpha1.Result, m *MaxSlowdown, rerun RerunSpread) []Difference {
	if m == nil {
		none := NoSlowdown()
		m = &none
	}
	c := &comparer{a: a, b: b, m: m, rerun: rerun}
	gateAdded := a.Added != nil && b.Added != nil
	for _, p := range perfv1alpha1.HeadlinePercentiles {
		c.figure("latency "+p.Name, p.Of, a.Latency, b.Latency, spreadEnds(a), spreadEnds(b), changeOfSpreads, !gateAdded)
	}
	for _, p := range perfv1alpha1.HeadlinePercentiles {
		c.figure("added "+p.Name, p.Of, a.Added, b.Added, intervalEnds(a.AddedInterval), intervalEnds(b.AddedInterval), c.acrossReruns(p.Name), gateAdded)
	}
	c.asyncPaths()
	c.faultOutcomes()
	c.trends()
	if qa, ok := a.ActualRate(); ok {
		if qb, ok := b.ActualRate(); ok {
			c.out = append(c.out, Difference{Figure: "actual qps", A: a.ActualQPS, B: b.ActualQPS,
				Change: changeText(qa, qb, strconv.FormatFloat(qb-qa, 'f', 1, 64)), Verdict: "-"})
		}
	}
	if ca, cb := SidecarCPU(a), SidecarCPU(b); ca >= 0 && cb >= 0 {
		c.out = append(c.out, Difference{Figure: "sidecar CPU per 1000 rps", A: fmt.Sprintf("%dm", ca), B: fmt.Sprintf("%dm", cb),
			Change: changeText(float64(ca), float64(cb), fmt.Sprintf("%+dm", cb-ca)), Verdict: "-"})
	}
	return c.out
}

// comparer collects the differences of two results, A the reference and B the change.
type comparer struct {
	a, b  *perfv1alpha1.Result
	m     *MaxSlowdown
	rerun RerunSpread
	out   []Difference
}

// ends are the low and high ends of one side's interval, or spread, of every figure.
type ends struct{ lo, hi *perfv1alpha1.LatencySummary }

// intervalEnds are a confidence interval's ends; nil without one.
func intervalEnds(in *perfv1alpha1.LatencyInterval) *ends {
	if in == nil {
		return nil
	}
	return &ends{&in.Low, &in.High}
}

// spreadEnds are the measured latency's lowest and highest of the repetitions; nil without.
func spreadEnds(r *perfv1alpha1.Result) *ends {
	if r.Spread == nil || r.Spread.Latency == nil {
		return nil
	}
	return &ends{&r.Spread.Latency.Min, &r.Spread.Latency.Max}
}

// figure adds one percentile's difference, its change bounded by combine from both sides'
// ends when both have them. A nil combine: the figure has no interval at all, so no verdict
// is claimed.
func (c *comparer) figure(name string, pick func(*perfv1alpha1.LatencySummary) *metav1.Duration, la, lb *perfv1alpha1.LatencySummary,
	ea, eb *ends, combine func(a, loA, hiA, b, loB, hiB time.Duration) delta, gated bool) {
	if la == nil || lb == nil || pick(la) == nil || pick(lb) == nil {
		return
	}
	va, vb := pick(la).Duration, pick(lb).Duration
	ch := changeWithoutInterval(va, vb)
	if combine != nil && ea != nil && eb != nil && pick(ea.lo) != nil && pick(ea.hi) != nil && pick(eb.lo) != nil && pick(eb.hi) != nil {
		ch = combine(va, pick(ea.lo).Duration, pick(ea.hi).Duration, vb, pick(eb.lo).Duration, pick(eb.hi).Duration)
	}
	d := Difference{Figure: name, A: va.String(), B: vb.String(), Change: changeText(float64(va), float64(vb), (vb - va).String()),
		Interval: ch.String(), Verdict: ch.verdict()}
	if ch.String() == "-" {
		d.Interval = ""
	}
	if combine == nil {
		d.Verdict = "-"
	}
	if gated {
		var limit time.Duration
		d.Gate, limit = ch.gate(c.m)
		d.Limit = limit.String()
	}
	c.out = append(c.out, d)
}

// acrossReruns combines two confidence intervals of percentile p, each widened to cover a
// rerun.
func (c *comparer) acrossReruns(p string) func(a, loA, hiA, b, loB, hiB time.Duration) delta {
	spread, multiplier := c.rerun.fraction(p), c.rerun.multiplier()
	return func(a, loA, hiA, b, loB, hiB time.Duration) delta {
		loA, hiA = coveringRerun(a, loA, hiA, spread, multiplier)
		loB, hiB = coveringRerun(b, loB, hiB, spread, multiplier)
		return changeOf(a, loA, hiA, b, loB, hiB)
	}
}

// count adds a count both results have, without a verdict: a count has no interval.
func (c *comparer) count(name string, a, b int64) {
	c.out = append(c.out, Difference{Figure: name, A: strconv.FormatInt(a, 10), B: strconv.FormatInt(b, 10),
		Change: fmt.Sprintf("%+d", b-a), Verdict: "-"})
}

// Outcome is compare's exit code: 4 when a gated figure is slower than allowed,
// else 3 when one is inconclusive and that is to fail, else 0.
func Outcome(diffs []Difference, failInconclusive bool) verdict.Outcome {
	var slower, inconclusive []string
	for _, d := range diffs {
		switch d.Gate {
		case GateSlower:
			slower = append(slower, fmt.Sprintf("%s %s %s > %s", d.Figure, d.Change, d.Interval, d.Limit))
		case GateInconclusive:
			inconclusive = append(inconclusive, fmt.Sprintf("%s %s %s, limit %s", d.Figure, d.Change, textfmt.OrDash(d.Interval), d.Limit))
		}
	}
	switch {
	case len(slower) > 0:
		return verdict.Outcome{Code: verdict.ExitRegressed, Reason: "slower than allowed: " + strings.Join(slower, "; ")}
	case len(inconclusive) > 0 && failInconclusive:
		return verdict.Outcome{Code: verdict.ExitThresholds, Reason: "inconclusive: " + strings.Join(inconclusive, "; ")}
	case len(inconclusive) > 0:
		return verdict.Outcome{Code: verdict.ExitPassed, Reason: "passed; inconclusive (not failed without --fail-inconclusive): " + strings.Join(inconclusive, "; ")}
	}
	return verdict.Outcome{Code: verdict.ExitPassed, Reason: "passed: no gated figure slower than allowed"}
}

func changeText(a, b float64, abs string) string {
	if a == 0 {
		return abs
	}
	return fmt.Sprintf("%s (%+.1f%%)", abs, (b-a)/a*100)
}

func SidecarCPU(r *perfv1alpha1.Result) int64 {
	if r.Resources == nil || r.Resources.SidecarPer1kQPS == nil || r.Resources.SidecarPer1kQPS.CPU == nil {
		return -1
	}
	return r.Resources.SidecarPer1kQPS.CPU.MilliValue()
}
