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

package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/plots"
)

// faultWindowCharts draw each fault's error share through a phase, one chart per fault and
// path: each window's share (before, during and after the fault, summed over the phases it
// was applied in) held across the window's seconds, its 95% interval at the window's
// middle, and a cross where the path was back within its pre-fault band (the mean
// recovery, timed from the fault's own end as the result times it). The windows' seconds
// are their phase's: each window's, over the phases. A share is its window's mean; the
// second-by-second shape inside a window is not in the result, and the chart's title says
// so.
func faultWindowCharts(spec *perfv1alpha1.PerfRunSpec, res *perfv1alpha1.Result) []plots.Chart {
	if res == nil {
		return nil
	}
	var charts []plots.Chart
	named := map[string]int{}
	for _, o := range res.Faults {
		if o.Applied <= 0 || o.During.Requests == 0 {
			continue // never applied: nothing to draw against
		}
		phases := float64(o.Applied)
		s := plots.Series{Name: "error share, each window's mean"}
		x := 0.0
		for _, w := range []perfv1alpha1.FaultWindow{o.Before, o.During, o.After} {
			width := float64(w.Seconds) / phases
			share, ok := parsePercent(w.ErrorPercent)
			if width <= 0 || !ok {
				x += max(width, 0)
				continue
			}
			low, lok := parsePercent(w.ErrorPercentLow)
			high, hok := parsePercent(w.ErrorPercentHigh)
			if !lok || !hok {
				low, high = math.NaN(), math.NaN()
			}
			s.X = append(s.X, x, x+width/2, x+width)
			s.Y = append(s.Y, share, share, share)
			s.Low = append(s.Low, math.NaN(), low, math.NaN())
			s.High = append(s.High, math.NaN(), high, math.NaN())
			x += width
		}
		c := plots.Chart{Name: uniqueName(named, "fault-"+strconv.Itoa(int(o.Fault))+"-"+fileSafe(o.Path)),
			Title:  fmt.Sprintf("Fault %d (%s), %s path: error share by window over %d phases", o.Fault, o.Kind, o.Path, o.Applied),
			XLabel: "seconds into the phase", YLabel: "requests failed (%)", Series: []plots.Series{s}}
		if o.Recovery != nil {
			if before, ok := parsePercent(o.Before.ErrorPercent); ok {
				c.Marks = plots.Series{Name: fmt.Sprintf("back within its pre-fault band (mean recovery, %d of %d phases recovered)", o.Recovered, o.Applied),
					X: []float64{faultEnd(spec, o) + o.Recovery.Seconds()}, Y: []float64{before}}
			}
		}
		charts = append(charts, c)
	}
	return charts
}

// faultEnd is when, in seconds into a phase, the fault o ended, the mean over its phases:
// what its recovery is timed from. A PodKill held until its replacement was ready (its
// kills' readyAfter, the duration for one never ready); the others for their duration. A
// fault the spec no longer holds ends where its during window does, up to a second late:
// that window holds every second the fault touched at all.
func faultEnd(spec *perfv1alpha1.PerfRunSpec, o perfv1alpha1.FaultOutcome) float64 {
	f, ok := specFault(spec, o)
	if !ok {
		return (float64(o.Before.Seconds) + float64(o.During.Seconds)) / float64(o.Applied)
	}
	held := f.Duration.Seconds()
	if f.Kind == perfv1alpha1.FaultPodKill && len(o.Kills) > 0 {
		sum := 0.0
		for _, k := range o.Kills {
			if k.ReadyAfter != nil && k.ReadyAfter.Duration < f.Duration.Duration {
				sum += k.ReadyAfter.Seconds()
			} else {
				sum += held
			}
		}
		held = sum / float64(len(o.Kills))
	}
	return f.At.Seconds() + held
}

// uniqueName is name, or name-2, name-3 … when a chart already took it: two outcomes
// whose paths differ only in characters fileSafe folds would otherwise share a file.
func uniqueName(taken map[string]int, name string) string {
	taken[name]++
	if n := taken[name]; n > 1 {
		return uniqueName(taken, name+"-"+strconv.Itoa(n))
	}
	return name
}

// parsePercent reads a result's percentage ("12.50"); false for none.
func parsePercent(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// fileSafe is name with every character but a-z, 0-9 and '-' made '-': a chart's name is
// its files' name, and a path's name is the run author's.
func fileSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, strings.ToLower(name))
}
