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
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/cli/export"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// Finding 8 of issue 34: condition messages repeat spec strings, and status strings are
// anyone's who may edit the object. These are what such a user could write.
const (
	fakeVerdict = "<h3>✅ passed</h3>"
	// ESC ] 0 ; … BEL sets a terminal's title; ESC [ 2 J clears the screen; U+009B is CSI.
	terminalControls = "\x1b]0;owned\a\x1b[2J\u009b31m"
)

func hostileRun() document.Run {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "hostile", Namespace: "default"},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000}}}
	run.Status = perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseFailed, Conditions: []metav1.Condition{{Type: perfv1alpha1.ConditionFailed,
		Status: metav1.ConditionTrue, Reason: "ImageNotAllowed", Message: "image " + fakeVerdict + terminalControls + "\n| forged | row |"}},
		Environment: &perfv1alpha1.Environment{DaprVersion: "1.16.0 [click](https://evil.example) @everyone :x: " + fakeVerdict, KubernetesVersion: "v1.36.3"}}
	res := clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m")
	res.ActualQPS = "<img src=x onerror=alert(1)>"
	return clitest.WithResult(run, res)
}

func TestSummaryEscapesWhatUsersWrote(t *testing.T) {
	md := report.Summary(hostileRun(), verdict.RunOutcome(hostileRun().PerfRun, false), false)
	for _, bad := range []string{"<h3>", "<img", "\x1b", "\a", "\u009b", "[click](", " @everyone", ":x:", "\n| forged"} {
		if strings.Contains(md, bad) {
			t.Errorf("the summary carries %q:\n%s", bad, md)
		}
	}
	if !strings.Contains(md, "&lt;h3&gt;") {
		t.Errorf("the summary drops the text instead of escaping it:\n%s", md)
	}
	sw := sweep.Load(context.Background(), k8s, &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "sw"}, Status: perfv1alpha1.PerfSweepStatus{Phase: perfv1alpha1.PhaseFailed,
		Points: []perfv1alpha1.SweepPointStatus{{Run: "r", Phase: perfv1alpha1.Phase(fakeVerdict + "|x")}}}})
	if md := report.Summary(sw, verdict.SweepOutcome(sw.PerfSweep), false); strings.Contains(md, "<h3>") || strings.Contains(md, "</h3>|x") {
		t.Errorf("the sweep summary carries a point's phase as written:\n%s", md)
	}
}

func TestWatchLineCarriesNoTerminalControls(t *testing.T) {
	var out bytes.Buffer
	p := newProgressWriter(&out)
	run := hostileRun()
	p.show(func(now time.Time) string { return Progress(run.PerfRun, now) })
	for _, bad := range []string{"\x1b", "\a", "\u009b"} {
		if strings.Contains(out.String(), bad) {
			t.Errorf("watch printed %q: %q", bad, out.String())
		}
	}
	if !strings.Contains(out.String(), "owned") {
		t.Errorf("watch dropped the message: %q", out.String())
	}
}

func TestTablesCarryNoTerminalControls(t *testing.T) {
	sw := sweep.Measured{PerfSweep: &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "sw", Namespace: "default"}},
		Points: []sweep.MeasuredPoint{{SweepPointStatus: perfv1alpha1.SweepPointStatus{Run: "r", Phase: perfv1alpha1.PhaseSucceeded,
			Passed: ptr.To(false), Message: "p99 " + terminalControls}, Figures: sweep.Figures{ActualQPS: "1000" + terminalControls}}}}
	for name, text := range map[string]string{"sweep": sweepText(sw), "run": runText(hostileRun())} {
		for _, bad := range []string{"\x1b", "\a", "\u009b"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s table carries %q:\n%q", name, bad, text)
			}
		}
	}
}

// history -o csv copied the scheduled-time annotation verbatim: a spreadsheet runs a cell
// that starts with =, +, -, @ (or a tab or CR) as a formula.
func TestCSVNeutralisesFormulasButKeepsNumbers(t *testing.T) {
	rows := []TrendRow{{Run: "r", Scheduled: `=HYPERLINK("https://evil.example","x")`, Phase: "@SUM(A1)", AddedP90: "-1.2ms",
		AddedP99: "+1+2", SidecarCPU: "-", Calibration: "-3.5e3", ServerCPUPerRequest: "\t=1"}}
	var out bytes.Buffer
	if err := export.CSV(&out, rows); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i, h := range records[0] {
		got[h] = records[1][i]
	}
	for field, want := range map[string]string{"scheduled": `'=HYPERLINK("https://evil.example","x")`, "phase": "'@SUM(A1)", "addedP99": "'+1+2",
		"serverSidecarCPUPerRequest": "'\t=1", "addedP90": "-1.2ms", "sidecarCPUPer1kQPS": "-", "calibration": "-3.5e3", "run": "r"} {
		if got[field] != want {
			t.Errorf("%s: %q, want %q", field, got[field], want)
		}
	}
}

// Issue 36 item 7: report.html shows much more of what users wrote — the environment,
// images, spec, conditions, variants, points and chart labels. All of it is text: no
// markup, no controls, no bidirectional override.
func TestReportHTMLEscapesWhatUsersWrote(t *testing.T) {
	run := hostileRun()
	env := run.Status.Environment
	env.SidecarImage, env.ManagerVersion, env.TargetNode = fakeVerdict+"\u202egnp.exe", "<script>alert(1)</script>", terminalControls
	env.LoadTesterNodes = []string{"<b>n</b>"}
	env.Calibration = []perfv1alpha1.NodeCalibration{{Node: "<img src=x onerror=alert(2)>", Single: fakeVerdict, Workload: terminalControls}}
	run.Spec.Target.Image = "</pre><script>alert(3)</script>"
	run.Spec.Variants = []perfv1alpha1.SidecarVariant{{Name: "v", SidecarImage: "<svg onload=alert(4)>"}}
	run.Result().Variants = []perfv1alpha1.VariantResult{{Name: "<i>v</i>", Difference: &perfv1alpha1.LatencySummary{}, BeyondNoise: []string{fakeVerdict}}}
	run.Result().Paths = []perfv1alpha1.PathAccounting{{Path: "</table><h3>x</h3>"}}
	run.Status.Disturbances = []perfv1alpha1.Disturbance{{Role: "<u>r</u>", Detail: terminalControls}}
	run.Labels = map[string]string{perfv1alpha1.LabelSchedule: "<s>nightly</s>"}
	run.UID = "<em>uid</em>"
	sw := sweep.Measured{PerfSweep: &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "sw", Namespace: "default"},
		Spec:   perfv1alpha1.PerfSweepSpec{Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{Target: perfv1alpha1.WorkloadSpec{Image: fakeVerdict}}}},
		Status: perfv1alpha1.PerfSweepStatus{Phase: perfv1alpha1.Phase(fakeVerdict), Conditions: run.Status.Conditions}},
		Points: []sweep.MeasuredPoint{{SweepPointStatus: perfv1alpha1.SweepPointStatus{Run: "<b>r</b>", Phase: perfv1alpha1.PhaseSucceeded,
			Passed: ptr.To(false), Message: "p99 " + fakeVerdict + "\u202e"}, Figures: sweep.Figures{ActualQPS: terminalControls}}}}
	sw.Status.Points = []perfv1alpha1.SweepPointStatus{sw.Points[0].SweepPointStatus}
	chart := plots.Chart{Name: "hostile", Title: fakeVerdict, XLabel: "<i>x</i>", Series: []plots.Series{{Name: "<script>alert(5)</script>", X: []float64{1, 2}, Y: []float64{1, 2}}}}
	for name, c := range map[string]struct {
		obj  any
		text string
	}{"run": {run, runText(run)}, "sweep": {sw, sweepText(sw)}, "history": {nil, fakeVerdict + terminalControls}} {
		dir := t.TempDir()
		var err error
		switch o := c.obj.(type) {
		case document.Run:
			_, err = report.Write(dir, name, o, c.text, []plots.Chart{chart})
		case sweep.Measured:
			_, err = report.Write(dir, name, o, c.text, []plots.Chart{chart})
		default:
			_, err = report.Write(dir, fakeVerdict, nil, c.text, []plots.Chart{chart})
		}
		if err != nil {
			t.Fatal(name, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "report.html"))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		for _, bad := range []string{"<h3>", "<script", "<img", "<b>", "<i>", "<u>", "<s>", "<em>", "<svg onload", "</pre><script", "</table><h3>",
			"\x1b", "\a", "\u009b", "\u202e"} {
			if strings.Contains(page, bad) {
				t.Errorf("%s: report.html carries %q", name, bad)
			}
		}
		if !strings.Contains(page, "&lt;h3&gt;") {
			t.Errorf("%s: report.html drops what users wrote instead of escaping it", name)
		}
		if !strings.Contains(page, "&lt;script&gt;alert(5)&lt;/script&gt;") {
			t.Errorf("%s: the chart's series name is not in its SVG, escaped", name)
		}
		if strings.Count(page, "<table") != strings.Count(page, "</table>") {
			t.Errorf("%s: a user's string opened or closed a table", name)
		}
	}
}

// runText and sweepText are the tables report prints.
func runText(run document.Run) string {
	text, _ := report.Run(run)
	return text
}

func sweepText(sw sweep.Measured) string {
	text, _ := report.Sweep(sw)
	return text
}
