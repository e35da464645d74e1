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

// Package plots draws the charts Dapr publishes — latency against connections, with and
// without Dapr, and the added latency — plus latency and sidecar CPU against rate, and a
// schedule's trend, as PNG and SVG (gonum.org/v1/plot).
package plots

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Size of every chart: 16 cm × 9 cm.
const (
	Width  = 16 * vg.Centimeter
	Height = 9 * vg.Centimeter
)

// Series is one line of a chart.
type Series struct {
	Name string
	X, Y []float64
	// Low and High, when set, are the ends of each point's interval (the same length as X;
	// NaN where a point has none): drawn as error bars in the series' colour.
	Low, High []float64
}

// Chart is what one image shows.
type Chart struct {
	// Name is the file name without extension, e.g. "latency-vs-connections".
	Name           string
	Title          string
	XLabel, YLabel string
	Series         []Series
	// Marks are points drawn as red crosses on top, e.g. regressed runs.
	Marks Series
	// LogX draws X on a log scale, ticked at the values plotted (connections: 1, 2, 4 … 64).
	LogX bool
	// XTickLabel, when set, names the ticks of a log X (a percentile for 1/(1-p)).
	XTickLabel func(x float64) string
	// Categories, when set, make X categorical: X is an index into them, each tick is named
	// by one, and series are drawn as points without lines (a line between two settings
	// would suggest values between them).
	Categories []string
}

// palette: Dapr path warm, baseline cool, one shade per percentile.
var palette = []color.RGBA{
	{0xd6, 0x27, 0x28, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
	{0x1f, 0x77, 0xb4, 0xff}, {0x17, 0xbe, 0xcf, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
}

// Plot builds the chart's plot.
func (c Chart) Plot() (*plot.Plot, error) {
	if c.LogX {
		c = c.onLogX()
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = c.Title, c.XLabel, c.YLabel
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(8) // clear of the Y axis
	// latency and CPU start at zero: no exaggerated slopes
	p.Y.Min = 0
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		var ticks []plot.Tick
		for _, x := range xValues(c.Series) {
			label := strconv.FormatFloat(x, 'g', -1, 64)
			if c.XTickLabel != nil {
				label = c.XTickLabel(x)
			}
			ticks = append(ticks, plot.Tick{Value: x, Label: label})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	if len(c.Categories) > 0 {
		ticks := make([]plot.Tick, len(c.Categories))
		for i, name := range c.Categories {
			ticks[i] = plot.Tick{Value: float64(i), Label: name}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	for i, s := range c.Series {
		xy := points(s)
		if len(xy) == 0 {
			continue
		}
		line, dots, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", c.Name, s.Name, err)
		}
		line.Color, dots.Color = palette[i%len(palette)], palette[i%len(palette)]
		dots.Shape = draw.CircleGlyph{}
		if len(c.Categories) > 0 {
			p.Add(dots)
			p.Legend.Add(s.Name, dots)
		} else {
			p.Add(line, dots)
			p.Legend.Add(s.Name, line, dots)
		}
		if bars := intervals(s); len(bars.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, fmt.Errorf("%s, %s interval: %w", c.Name, s.Name, err)
			}
			eb.Color = palette[i%len(palette)]
			p.Add(eb)
		}
	}
	if xy := points(c.Marks); len(xy) > 0 {
		marks, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		marks.Shape, marks.Color, marks.Radius = draw.CrossGlyph{}, color.RGBA{R: 0xff, A: 0xff}, vg.Points(5)
		p.Add(marks)
		p.Legend.Add(c.Marks.Name, marks)
	}
	if len(c.Categories) > 0 {
		// Half a category of room on either side, so the outer points and labels show.
		p.X.Min, p.X.Max = -0.5, float64(len(c.Categories))-0.5
	}
	if c.LogX {
		// Room beyond the outer ticks: their labels are centred on them, and the last one
		// was cut at the canvas' edge.
		p.X.Min, p.X.Max = p.X.Min/1.12, p.X.Max*1.12
	}
	return p, nil
}

// HasData is whether the chart has a point to draw: a chart without one is left out of a
// report rather than drawn as empty axes.
func (c Chart) HasData() bool {
	if c.LogX {
		c = c.onLogX()
	}
	for _, s := range append(slices.Clone(c.Series), c.Marks) {
		if len(points(s)) > 0 {
			return true
		}
	}
	return false
}

// errorBars are the points of a series that have an interval, with its ends relative to
// the point as gonum's error bars take them.
type errorBars struct {
	plotter.XYs
	plotter.YErrors
}

func (e errorBars) Len() int { return len(e.XYs) }

// intervals are the error bars of s's points that have both ends of an interval. An end on
// the wrong side of its point (a hand-edited status) is drawn at the point.
func intervals(s Series) errorBars {
	var out errorBars
	for i := range min(len(s.X), len(s.Y), len(s.Low), len(s.High)) {
		low, high := s.Low[i], s.High[i]
		if math.IsNaN(low) || math.IsNaN(high) || math.IsInf(low, 0) || math.IsInf(high, 0) {
			continue
		}
		out.XYs = append(out.XYs, plotter.XY{X: s.X[i], Y: s.Y[i]})
		out.YErrors = append(out.YErrors, struct{ Low, High float64 }{max(0, s.Y[i]-low), max(0, high-s.Y[i])})
	}
	return out
}

// xValues are the distinct X values of every series, ascending.
func xValues(series []Series) []float64 {
	var xs []float64
	for _, s := range series {
		xs = append(xs, s.X...)
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// points pairs X and Y, sorted by X.
func points(s Series) plotter.XYs {
	xy := make(plotter.XYs, 0, len(s.X))
	for i := range min(len(s.X), len(s.Y)) {
		xy = append(xy, plotter.XY{X: s.X[i], Y: s.Y[i]})
	}
	// Stable: a step (two points at one X, as a fault's windows meet) keeps its order.
	slices.SortStableFunc(xy, func(a, b plotter.XY) int {
		switch {
		case a.X < b.X:
			return -1
		case a.X > b.X:
			return 1
		}
		return 0
	})
	return xy
}

// Render writes the chart as <dir>/<name>.png and .svg and returns their paths.
func (c Chart) Render(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p, err := c.Plot()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, ext := range []string{"png", "svg"} {
		f := filepath.Join(dir, c.Name+"."+ext)
		if err := p.Save(Width, Height, f); err != nil {
			return files, fmt.Errorf("writing %s: %w", f, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// onLogX leaves out the points a log scale cannot place (X ≤ 0: a hand-edited sweep point
// of 0 connections made gonum panic), and draws X linear when fewer than two X are left.
func (c Chart) onLogX() Chart {
	positive := func(s Series) Series {
		out := Series{Name: s.Name}
		bounded := len(s.Low) == len(s.X) && len(s.High) == len(s.X)
		for i := range min(len(s.X), len(s.Y)) {
			if s.X[i] > 0 {
				out.X, out.Y = append(out.X, s.X[i]), append(out.Y, s.Y[i])
				if bounded {
					out.Low, out.High = append(out.Low, s.Low[i]), append(out.High, s.High[i])
				}
			}
		}
		return out
	}
	series := make([]Series, len(c.Series))
	for i, s := range c.Series {
		series[i] = positive(s)
	}
	c.Series, c.Marks = series, positive(c.Marks)
	c.LogX = len(xValues(c.Series)) > 1 // gonum widens a one-value range by ±1, to 0
	return c
}
