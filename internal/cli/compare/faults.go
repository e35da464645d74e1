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
	"math"
	"strconv"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// Verdicts of a fault's error share, from the interval of its change (B − A).
const (
	VerdictMoreErrors  = "more errors"
	VerdictFewerErrors = "fewer errors"
)

// Verdicts of a fault's lost messages or stuck instances a phase, from the interval of the
// change of their means (B − A).
const (
	VerdictMoreAPhase  = "more a phase"
	VerdictFewerAPhase = "fewer a phase"
)

// faultOutcomes adds what each fault both results measured cost on each path both share
// (status.result.faults, matched by fault index and path): the error share of the seconds it
// touched, its recovery, a broker's lost messages and the workflow instances an outage left
// stuck. None is gated: the run's own
// thresholds gate a fault; compare says whether B fared better or worse than A.
func (c *comparer) faultOutcomes() {
	for _, fa := range c.a.Faults {
		for _, fb := range c.b.Faults {
			if fa.Fault != fb.Fault || fa.Path != fb.Path || fa.Kind != fb.Kind {
				continue
			}
			name := fmt.Sprintf("fault %d on %s", fa.Fault, fa.Path)
			c.errorShare(name+" errors during", fa.During, fb.During)
			if fa.Recovery != nil && fb.Recovery != nil {
				c.recovery(name+" recovery", fa.Recovery.Duration, fb.Recovery.Duration, symmetric(fa), symmetric(fb))
			}
			if fa.Messages != nil && fb.Messages != nil {
				c.count(name+" messages lost", fa.Messages.Lost, fb.Messages.Lost)
				c.perPhase(name+" messages lost a phase", meanOf(fa.Messages.LostPerPhase, fa.Messages.LostPerPhaseLow, fa.Messages.LostPerPhaseHigh),
					meanOf(fb.Messages.LostPerPhase, fb.Messages.LostPerPhaseLow, fb.Messages.LostPerPhaseHigh))
			}
			if fa.Instances != nil && fb.Instances != nil {
				c.count(name+" instances stuck", fa.Instances.Stuck, fb.Instances.Stuck)
				c.perPhase(name+" instances stuck a phase", meanOf(fa.Instances.StuckPerPhase, fa.Instances.StuckPerPhaseLow, fa.Instances.StuckPerPhaseHigh),
					meanOf(fb.Instances.StuckPerPhase, fb.Instances.StuckPerPhaseLow, fb.Instances.StuckPerPhaseHigh))
			}
		}
	}
}

// errorShare compares two windows' error shares: the change in percentage points, with its
// 95% interval from the two Wilson intervals (Newcombe's hybrid score interval, the
// difference of two independent proportions). Each window pools its run's repetitions and
// takes its requests as independent; a fault's failures come in bursts, so the interval is
// narrower than a rerun's would be: a small change it shows may not recur.
func (c *comparer) errorShare(name string, a, b perfv1alpha1.FaultWindow) {
	if a.Requests == 0 || b.Requests == 0 {
		return
	}
	pa, pb := float64(a.Errors)/float64(a.Requests), float64(b.Errors)/float64(b.Requests)
	la, ua := stats.Wilson(a.Errors, a.Requests)
	lb, ub := stats.Wilson(b.Errors, b.Requests)
	low, high := ShareChange(pa, la, ua, pb, lb, ub)
	verdict := VerdictNoDifference
	switch {
	case low > 0:
		verdict = VerdictMoreErrors
	case high < 0:
		verdict = VerdictFewerErrors
	}
	c.out = append(c.out, Difference{Figure: name, A: percent(pa), B: percent(pb),
		Change: fmt.Sprintf("%+.2f points", 100*(pb-pa)), Interval: fmt.Sprintf("[%+.2f, %+.2f] points", 100*low, 100*high), Verdict: verdict})
}

// ShareChange is the 95% interval of pb − pa from each share's own 95% interval (Newcombe's
// method 10: the root sum of squares of the near half-widths on each side).
func ShareChange(pa, la, ua, pb, lb, ub float64) (low, high float64) {
	d := pb - pa
	return d - math.Hypot(pb-lb, ua-pa), d + math.Hypot(ub-pb, pa-la)
}

// recovery compares two mean recoveries by their t intervals over each run's repetitions, as
// added latency is (changeOf); without an interval on a side, no verdict is claimed.
func (c *comparer) recovery(name string, a, b time.Duration, ea, eb *[2]time.Duration) {
	ch := changeWithoutInterval(a, b)
	if ea != nil && eb != nil {
		ch = changeOf(a, ea[0], ea[1], b, eb[0], eb[1])
	}
	d := Difference{Figure: name, A: a.String(), B: b.String(), Change: changeText(float64(a), float64(b), (b - a).String()),
		Interval: ch.String(), Verdict: ch.verdict()}
	if d.Interval == "-" {
		d.Interval = ""
	}
	c.out = append(c.out, d)
}

// symmetric is a recovery's t interval as the result keeps it, its low end held at 0, made
// whole again: the mean ± the longer of its half-widths (nil without an interval). Read as
// kept, the held end would shrink the change's interval on that side.
func symmetric(f perfv1alpha1.FaultOutcome) *[2]time.Duration {
	in := f.RecoveryInterval
	if in == nil || f.Recovery == nil {
		return nil
	}
	m := f.Recovery.Duration
	half := max(in.High.Duration-m, m-in.Low.Duration)
	return &[2]time.Duration{m - half, m + half}
}

// phaseMean is a count's mean a phase with the half-width of its 95% t interval over the
// run's repetitions, when it has one (0 when every phase counted alike).
type phaseMean struct {
	mean, half   float64
	ok, interval bool
}

// meanOf reads a mean a phase and its interval as the result writes them; the interval's
// low end is held at 0 there, so the longer of its sides is the half-width, as symmetric
// takes a recovery's.
func meanOf(mean, low, high string) phaseMean {
	m, err := strconv.ParseFloat(mean, 64)
	if err != nil {
		return phaseMean{}
	}
	l, errLow := strconv.ParseFloat(low, 64)
	h, errHigh := strconv.ParseFloat(high, 64)
	if errLow != nil || errHigh != nil {
		return phaseMean{mean: m, ok: true}
	}
	return phaseMean{mean: m, half: max(h-m, m-l), ok: true, interval: true}
}

// perPhase compares two means a phase: runs of different repetition counts compare alike,
// where their totals do not. The change's interval is the root sum of squares of the two
// half-widths (an approximation for two independent means, as Newcombe's is for two shares);
// without an interval on both sides no verdict is claimed.
func (c *comparer) perPhase(name string, a, b phaseMean) {
	if !a.ok || !b.ok {
		return
	}
	d := Difference{Figure: name, A: fmt.Sprintf("%.1f", a.mean), B: fmt.Sprintf("%.1f", b.mean), Change: fmt.Sprintf("%+.1f", b.mean-a.mean), Verdict: VerdictNoInterval}
	if a.interval && b.interval {
		half := math.Hypot(a.half, b.half)
		low, high := b.mean-a.mean-half, b.mean-a.mean+half
		d.Interval = fmt.Sprintf("[%+.1f, %+.1f]", low, high)
		switch {
		case low > 0:
			d.Verdict = VerdictMoreAPhase
		case high < 0:
			d.Verdict = VerdictFewerAPhase
		default:
			d.Verdict = VerdictNoDifference
		}
	}
	c.out = append(c.out, d)
}

// percent is a share as a percentage with two decimals.
func percent(share float64) string { return fmt.Sprintf("%.2f%%", 100*share) }
