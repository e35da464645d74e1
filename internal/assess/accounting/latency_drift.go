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

package accounting

import (
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// minWindowRequests is the fewest successes a window's p90 is taken from: below it the
// percentile is a handful of requests, not the path's.
const minWindowRequests = 20

// maxChangePoints is the most change points a drift names (the API's bound): the first in
// time.
const maxChangePoints = 16

// driftSeed fixes the permutation tests' draws: one soak, one answer.
const driftSeed = 0x6472696674 // "drift"

// LatencyDrift fits the p90 of the measured variant's latency windows against time: the
// windows wholly inside its phases, trim inside each, with minWindowRequests successes or
// more, over a load from the first such phase's start to the last one's end. It names the
// points where the p90 changed level (E-divisive means, as a schedule's history is judged).
// Nil for a load shorter than MinTrendSpan or with fewer than minTrendWindows windows.
func LatencyDrift(windows []result.LatencyWindows, phases []Phase, measured string, trim time.Duration) *perfv1alpha1.LatencyDrift {
	own, ok := phasesOf(phases, measured, trim)
	if !ok {
		return nil
	}
	inside := func(from, to time.Time) bool {
		return slices.ContainsFunc(own, func(p Phase) bool { return !from.Before(p.Start.Add(trim)) && !to.After(p.End.Add(-trim)) })
	}
	type point struct {
		from, mid time.Time
		p90       time.Duration
	}
	var points []point
	var width int
	for _, w := range windows {
		if string(w.Variant) != measured {
			continue
		}
		for k, win := range w.Windows {
			from, to := w.WindowSpan(k)
			if win.Successes < minWindowRequests || !inside(from, to) {
				continue
			}
			points = append(points, point{from: from, mid: from.Add(to.Sub(from) / 2), p90: time.Duration(win.P90Us) * time.Microsecond})
			width = w.Width
		}
	}
	if len(points) < minTrendWindows {
		return nil
	}
	slices.SortFunc(points, func(a, b point) int { return a.from.Compare(b.from) })
	origin := own[0].Start
	x, y := make([]float64, len(points)), make([]float64, len(points))
	for i, p := range points {
		x[i], y[i] = p.mid.Sub(origin).Hours(), p.p90.Seconds()
	}
	s, ok := stats.SlopeInterval(x, y)
	if !ok {
		return nil
	}
	seconds := func(v float64) metav1.Duration {
		return metav1.Duration{Duration: time.Duration(v * float64(time.Second)).Round(time.Microsecond)}
	}
	drift := &perfv1alpha1.LatencyDrift{Path: result.Variant(measured).String(), PerHour: seconds(s.Slope), Low: seconds(s.Low), High: seconds(s.High),
		Lag1: decimal(s.Lag1), Windows: int32(len(points)), Width: metav1.Duration{Duration: time.Duration(width) * time.Second},
		Span:  metav1.Duration{Duration: points[len(points)-1].mid.Sub(points[0].mid).Round(time.Second)},
		Start: seconds(s.Intercept + s.Slope*x[0]), End: seconds(s.Intercept + s.Slope*x[len(x)-1])}
	cps := regression.ChangePoints(y, driftSeed)
	bounds := append(append([]int{0}, cps...), len(y))
	for i, at := range cps {
		if i == maxChangePoints {
			break
		}
		drift.ChangePoints = append(drift.ChangePoints, perfv1alpha1.LatencyChangePoint{At: metav1.NewTime(points[at].from),
			Before: seconds(repetitions.Median(y[bounds[i]:at])), After: seconds(repetitions.Median(y[at:bounds[i+2]]))})
	}
	return drift
}
