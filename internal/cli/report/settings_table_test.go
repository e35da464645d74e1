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
	"bytes"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/export"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

func us(n int) *metav1.Duration {
	return &metav1.Duration{Duration: time.Duration(n) * time.Microsecond}
}

func lat(p50, p90, p99 int) *perfv1alpha1.PointLatency {
	return &perfv1alpha1.PointLatency{P50: us(p50), P90: us(p90), P99: us(p99)}
}

// featureSweep is a measured sweep of settings: tracing 0 and 1 measured, mtls-off not
// (the cluster has mTLS on).
func featureSweep() sweep.Measured {
	cpu := resource.MustParse("120m")
	measured := func(step int32, setting string, base int) sweep.MeasuredPoint {
		return sweep.MeasuredPoint{SweepPointStatus: perfv1alpha1.SweepPointStatus{Step: step, Setting: setting, QPS: 1000, Connections: 16,
			Run: "features-1-" + setting, Phase: perfv1alpha1.PhaseSucceeded},
			Figures: sweep.Figures{ActualQPS: "999.9", Latency: lat(base+500, base+900, base+2000),
				Added: lat(base, base+100, base+300), AddedLow: lat(base-50, base+50, base+200), AddedHigh: lat(base+50, base+150, base+400),
				SidecarCPUPer1kQPS: &cpu}}
	}
	sw := sweep.Measured{PerfSweep: &perfv1alpha1.PerfSweep{
		ObjectMeta: metav1.ObjectMeta{Name: "features", Namespace: "default"},
		Spec: perfv1alpha1.PerfSweepSpec{Points: &perfv1alpha1.SweepPoints{Settings: []perfv1alpha1.SweepSetting{
			{Name: "trace-0", TracingSamplingRate: "0"}, {Name: "mtls-off", MTLS: perfv1alpha1.MTLSDisabled}, {Name: "trace-1", TracingSamplingRate: "1"}}}},
		Status: perfv1alpha1.PerfSweepStatus{Phase: perfv1alpha1.PhaseSucceeded, Measured: 3}},
		Points: []sweep.MeasuredPoint{
			measured(0, "trace-0", 400),
			{SweepPointStatus: perfv1alpha1.SweepPointStatus{Step: 2, Setting: "mtls-off", QPS: 1000, Connections: 16, Phase: perfv1alpha1.PhaseFailed,
				Message: "MTLSMismatch: spec.dapr.mtls is Disabled but the cluster has mTLS Enabled"}},
			measured(1, "trace-1", 700),
		}}
	for _, p := range sw.Points {
		sw.Status.Points = append(sw.Status.Points, p.SweepPointStatus)
	}
	return sw
}

func TestSettingsTableShowsEachSettingsAddedLatencyWithItsInterval(t *testing.T) {
	text := sweepTable(featureSweep())
	_, perSetting, ok := strings.Cut(text, "per setting")
	if !ok {
		t.Fatalf("no per-setting table:\n%s", text)
	}
	lines := strings.Split(strings.TrimSpace(perSetting), "\n")
	if len(lines) != 5 {
		t.Fatalf("want a title, a header and three rows:\n%s", perSetting)
	}
	if strings.Contains(lines[1], "AT") {
		t.Errorf("a sweep of settings alone needs no AT column: %q", lines[1])
	}
	for i, want := range [][]string{
		{"trace-0", "Succeeded", "400µs [350µs, 450µs]", "500µs [450µs, 550µs]", "700µs [600µs, 800µs]", "120m", "-"},
		{"mtls-off", "Failed", "-", "-", "-", "MTLSMismatch"},
		{"trace-1", "Succeeded", "700µs [650µs, 750µs]", "800µs [750µs, 850µs]", "1ms [900µs, 1.1ms]", "120m"},
	} {
		row := lines[2+i]
		for _, w := range want {
			at := strings.Index(row, w)
			if at < 0 {
				t.Errorf("row %q lacks %q (in order)", lines[2+i], w)
				break
			}
			row = row[at+len(w):]
		}
	}
	if f := strings.Fields(strings.Split(text, "\n")[2]); len(f) < 2 || f[1] != "SETTING" || !strings.Contains(text, "trace-1 ") {
		t.Errorf("the points table does not name each point's setting:\n%s", text)
	}
	if s := settingsTable(sweep.Measured{PerfSweep: &perfv1alpha1.PerfSweep{}, Points: []sweep.MeasuredPoint{{SweepPointStatus: perfv1alpha1.SweepPointStatus{Connections: 16}}}}); s != "" {
		t.Errorf("a sweep without settings has a per-setting table: %q", s)
	}
}

func TestSettingsTableSaysWhereOnTheOtherDimensions(t *testing.T) {
	sw := featureSweep()
	sw.Spec.Points.Connections = []int32{1, 16}
	sw.Points[0].Connections = 1
	if text := settingsTable(sw); !strings.Contains(text, "AT") || !strings.Contains(text, "1 connections") || !strings.Contains(text, "16 connections") {
		t.Errorf("no AT column naming the connections:\n%s", text)
	}
}

func TestSettingsReportHasATableAndCharts(t *testing.T) {
	sw := featureSweep()
	doc := sweepDoc(sw)
	var section *htmlSection
	for i := range doc.Sections {
		if doc.Sections[i].ID == "settings" {
			section = &doc.Sections[i]
		}
	}
	if section == nil || len(section.Tables) != 1 || len(section.Tables[0].Rows) != 3 {
		t.Fatalf("no per-setting section of three rows: %+v", doc.Sections)
	}
	row := section.Tables[0].Rows[0]
	if row[0].Text != "trace-0" || row[4].Text != "500µs" || row[4].Detail != "95%: 450µs – 550µs" {
		t.Errorf("trace-0's row %+v", row)
	}
	if failed := section.Tables[0].Rows[1]; failed[7].Text != "MTLSMismatch" || !strings.Contains(failed[7].Detail, "the cluster has mTLS Enabled") {
		t.Errorf("mtls-off's note %+v", failed[7])
	}

	charts := plots.ForSweep(sw)
	if len(charts) != 2 || charts[0].Name != "added-by-setting" || charts[1].Name != "sidecar-cpu-by-setting" {
		t.Fatalf("charts %+v", charts)
	}
	added := charts[0]
	if strings.Join(added.Categories, ",") != "trace-0,mtls-off,trace-1" || len(added.Series) != 1 {
		t.Fatalf("added chart %+v", added)
	}
	s := added.Series[0]
	// X is the setting's place in the spec; mtls-off, not measured, has no point.
	if s.Name != "added p90 (bars: 95% interval)" || len(s.X) != 2 || s.X[0] != 0 || s.X[1] != 2 || s.Y[1] != 0.8 || s.Low[1] != 0.75 || s.High[1] != 0.85 {
		t.Errorf("added p90 series %+v", s)
	}
	for _, c := range charts {
		if _, err := c.Plot(); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	var csv bytes.Buffer
	if err := export.CSV(&csv, export.PointRows(sw)); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(csv.String(), "\n"); !strings.HasSuffix(lines[0], ",setting") || !strings.HasSuffix(lines[1], ",trace-0") {
		t.Errorf("the CSV does not carry the setting:\n%s", csv.String())
	}
}
