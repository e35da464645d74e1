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
)

// Verdicts of a soak's slope, from the interval of its change (B − A).
const (
	VerdictMoreAnHour = "more an hour"
	VerdictLessAnHour = "less an hour"
)

// slope is a trend's slope an hour with its 95% interval, as a soak's result writes it.
type slope struct{ mid, low, high float64 }

// slopeOf reads a slope written as decimal strings; false when any part is unreadable.
func slopeOf(mid, low, high string) (slope, bool) {
	m, errMid := strconv.ParseFloat(mid, 64)
	l, errLow := strconv.ParseFloat(low, 64)
	h, errHigh := strconv.ParseFloat(high, 64)
	return slope{m, l, h}, errMid == nil && errLow == nil && errHigh == nil
}

// trends adds each slope both results fitted over a soak: each sidecar's working set, each
// daprd's goroutines and open files, and the measured path's p90 drift. The change B − A
// has the root sum of squares of the two intervals' half-widths (each a t interval around
// its slope, widened for serial correlation) as its own, as a mean a phase's has. Each
// interval is of its run's windows alone: a rerun's sidecar settles otherwise, so a change
// shown here may not recur. None is gated: a soak's own thresholds gate its slopes.
func (c *comparer) trends() {
	for _, ta := range c.a.MemoryTrends {
		for _, tb := range c.b.MemoryTrends {
			if ta.Role != tb.Role {
				continue
			}
			a, okA := slopeOf(ta.MiBPerHour, ta.Low, ta.High)
			b, okB := slopeOf(tb.MiBPerHour, tb.Low, tb.High)
			if okA && okB {
				c.slopeChange(ta.Role+" memory growth", a, b, func(v float64) string { return fmt.Sprintf("%.2f MiB/h", v) })
			}
		}
	}
	for _, ta := range c.a.DaprdTrends {
		for _, tb := range c.b.DaprdTrends {
			if ta.Sidecar != tb.Sidecar || ta.Gauge != tb.Gauge {
				continue
			}
			a, okA := slopeOf(ta.PerHour, ta.Low, ta.High)
			b, okB := slopeOf(tb.PerHour, tb.Low, tb.High)
			if okA && okB {
				c.slopeChange(ta.Sidecar+" "+ta.Gauge+" growth", a, b, func(v float64) string { return fmt.Sprintf("%.2f/h", v) })
			}
		}
	}
	if da, db := c.a.LatencyDrift, c.b.LatencyDrift; da != nil && db != nil && da.Path == db.Path {
		seconds := func(d perfv1alpha1.LatencyDrift) slope {
			return slope{d.PerHour.Seconds(), d.Low.Seconds(), d.High.Seconds()}
		}
		c.slopeChange(da.Path+" p90 drift", seconds(*da), seconds(*db), func(v float64) string {
			return time.Duration(v*float64(time.Second)).Round(time.Microsecond).String() + "/h"
		})
	}
}

// slopeChange compares two slopes by the interval of their change; unit writes a slope.
func (c *comparer) slopeChange(name string, a, b slope, unit func(float64) string) {
	half := math.Hypot((a.high-a.low)/2, (b.high-b.low)/2)
	d := b.mid - a.mid
	verdict := VerdictNoDifference
	switch {
	case d-half > 0:
		verdict = VerdictMoreAnHour
	case d+half < 0:
		verdict = VerdictLessAnHour
	}
	sign := func(v float64) string {
		if v >= 0 {
			return "+" + unit(v)
		}
		return unit(v)
	}
	c.out = append(c.out, Difference{Figure: name, A: unit(a.mid), B: unit(b.mid), Change: sign(d),
		Interval: "[" + sign(d-half) + ", " + sign(d+half) + "]", Verdict: verdict})
}
