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
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// withIntervals gives every successful point of the fixture an added p90 interval of
// ±0.25 ms, and the p99 none.
func withIntervals() sweep.Measured {
	sw := fixture()
	for i, p := range sw.Points {
		if p.Added == nil {
			continue
		}
		v := float64(p.Added.P90.Duration) / 1e6
		sw.Points[i].AddedLow = &perfv1alpha1.PointLatency{P90: dur(v - 0.25)}
		sw.Points[i].AddedHigh = &perfv1alpha1.PointLatency{P90: dur(v + 0.25)}
	}
	return sw
}

// drawnPaths draws c on an SVG canvas and returns its path data and the plot's transforms.
func drawnPaths(t *testing.T, c Chart) (string, func(x, y float64) string) {
	t.Helper()
	p, err := c.Plot()
	if err != nil {
		t.Fatal(err)
	}
	canvas := vgsvg.New(Width, Height)
	dc := draw.New(canvas)
	p.Draw(dc)
	data := p.DataCanvas(dc)
	tx, ty := p.Transforms(&data)
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	paths := strings.Join(regexp.MustCompile(` d="([^"]+)"`).FindAllString(buf.String(), -1), " ")
	return paths, func(x, y float64) string { return fmt.Sprintf("%.5g,%.5g", tx(x).Points(), ty(y).Points()) }
}

// Issue 36 item 7: added-vs-connections dropped the interval each point has.
func TestAddedVsConnectionsDrawsEachPointsInterval(t *testing.T) {
	added := ForSweep(withIntervals())[1]
	if added.Name != "added-vs-connections" {
		t.Fatalf("chart %s", added.Name)
	}
	p90 := added.Series[1]
	if fmt.Sprint(p90.Low) != "[1.5 1.75 2.25 3.25 5.25]" || fmt.Sprint(p90.High) != "[2 2.25 2.75 3.75 5.75]" {
		t.Errorf("added p90 interval: low %v high %v", p90.Low, p90.High)
	}
	if p99 := added.Series[2]; p99.Low != nil || p99.High != nil {
		t.Errorf("added p99 has no interval in the status, the chart gives it %v..%v", p99.Low, p99.High)
	}
	if p90.Name != "added p90 (bars: 95% interval)" || added.Series[2].Name != "added p99" {
		t.Errorf("the legend does not say which series have bars: %q, %q", p90.Name, added.Series[2].Name)
	}
	paths, at := drawnPaths(t, added)
	for i, x := range p90.X {
		// an error bar is a vertical line from the low end to the high end
		bar := "M" + at(x, p90.Low[i]) + "L" + at(x, p90.High[i])
		if !strings.Contains(strings.ReplaceAll(paths, " ", ""), strings.ReplaceAll(bar, " ", "")) {
			t.Errorf("no error bar at connections %v from %v to %v ms (%s)", x, p90.Low[i], p90.High[i], bar)
		}
	}
	// The chart without intervals draws no bar.
	plain := ForSweep(fixture())[1]
	if plain.Series[1].Low != nil || strings.Contains(plain.Series[1].Name, "interval") {
		t.Errorf("a sweep without intervals: %+v", plain)
	}
}

// A point whose interval's ends are out of order or on the wrong side of the point (a
// hand-edited status) still draws, and a point with one end alone draws no bar.
func TestAnIntervalOnTheWrongSideStillDraws(t *testing.T) {
	sw := withIntervals()
	sw.Points[0].AddedLow, sw.Points[0].AddedHigh = sw.Points[0].AddedHigh, sw.Points[0].AddedLow
	sw.Points[1].AddedHigh = nil
	added := ForSweep(sw)[1]
	if bars := intervals(added.Series[1]); len(bars.XYs) != 4 {
		t.Errorf("%d bars, want 4 (the point with one end has none)", len(bars.XYs))
	}
	if _, err := added.Render(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// Issue 36 item 7: a chart with no data was drawn as empty axes.
func TestChartsWithoutDataSayTheyHaveNone(t *testing.T) {
	// A search whose every step failed: no point to draw on either rate chart.
	sw := fixture()
	sw.Spec.Search = &perfv1alpha1.RateSearch{StartQPS: 100}
	for i := range sw.Points {
		sw.Points[i].Phase = perfv1alpha1.PhaseFailed
	}
	charts := ForSweep(sw)
	if len(charts) == 0 {
		t.Fatal("a search makes its rate charts")
	}
	for _, c := range charts {
		if c.HasData() {
			t.Errorf("%s claims data: %+v", c.Name, c.Series)
		}
	}
	// Points without the sidecar's CPU: that chart alone has none.
	sw = fixture()
	for i := range sw.Points {
		sw.Points[i].SidecarCPUPer1kQPS = nil
		sw.Points[i].QPS = int32(100 * (i + 1))
	}
	for _, c := range ForSweep(sw) {
		if want := c.Name != "sidecar-cpu-vs-qps"; c.HasData() != want {
			t.Errorf("%s: HasData %v, want %v", c.Name, c.HasData(), want)
		}
	}
	// Every point at 0 or fewer connections (hand-edited): nothing a log axis can place.
	sw = fixture()
	for i := range sw.Points {
		sw.Points[i].Connections = int32(-4 * (i % 2))
	}
	for _, c := range ForSweep(sw) {
		if c.LogX && c.HasData() {
			t.Errorf("%s has data on a log axis of 0 and -4 connections only", c.Name)
		}
	}
	// A schedule without a successful run: no trend.
	for _, c := range ForHistory("empty", nil) {
		if c.HasData() {
			t.Errorf("%s has data", c.Name)
		}
	}
}
