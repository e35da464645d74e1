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
	"strings"
	"time"
)

// Verdicts of one compared figure, from the interval of its change (B − A).
const (
	VerdictSlower       = "slower"
	VerdictFaster       = "faster"
	VerdictNoDifference = "no difference shown"
	VerdictNoInterval   = "no interval (one repetition)"
)

// Gate outcomes of one gated figure.
const (
	GatePassed       = "passed"
	GateSlower       = "slower than allowed"
	GateInconclusive = "inconclusive"
)

// MaxSlowdown is how much slower B may be than A before a gated figure fails: a duration
// (200us) or a percentage of A's value of the figure (10%). Zero: any slowdown shown
// beyond noise fails.
type MaxSlowdown struct {
	percent float64
	abs     time.Duration
	text    string
}

// NoSlowdown is --max-slowdown's default: any slowdown shown beyond noise fails.
func NoSlowdown() MaxSlowdown { return MaxSlowdown{text: "0"} }

func (m *MaxSlowdown) String() string { return m.text }
func (m *MaxSlowdown) Type() string   { return "slowdown" }

// Set parses 10%, 2.5% or a Go duration; refused before any connection is made.
func (m *MaxSlowdown) Set(s string) error {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || v < 0 || v > 1000 || math.IsNaN(v) {
			return fmt.Errorf("%q: a percentage from 0%% to 1000%%, or a duration such as 200us", s)
		}
		*m = MaxSlowdown{percent: v, text: s}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q: a percentage such as 10%%, or a duration such as 200us", s)
	}
	*m = MaxSlowdown{abs: d, text: s}
	return nil
}

// limit is the slowdown allowed for a figure whose reference value is a.
func (m *MaxSlowdown) limit(a time.Duration) time.Duration {
	if m.percent > 0 {
		return time.Duration(math.Max(float64(a), 0) * m.percent / 100)
	}
	return m.abs
}

// delta is one figure's change from A to B with the interval of that change.
type delta struct {
	a, b     time.Duration
	low      time.Duration // lowest change the two sides' uncertainty allows
	high     time.Duration // highest
	interval bool          // false: at least one side has no interval
}

// changeOf combines the two sides' 95% intervals of added latency as independent
// estimates: the change's half-widths are the root sum of squares of the sides' (the
// lower end from B's lower and A's upper half-width, and the other way round). Two
// intervals that merely overlap can still show a change; this does not demand they part.
func changeOf(a, loA, hiA, b, loB, hiB time.Duration) delta {
	rss := func(x, y time.Duration) time.Duration {
		return time.Duration(math.Sqrt(float64(x)*float64(x) + float64(y)*float64(y)))
	}
	diff := b - a
	return delta{a: a, b: b, interval: true,
		low:  diff - rss(b-loB, hiA-a),
		high: diff + rss(hiB-b, a-loA)}
}

// changeOfSpreads bounds a change by the repetitions' lowest and highest values: every
// pairing of a repetition of A with one of B lies inside. It is not a confidence interval,
// so it is wider; it is what a measured percentile has.
func changeOfSpreads(a, loA, hiA, b, loB, hiB time.Duration) delta {
	return delta{a: a, b: b, interval: true, low: loB - hiA, high: hiB - loA}
}

func changeWithoutInterval(a, b time.Duration) delta {
	return delta{a: a, b: b, low: b - a, high: b - a}
}

// verdict says what the change shows.
func (c delta) verdict() string {
	switch {
	case !c.interval:
		return VerdictNoInterval
	case c.low > 0:
		return VerdictSlower
	case c.high < 0:
		return VerdictFaster
	}
	return VerdictNoDifference
}

// gate judges the change against the slowdown allowed: failed when even its lowest value
// is above the limit, passed when its highest is at or below it, else inconclusive (no
// interval is inconclusive too).
func (c delta) gate(m *MaxSlowdown) (outcome string, limit time.Duration) {
	limit = m.limit(c.a)
	switch {
	case !c.interval:
		return GateInconclusive, limit
	case c.low > limit:
		return GateSlower, limit
	case c.high <= limit:
		return GatePassed, limit
	}
	return GateInconclusive, limit
}

func (c delta) String() string {
	if !c.interval {
		return "-"
	}
	return fmt.Sprintf("[%v, %v]", c.low.Round(time.Microsecond), c.high.Round(time.Microsecond))
}
