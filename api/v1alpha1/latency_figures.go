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

package v1alpha1

import (
	"math"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LatencyFigure is one figure of a LatencySummary — a percentile, the mean or the maximum —
// with its name. The figures below are the one place a percentile is tied to its field.
// +kubebuilder:object:generate=false
type LatencyFigure struct {
	// Name is how reports, gates and events write it: p50 … p99.9, avg, max.
	Name string
	// Percentile is 50 … 99.9; 0 for avg and max.
	Percentile float64
	field      func(*LatencySummary) **metav1.Duration
	// point is the figure's field in a sweep point's compact PointLatency; nil for the
	// figures a point does not keep.
	point func(*PointLatency) **metav1.Duration
}

// Of is the figure's value in l; nil when l or the figure is absent.
func (f LatencyFigure) Of(l *LatencySummary) *metav1.Duration {
	if l == nil {
		return nil
	}
	return *f.field(l)
}

// Set gives the figure its value in l.
func (f LatencyFigure) Set(l *LatencySummary, d *metav1.Duration) { *f.field(l) = d }

// OfPoint is the figure's value in a sweep point's latency; nil when absent or not kept.
func (f LatencyFigure) OfPoint(l *PointLatency) *metav1.Duration {
	if l == nil || f.point == nil {
		return nil
	}
	return *f.point(l)
}

// SetPoint gives the figure its value in a sweep point's latency (a figure a point does
// not keep is dropped).
func (f LatencyFigure) SetPoint(l *PointLatency, d *metav1.Duration) {
	if f.point != nil {
		*f.point(l) = d
	}
}

// Quantile is the figure's Prometheus quantile label ("0.9"), or its name for avg and max.
func (f LatencyFigure) Quantile() string {
	if f.Percentile == 0 {
		return f.Name
	}
	// Divided as integers (99900/100000), not 99.9/100: that quotient prints as
	// 0.9990000000000001, a label no query for quantile="0.999" finds.
	return strconv.FormatFloat(math.Round(f.Percentile*1000)/100000, 'f', -1, 64)
}

// The figures of a LatencySummary.
var (
	FigureP50 = LatencyFigure{"p50", 50, func(l *LatencySummary) **metav1.Duration { return &l.P50 },
		func(l *PointLatency) **metav1.Duration { return &l.P50 }}
	FigureP75 = LatencyFigure{"p75", 75, func(l *LatencySummary) **metav1.Duration { return &l.P75 }, nil}
	FigureP90 = LatencyFigure{"p90", 90, func(l *LatencySummary) **metav1.Duration { return &l.P90 },
		func(l *PointLatency) **metav1.Duration { return &l.P90 }}
	FigureP99 = LatencyFigure{"p99", 99, func(l *LatencySummary) **metav1.Duration { return &l.P99 },
		func(l *PointLatency) **metav1.Duration { return &l.P99 }}
	FigureP999 = LatencyFigure{"p99.9", 99.9, func(l *LatencySummary) **metav1.Duration { return &l.P999 }, nil}
	FigureAvg  = LatencyFigure{"avg", 0, func(l *LatencySummary) **metav1.Duration { return &l.Avg }, nil}
	FigureMax  = LatencyFigure{"max", 0, func(l *LatencySummary) **metav1.Duration { return &l.Max }, nil}

	// LatencyPercentiles are the percentiles every summary holds, in order.
	LatencyPercentiles = []LatencyFigure{FigureP50, FigureP75, FigureP90, FigureP99, FigureP999}
	// PercentilesAndMean are the figures an added latency has (a maximum does not subtract).
	PercentilesAndMean = []LatencyFigure{FigureP50, FigureP75, FigureP90, FigureP99, FigureP999, FigureAvg}
	// LatencyFigures are the percentiles, then the mean and the maximum.
	LatencyFigures = []LatencyFigure{FigureP50, FigureP75, FigureP90, FigureP99, FigureP999, FigureAvg, FigureMax}
	// HeadlinePercentiles are the percentiles comparisons and charts show, and the ones a
	// sweep point keeps (PointLatency).
	HeadlinePercentiles = []LatencyFigure{FigureP50, FigureP90, FigureP99}
)

// Compact is l's headline percentiles as a sweep point or a result digest keeps them; nil
// for nil.
func Compact(l *LatencySummary) *PointLatency {
	if l == nil {
		return nil
	}
	p := &PointLatency{}
	for _, f := range HeadlinePercentiles {
		if d := f.Of(l); d != nil {
			f.SetPoint(p, &metav1.Duration{Duration: d.Duration})
		}
	}
	return p
}

// SummaryAt builds a summary whose percentiles are at(percentile), with avg and max as given.
func SummaryAt(at func(percentile float64) *metav1.Duration, avg, maxLatency *metav1.Duration) *LatencySummary {
	l := &LatencySummary{Avg: avg, Max: maxLatency}
	for _, f := range LatencyPercentiles {
		f.Set(l, at(f.Percentile))
	}
	return l
}
