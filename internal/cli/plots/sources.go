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

package plots

import (
	"math"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// ForSweep returns the charts a sweep's points make: against connections (Dapr's published
// charts) and against rate, whichever the sweep varied, for a search against the rates it
// tried, and for a sweep of settings, by setting.
func ForSweep(sw sweep.Measured) []Chart {
	var points []sweep.MeasuredPoint
	for _, p := range sw.Points {
		if p.Phase == perfv1alpha1.PhaseSucceeded && p.Latency != nil {
			points = append(points, p)
		}
	}
	var out []Chart
	if varies(points, func(p sweep.MeasuredPoint) float64 { return float64(p.Connections) }) {
		x := func(p sweep.MeasuredPoint) float64 { return float64(p.Connections) }
		out = append(out,
			Chart{Name: "latency-vs-connections", Title: sw.Name + ": latency by client connections",
				XLabel: "connections", YLabel: "latency (ms)", Series: perSetting(points, func(ps []sweep.MeasuredPoint) []Series { return latencySeries(ps, x) }), LogX: true},
			addedChart(sw.Name, points, x))
	}
	if sw.Spec.Search != nil || varies(points, func(p sweep.MeasuredPoint) float64 { return float64(p.QPS) }) {
		x := func(p sweep.MeasuredPoint) float64 { return float64(p.QPS) }
		out = append(out,
			Chart{Name: "latency-vs-qps", Title: sw.Name + ": latency by requested rate",
				XLabel: "requested rate (qps)", YLabel: "latency (ms)", Series: perSetting(points, func(ps []sweep.MeasuredPoint) []Series { return latencySeries(ps, x) })},
			Chart{Name: "sidecar-cpu-vs-qps", Title: sw.Name + ": server sidecar CPU per 1000 rps, by rate",
				XLabel: "requested rate (qps)", YLabel: "millicores per 1000 rps", Series: perSetting(points, func(ps []sweep.MeasuredPoint) []Series {
					return nonEmpty(series("sidecar CPU", ps, x, func(p sweep.MeasuredPoint) (float64, bool) {
						if p.SidecarCPUPer1kQPS == nil {
							return 0, false
						}
						return float64(p.SidecarCPUPer1kQPS.MilliValue()), true
					}))
				})})
	}
	return append(out, settingCharts(sw, points)...)
}

// addedChart is the added latency by connections, with each point's 95% interval as error
// bars when the points have one (the legend says which series have them).
func addedChart(name string, points []sweep.MeasuredPoint, x func(sweep.MeasuredPoint) float64) Chart {
	return Chart{Name: "added-vs-connections", Title: name + ": latency Dapr adds, by client connections",
		XLabel: "connections", YLabel: "added latency (ms)", LogX: true,
		Series: perSetting(points, func(ps []sweep.MeasuredPoint) []Series { return addedSeries(ps, x) })}
}

// perSetting makes each setting's series from its own points, named after it, when the
// sweep crossed settings with another list: a line per setting, never one line zigzagging
// through them.
func perSetting(points []sweep.MeasuredPoint, of func([]sweep.MeasuredPoint) []Series) []Series {
	var order []string
	groups := map[string][]sweep.MeasuredPoint{}
	for _, p := range points {
		if _, seen := groups[p.Setting]; !seen {
			order = append(order, p.Setting)
		}
		groups[p.Setting] = append(groups[p.Setting], p)
	}
	if len(order) < 2 {
		return of(points)
	}
	var out []Series
	for _, name := range order {
		for _, s := range of(groups[name]) {
			s.Name = name + ": " + s.Name
			out = append(out, s)
		}
	}
	return out
}

// nonEmpty drops the series without a point.
func nonEmpty(series ...Series) []Series {
	var out []Series
	for _, s := range series {
		if len(s.X) > 0 {
			out = append(out, s)
		}
	}
	return out
}

func varies(points []sweep.MeasuredPoint, x func(sweep.MeasuredPoint) float64) bool {
	seen := map[float64]bool{}
	for _, p := range points {
		seen[x(p)] = true
	}
	return len(seen) > 1
}

type pick func(*perfv1alpha1.PointLatency) *metav1.Duration

// latencySeries: the measured path's p50/p90/p99, then the baseline's when measured.
func latencySeries(points []sweep.MeasuredPoint, x func(sweep.MeasuredPoint) float64) []Series {
	var out []Series
	for _, path := range []struct {
		name string
		of   func(sweep.MeasuredPoint) *perfv1alpha1.PointLatency
	}{
		{"dapr", func(p sweep.MeasuredPoint) *perfv1alpha1.PointLatency { return p.Latency }},
		{"baseline", func(p sweep.MeasuredPoint) *perfv1alpha1.PointLatency { return p.Baseline }},
	} {
		for _, f := range perfv1alpha1.HeadlinePercentiles {
			s := series(path.name+" "+f.Name, points, x, ms(path.of, f.OfPoint))
			if len(s.X) > 0 {
				out = append(out, s)
			}
		}
	}
	return out
}

// addedSeries: the added p50/p90/p99, each point with its 95% interval where the point
// has both ends (addedLow, addedHigh).
func addedSeries(points []sweep.MeasuredPoint, x func(sweep.MeasuredPoint) float64) []Series {
	var out []Series
	for _, f := range perfv1alpha1.HeadlinePercentiles {
		if s := addedFigureSeries("added "+f.Name, points, x, f); len(s.X) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// addedFigureSeries is one added percentile f of the points, each with its 95% interval as
// error bars where the point has both ends; the name says when bars are drawn.
func addedFigureSeries(name string, points []sweep.MeasuredPoint, x func(sweep.MeasuredPoint) float64, f perfv1alpha1.LatencyFigure) Series {
	added := ms(func(p sweep.MeasuredPoint) *perfv1alpha1.PointLatency { return p.Added }, f.OfPoint)
	low := ms(func(p sweep.MeasuredPoint) *perfv1alpha1.PointLatency { return p.AddedLow }, f.OfPoint)
	high := ms(func(p sweep.MeasuredPoint) *perfv1alpha1.PointLatency { return p.AddedHigh }, f.OfPoint)
	s := Series{Name: name}
	bounded := false
	for _, p := range points {
		v, ok := added(p)
		if !ok {
			continue
		}
		l, lok := low(p)
		h, hok := high(p)
		if !lok || !hok {
			l, h = math.NaN(), math.NaN()
		}
		bounded = bounded || lok && hok
		s.X, s.Y, s.Low, s.High = append(s.X, x(p)), append(s.Y, v), append(s.Low, l), append(s.High, h)
	}
	if bounded {
		s.Name += " (bars: 95% interval)"
	} else {
		s.Low, s.High = nil, nil
	}
	return s
}

func ms(of func(sweep.MeasuredPoint) *perfv1alpha1.PointLatency, pc pick) func(sweep.MeasuredPoint) (float64, bool) {
	return func(p sweep.MeasuredPoint) (float64, bool) {
		l := of(p)
		if l == nil || pc(l) == nil {
			return 0, false
		}
		return float64(pc(l).Duration) / float64(time.Millisecond), true
	}
}

func series(name string, points []sweep.MeasuredPoint, x func(sweep.MeasuredPoint) float64,
	y func(sweep.MeasuredPoint) (float64, bool)) Series {
	s := Series{Name: name}
	for _, p := range points {
		if v, ok := y(p); ok {
			s.X, s.Y = append(s.X, x(p)), append(s.Y, v)
		}
	}
	return s
}

// ForHistory returns a schedule's trend: added p90/p99 and the server sidecar's CPU per
// 1000 rps of each successful run over time (hours since the first), regressed runs marked.
func ForHistory(name string, runs []document.Run) []Chart {
	runs = slices.Clone(runs)
	slices.SortFunc(runs, func(a, b document.Run) int { return a.CreationTimestamp.Compare(b.CreationTimestamp.Time) })
	var first time.Time
	added := []Series{{Name: "added p90"}, {Name: "added p99"}}
	cpu := Series{Name: "sidecar CPU per 1000 rps"}
	regressedAdded, regressedCPU := Series{Name: "regressed"}, Series{Name: "regressed"}
	for _, r := range runs {
		res := r.Result()
		if !r.Succeeded() || res == nil {
			continue
		}
		if first.IsZero() {
			first = r.CreationTimestamp.Time
		}
		x := r.CreationTimestamp.Sub(first).Hours()
		regressed := r.ConditionTrue(perfv1alpha1.ConditionRegressed)
		if a := res.Added; a != nil && !res.AddedLimitBound { // a limit-bound figure is a queue's
			for i, d := range []*metav1.Duration{a.P90, a.P99} {
				if d != nil {
					added[i].X, added[i].Y = append(added[i].X, x), append(added[i].Y, float64(d.Duration)/float64(time.Millisecond))
				}
			}
			if regressed && a.P90 != nil {
				regressedAdded.X, regressedAdded.Y = append(regressedAdded.X, x), append(regressedAdded.Y, float64(a.P90.Duration)/float64(time.Millisecond))
			}
		}
		if u := res.Resources; u != nil && u.SidecarPer1kQPS != nil && u.SidecarPer1kQPS.CPU != nil {
			v := float64(u.SidecarPer1kQPS.CPU.MilliValue())
			cpu.X, cpu.Y = append(cpu.X, x), append(cpu.Y, v)
			if regressed {
				regressedCPU.X, regressedCPU.Y = append(regressedCPU.X, x), append(regressedCPU.Y, v)
			}
		}
	}
	return []Chart{
		{Name: "trend-added-latency", Title: name + ": latency Dapr adds, run by run", XLabel: "hours since the first run",
			YLabel: "added latency (ms)", Series: added, Marks: regressedAdded},
		{Name: "trend-sidecar-cpu", Title: name + ": server sidecar CPU per 1000 rps, run by run", XLabel: "hours since the first run",
			YLabel: "millicores per 1000 rps", Series: []Series{cpu}, Marks: regressedCPU},
	}
}
