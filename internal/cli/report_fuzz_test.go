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

package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	assessed "github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/cli/export"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// Finding 9 of issue 34: no status a user can write may crash the plugin or make it
// print what the sinks forbid. The seeds run in every `go test`; `make fuzz` explores.

// FuzzRunReport renders a run's object beside its result document, each any JSON: the
// document is digest-checked against the status, but the renderers hold on their own.
func FuzzRunReport(f *testing.F) {
	good := sampleRunForFuzz()
	enc := tinyHistogram(f)
	for _, seed := range []struct {
		run        document.Run
		histograms []result.Variant
	}{
		{good, []result.Variant{result.Baseline, result.Dapr}},
		{hostileRun(), []result.Variant{result.Dapr, "/../../../escaped", result.Dapr}},
		{good, crowdedVariants()}, // the 4,221-histogram ConfigMap, kept small
		{faultedSoakForFuzz(), []result.Variant{result.Dapr}},
		{document.Run{PerfRun: &perfv1alpha1.PerfRun{}, Doc: &perfv1alpha1.ResultDocument{}}, nil},
	} {
		doc := *seed.run.Doc
		doc.Histograms = nil
		for _, v := range seed.histograms {
			doc.Histograms = append(doc.Histograms, perfv1alpha1.PathHistograms{Path: v.String(), Variant: string(v), Latency: enc, Service: enc})
		}
		f.Add(mustJSON(f, seed.run.PerfRun), mustJSON(f, doc))
	}
	f.Fuzz(func(t *testing.T, obj, doc []byte) {
		run := document.Run{PerfRun: &perfv1alpha1.PerfRun{}, Doc: &perfv1alpha1.ResultDocument{}}
		if json.Unmarshal(obj, run.PerfRun) != nil {
			return
		}
		if json.Unmarshal(doc, run.Doc) != nil {
			run.Doc = nil
		}
		checkRunRenders(t, run)
		checkHistogramsRender(t, run)
	})
}

func FuzzSweepReport(f *testing.F) {
	f.Add(mustJSON(f, sampleSweepForFuzz()))
	zero := sampleSweepForFuzz()
	zero.Points[0].Connections = 0 // the hand-edited point that panicked
	f.Add(mustJSON(f, zero))
	hostile := sampleSweepForFuzz()
	hostile.Points[1].Phase, hostile.Points[1].Message = perfv1alpha1.Phase(fakeVerdict), terminalControls
	hostile.Points[1].ActualQPS = "=1+2"
	f.Add(mustJSON(f, hostile))
	f.Fuzz(func(t *testing.T, obj []byte) {
		sw := sweep.Measured{}
		if json.Unmarshal(obj, &sw) != nil || sw.PerfSweep == nil {
			return
		}
		checkTerminal(t, "sweep table", textfmt.ForTerminal(sweepText(sw)))
		checkTerminal(t, "sweep progress", textfmt.TerminalCell(sweepProgress(sw.PerfSweep)))
		checkMarkdown(t, report.Summary(sw, verdict.SweepOutcome(sw.PerfSweep), false))
		checkCSV(t, export.PointRows(sw))
		page, err := report.SweepPage(sw)
		checkHTML(t, page, err)
		for _, c := range plots.ForSweep(sw) {
			drawChart(t, c)
		}
	})
}

// checkRunRenders renders every view of a run the plugin prints or writes.
func checkRunRenders(t *testing.T, run document.Run) {
	checkTerminal(t, "run tables", textfmt.ForTerminal(runText(run)))
	checkTerminal(t, "progress", textfmt.TerminalCell(Progress(run.PerfRun, time.Unix(1_800_000_000, 0))))
	for _, strict := range []bool{false, true} {
		outcome := verdict.RunOutcome(run.PerfRun, strict)
		checkMarkdown(t, report.Summary(run, outcome, strict))
		if _, err := JUnit(run, outcome, strict); err != nil {
			t.Errorf("junit: %v", err)
		}
	}
	if _, err := json.Marshal(perfv1alpha1.NewResultDocument(run.PerfRun, run.Result(), run.Histograms(), nil)); err != nil {
		t.Errorf("document: %v", err)
	}
	checkCSV(t, []export.RunRow{export.Row(run)})
	page, err := report.RunPage(run)
	checkHTML(t, page, err)
	runs := []document.Run{run, run}
	checkCSV(t, trend(runs))
	_ = calibrationSpread(runs)
	for _, c := range plots.ForHistory("fuzz", runs) {
		drawChart(t, c)
	}
	_, charts := report.Run(run)
	for _, c := range charts {
		if strings.HasPrefix(c.Name, "fault-") { // the distribution is checkHistogramsRender's
			drawChart(t, c)
		}
	}
}

// checkHistogramsRender takes the document's histograms to the distribution chart and the
// fortio files.
func checkHistogramsRender(t *testing.T, run document.Run) {
	checked, _, err := export.CheckedPaths(export.Histograms(run))
	if err != nil {
		return
	}
	if len(checked) > result.MaxPaths {
		t.Fatalf("%d paths passed the check", len(checked))
	}
	var paths []plots.Path
	for _, p := range checked {
		name, err := export.FortioFileName("run", p.Variant)
		if err != nil || !filepath.IsLocal(name) || filepath.Base(name) != name {
			t.Fatalf("variant %q names file %q (%v)", p.Variant, name, err)
		}
		hist, err := result.DecodeHistogram(p.Latency)
		if err != nil {
			continue
		}
		if _, err := json.Marshal(export.FortioResult(run, p.Variant, hist)); err != nil && !strings.Contains(err.Error(), "unsupported value") {
			t.Errorf("fortio result: %v", err)
		}
		paths = append(paths, plots.Path{Name: p.Variant.String(), Histogram: hist})
	}
	drawChart(t, plots.LatencySpectrum(paths))
}

// drawChart draws c as the report would, in memory.
func drawChart(t *testing.T, c plots.Chart) {
	p, err := c.Plot()
	if err != nil {
		return // refused with an error, not a panic
	}
	w, err := p.WriterTo(plots.Width, plots.Height, "svg")
	if err != nil {
		return
	}
	_, _ = w.WriteTo(io.Discard)
}

func checkTerminal(t *testing.T, what, s string) {
	if strings.ContainsAny(s, "\x1b\a\u009b") {
		t.Errorf("%s carries terminal controls: %q", what, s)
	}
}

// checkHTML: report.html renders, with no control character but newline and tab, and
// every table it opens closed.
func checkHTML(t *testing.T, page []byte, err error) {
	if err != nil {
		t.Fatalf("report.html: %v", err)
	}
	if bytes.ContainsFunc(page, func(r rune) bool { return r != '\n' && r != '\t' && textfmt.Hidden(r) }) {
		t.Errorf("report.html carries controls:\n%q", page)
	}
	if bytes.Count(page, []byte("<table")) != bytes.Count(page, []byte("</table>")) {
		t.Errorf("report.html opens tables it does not close:\n%s", page)
	}
}

// checkMarkdown: no raw HTML and no control characters but the template's newlines.
func checkMarkdown(t *testing.T, md string) {
	if strings.Contains(md, "<") || strings.ContainsFunc(md, func(r rune) bool { return r != '\n' && textfmt.Hidden(r) }) {
		t.Errorf("the summary carries HTML or controls:\n%q", md)
	}
}

// checkCSV: no cell a spreadsheet would run as a formula.
func checkCSV(t *testing.T, rows any) {
	var b bytes.Buffer
	if err := export.CSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("csv: %v", err)
	}
	for _, r := range records {
		for _, cell := range r {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && cell != "-" && !textfmt.Numeric(cell) {
				t.Errorf("csv cell %q", cell)
			}
		}
	}
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// crowdedVariants are one path more than a run measures.
func crowdedVariants() []result.Variant {
	var vs []result.Variant
	for i := range result.MaxPaths + 1 {
		vs = append(vs, result.DaprVariant(i))
	}
	return vs
}

// sampleRunForFuzz is a finished run as the controller writes it, with progress, and its
// document.
func sampleRunForFuzz() document.Run {
	start := metav1.NewTime(time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC))
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "sample", Namespace: "default",
		Labels: map[string]string{perfv1alpha1.LabelSchedule: "nightly"}, Annotations: map[string]string{perfv1alpha1.AnnotationScheduledTime: "2026-11-22T03:00:00Z"}},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000, Repetitions: 3, Duration: d("60s")},
			Variants: []perfv1alpha1.SidecarVariant{{Name: "release"}, {Name: "api-logging"}}},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseSucceeded, StartTime: &start,
			Conditions: []metav1.Condition{{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, Reason: "Succeeded", Message: "done"}}}}
	res := clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m")
	res.Variants = []perfv1alpha1.VariantResult{{Name: "release", ActualQPS: "499.9"},
		{Name: "api-logging", ActualQPS: "499.8", Difference: &perfv1alpha1.LatencySummary{P50: d("-444us")}, BeyondNoise: []string{"p50"}}}
	run.Status.Result = assessed.StatusHeadline(res)
	return clitest.WithResult(run, res)
}

// faultedSoakForFuzz is a run with a fault and long enough for trends: its fault's
// windows, kills and chart, and its memory and daprd trends.
func faultedSoakForFuzz() document.Run {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "soak", Namespace: "default"},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000, Repetitions: 2, Duration: d("12m")},
			Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget), At: *d("30s"), Duration: *d("20s")}}},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseSucceeded}}
	res := clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m")
	window := func(seconds int32, errors int64, share string) perfv1alpha1.FaultWindow {
		return perfv1alpha1.FaultWindow{Seconds: seconds, Requests: int64(seconds) * 1000, Errors: errors, ErrorPercent: share, ErrorPercentLow: "0.00", ErrorPercentHigh: "60.00"}
	}
	res.Faults = []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "dapr", Applied: 2, Recovered: 1, NotRecovered: 1,
		Before: window(60, 0, "0.00"), During: window(26, 15000, "57.69"), After: window(1354, 40, "0.00"),
		Recovery: d("2.4s"), SlowestRecovery: d("2.4s"),
		Kills: []perfv1alpha1.PodKillRecord{{Repetition: 1, Deleted: "soak-target-a", Replacement: "soak-target-b", ReadyAfter: d("9s")}, {Repetition: 2, Deleted: "soak-target-b"}}}}
	res.MemoryTrends = []perfv1alpha1.MemoryTrend{{Role: "serverSidecar", MiBPerHour: "2.40", Low: "-0.80", High: "5.60", Lag1: "0.62", Windows: 58, Span: *d("23m"), StartMiB: "41.20", EndMiB: "42.36"}}
	res.DaprdTrends = []perfv1alpha1.DaprdTrend{{Sidecar: "clientSidecar", Gauge: "goroutines", PerHour: "12.00", Low: "3.10", High: "20.90", Lag1: "0.40", Readings: 46, Span: *d("23m"), Start: "201.00", End: "205.60"}}
	res.LatencyDrift = &perfv1alpha1.LatencyDrift{Path: "dapr", PerHour: *d("4.2ms"), Low: *d("-1.5ms"), High: *d("9.9ms"), Lag1: "0.71", Windows: 46,
		Width: *d("30s"), Span: *d("22m30s"), Start: *d("10.1ms"), End: *d("11.7ms"),
		ChangePoints: []perfv1alpha1.LatencyChangePoint{{At: metav1.Unix(1_800_000_600, 0), Before: *d("10ms"), After: *d("14ms")}}}
	run.Status.Result = assessed.StatusHeadline(res)
	return clitest.WithResult(run, res)
}

// sampleSweepForFuzz is a finished connections sweep of two points, with their runs'
// figures.
func sampleSweepForFuzz() sweep.Measured {
	sw := sweep.Measured{PerfSweep: &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "sweep", Namespace: "default"},
		Spec:   perfv1alpha1.PerfSweepSpec{Points: &perfv1alpha1.SweepPoints{Connections: []int32{16, 64}}},
		Status: perfv1alpha1.PerfSweepStatus{Phase: perfv1alpha1.PhaseSucceeded, Measured: 2, MaxSustainableQPS: ptr.To[int32](1000)}}}
	for i, c := range []int32{16, 64} {
		p := perfv1alpha1.SweepPointStatus{Step: int32(i), QPS: 1000, Connections: c, Run: "sweep-" + string(rune('0'+i)),
			Phase: perfv1alpha1.PhaseSucceeded, Passed: ptr.To(true)}
		sw.Status.Points = append(sw.Status.Points, p)
		sw.Points = append(sw.Points, sweep.MeasuredPoint{SweepPointStatus: p, Figures: sweep.Figures{ActualQPS: "999.9",
			Latency:  &perfv1alpha1.PointLatency{P50: d("1ms"), P90: d("3ms"), P99: d("9ms")},
			Baseline: &perfv1alpha1.PointLatency{P90: d("1ms")}, Added: &perfv1alpha1.PointLatency{P90: d("2ms"), P99: d("6ms")}}})
	}
	return sw
}
