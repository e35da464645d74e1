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
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

func dur(v float64) *metav1.Duration {
	return &metav1.Duration{Duration: time.Duration(v * float64(time.Millisecond))}
}

// fixture: a connections sweep whose Dapr p90 is 2 + conns/4 ms and baseline p90 0.5 ms.
func fixture() sweep.Measured {
	sw := sweep.Measured{PerfSweep: &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "conns"}}}
	for i, c := range []int32{1, 2, 4, 8, 16} {
		p90 := 2 + float64(c)/4
		cpu := resource.MustParse(fmt.Sprintf("%dm", 400+c))
		sw.Points = append(sw.Points, sweep.MeasuredPoint{SweepPointStatus: perfv1alpha1.SweepPointStatus{Step: int32(i), Connections: c, QPS: 1000,
			Phase: perfv1alpha1.PhaseSucceeded}, Figures: sweep.Figures{
			Latency:            &perfv1alpha1.PointLatency{P50: dur(p90 / 2), P90: dur(p90), P99: dur(p90 * 2)},
			Baseline:           &perfv1alpha1.PointLatency{P50: dur(0.3), P90: dur(0.5), P99: dur(1)},
			Added:              &perfv1alpha1.PointLatency{P50: dur(p90/2 - 0.3), P90: dur(p90 - 0.5), P99: dur(p90*2 - 1)},
			SidecarCPUPer1kQPS: &cpu}})
	}
	// a failed point is left out of every chart
	sw.Points = append(sw.Points, sweep.MeasuredPoint{SweepPointStatus: perfv1alpha1.SweepPointStatus{Step: 5, Connections: 64, Phase: perfv1alpha1.PhaseFailed}})
	return sw
}

func TestForSweepPlotsDaprsPublishedCharts(t *testing.T) {
	charts := ForSweep(fixture())
	if len(charts) != 2 || charts[0].Name != "latency-vs-connections" || charts[1].Name != "added-vs-connections" {
		t.Fatalf("charts %+v", charts)
	}
	names := []string{}
	for _, s := range charts[0].Series {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "dapr p50,dapr p90,dapr p99,baseline p50,baseline p90,baseline p99" {
		t.Errorf("series %s", got)
	}
	p90 := charts[0].Series[1]
	if fmt.Sprint(p90.X) != "[1 2 4 8 16]" || fmt.Sprint(p90.Y) != "[2.25 2.5 3 4 6]" {
		t.Errorf("dapr p90: x %v y %v", p90.X, p90.Y)
	}
	if added := charts[1].Series[1]; fmt.Sprint(added.Y) != "[1.75 2 2.5 3.5 5.5]" {
		t.Errorf("added p90 %v", added.Y)
	}
}

// Settings crossed with connections: a line per setting, each through its own points.
func TestASweepOfSettingsAndConnectionsDrawsALinePerSetting(t *testing.T) {
	sw := fixture()
	var points []sweep.MeasuredPoint
	for _, setting := range []string{"trace-0", "trace-1"} {
		for _, p := range sw.Points {
			p.Setting = setting
			points = append(points, p)
		}
	}
	sw.Points = points
	var added *Chart
	for i, c := range ForSweep(sw) {
		if c.Name == "added-vs-connections" {
			added = &ForSweep(sw)[i]
		}
	}
	if added == nil {
		t.Fatal("no added-vs-connections chart")
	}
	var names []string
	for _, s := range added.Series {
		names = append(names, s.Name)
		if fmt.Sprint(s.X) != "[1 2 4 8 16]" {
			t.Errorf("%s: x %v, want each setting's own five points", s.Name, s.X)
		}
	}
	if got := strings.Join(names, ","); got != "trace-0: added p50,trace-0: added p90,trace-0: added p99,trace-1: added p50,trace-1: added p90,trace-1: added p99" {
		t.Errorf("series %s", got)
	}
}

func TestRenderWritesPNGAndSVGThatCarryTheValues(t *testing.T) {
	c := ForSweep(fixture())[0]
	dir := t.TempDir()
	files, err := c.Render(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	f, err := os.Open(filepath.Join(dir, "latency-vs-connections.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// 16 cm × 9 cm at gonum's 96 dpi
	if b := img.Bounds(); b.Dx() != int(math.Round(Width.Dots(96))) || b.Dy() != int(math.Round(Height.Dots(96))) {
		t.Errorf("png is %dx%d", b.Dx(), b.Dy())
	}
	svg, err := os.ReadFile(filepath.Join(dir, "latency-vs-connections.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"conns: latency by client connections", "dapr p90", "baseline p99", "connections"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("svg lacks %q", want)
		}
	}
	// Every fixture value is drawn where the axes put it: redraw onto an SVG canvas of the
	// same size, map each point through the plot's own transforms, and find it in the paths.
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
	for _, s := range c.Series {
		for i := range s.X {
			pt := fmt.Sprintf("%.5g,%.5g", tx(s.X[i]).Points(), ty(s.Y[i]).Points())
			if !strings.Contains(paths, pt) {
				t.Errorf("%s (%v, %v) is not drawn at %s", s.Name, s.X[i], s.Y[i], pt)
			}
		}
	}
	if strings.Contains(paths, fmt.Sprintf("%.5g,%.5g", tx(3).Points(), ty(2.75).Points())) {
		t.Error("a value the fixture does not hold is drawn")
	}
}

func TestForHistoryMarksRegressions(t *testing.T) {
	start := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	var runs []document.Run
	for i, p90 := range []float64{1.4, 1.5, 2.4} {
		r := document.With(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Generation: 1, CreationTimestamp: metav1.NewTime(start.Add(time.Duration(i) * 24 * time.Hour))}},
			&perfv1alpha1.ResultDocument{})
		cpu := resource.MustParse("480m")
		r.Doc.Result = &perfv1alpha1.Result{Added: &perfv1alpha1.LatencySummary{P90: dur(p90), P99: dur(p90 * 2)},
			Resources: &perfv1alpha1.ResourceUsage{SidecarPer1kQPS: &perfv1alpha1.PerKQPS{CPU: &cpu}}}
		r.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, ObservedGeneration: 1}}
		if i == 2 {
			r.Status.Conditions = append(r.Status.Conditions, metav1.Condition{Type: perfv1alpha1.ConditionRegressed, Status: metav1.ConditionTrue, ObservedGeneration: 1})
		}
		runs = append(runs, r)
	}
	charts := ForHistory("nightly", []document.Run{runs[2], runs[0], runs[1]})
	added := charts[0]
	if fmt.Sprint(added.Series[0].X) != "[0 24 48]" || fmt.Sprint(added.Series[0].Y) != "[1.4 1.5 2.4]" {
		t.Errorf("added p90 over time: %v %v", added.Series[0].X, added.Series[0].Y)
	}
	if fmt.Sprint(added.Marks.X) != "[48]" || fmt.Sprint(charts[1].Marks.Y) != "[480]" {
		t.Errorf("regression marks %+v / %+v", added.Marks, charts[1].Marks)
	}
	if _, err := added.Render(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// Points at one X (a step, as a fault chart's windows meet) keep their order through the
// sort by X, however many there are.
func TestAStepKeepsItsOrder(t *testing.T) {
	var s Series
	for i := range 40 {
		s.X = append(s.X, float64(40-i), float64(40-i)) // descending, each X twice
		s.Y = append(s.Y, float64(i), float64(i)+0.5)
	}
	xy := points(s)
	for i := 0; i < len(xy); i += 2 {
		if xy[i].X != xy[i+1].X || xy[i].Y+0.5 != xy[i+1].Y {
			t.Fatalf("points %d and %d: %+v, %+v: the step's order was lost", i, i+1, xy[i], xy[i+1])
		}
	}
}
