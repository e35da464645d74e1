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
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/cli/plots"
)

// The report lists each fault's windows and says its recovery and the app's retries, with
// their intervals; a phase the fault was not applied in is named; a run without faults has
// no such section.
func TestTheReportSaysWhatEachFaultCost(t *testing.T) {
	ms := func(n int) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(n) * time.Millisecond} }
	res := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultTargetErrors, Path: "dapr", Applied: 2,
		NotApplied: []string{"repetition 3: the target app refused the fault"},
		Before:     perfv1alpha1.FaultWindow{Seconds: 16, Requests: 1600, ErrorPercent: "0.00", ErrorPercentLow: "0.00", ErrorPercentHigh: "0.24", P50: ms(1), P99: ms(2)},
		During:     perfv1alpha1.FaultWindow{Seconds: 4, Requests: 400, Errors: 200, ErrorPercent: "50.00", ErrorPercentLow: "45.12", ErrorPercentHigh: "54.88", P50: ms(100), P99: ms(100)},
		After:      perfv1alpha1.FaultWindow{Seconds: 20, Requests: 2000, ErrorPercent: "0.00", P50: ms(1), P99: ms(2)},
		Recovery:   ms(2000), RecoveryInterval: &perfv1alpha1.DurationInterval{Low: *ms(0), High: *ms(14706)}, Recovered: 2,
		Amplification: "1.200", AmplificationLow: "0.930", AmplificationHigh: "1.470"}}}
	text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res))
	for _, want := range []string{
		"fault 0 (TargetErrors) on the dapr path, applied in 2 phases",
		"during   4         400        200      50.00    45.12..54.88   100ms   100ms",
		"recovery: 2s after the fault's end (95% interval 0s..14.706s over this run's repetitions), 2 of 2 phases back within their pre-fault band",
		"invocations the app saw per request sent: 1.200 (95% interval 0.930..1.470)",
		"NOT APPLIED: repetition 3: the target app refused the fault",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, &perfv1alpha1.Result{})); strings.Contains(text, "faults (") {
		t.Errorf("a run without faults has a faults section:\n%s", text)
	}
}

// A PodKill's section names each phase's deleted pod and what replaced it, and how soon.
func TestTheReportNamesThePodsAKillDeleted(t *testing.T) {
	res := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "dapr", Applied: 2,
		Kills: []perfv1alpha1.PodKillRecord{{Repetition: 1, Deleted: "killed-target-a", Replacement: "killed-target-b", ReadyAfter: &metav1.Duration{Duration: 4200 * time.Millisecond}},
			{Repetition: 2, Deleted: "killed-target-b", Replacement: "killed-target-c", MeasuredQPS: "666.7"}, {Repetition: 3, Deleted: "killed-target-c"}}}}}
	text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res))
	for _, want := range []string{
		"fault 0 (PodKill) on the dapr path, applied in 2 phases",
		"repetition 1: deleted pod killed-target-a; replaced by killed-target-b, ready 4.2s after the order",
		"repetition 2: deleted pod killed-target-b; replaced by killed-target-c, not ready within the fault's duration",
		"repetition 3: deleted pod killed-target-c; no pod made in its place within the fault's duration",
		"repetition 2: measured the other load-tester pods' 666.7 qps: the killed pod's requests in it are not in the result",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}

// A broker kill's section says what the messages did, with the spread of each phase's losses;
// one phase's has no interval.
func TestTheReportSaysWhatABrokerKillDidToTheMessages(t *testing.T) {
	res := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "dapr", Applied: 2,
		Messages: &perfv1alpha1.FaultMessages{Published: 10100, Lost: 800, Duplicated: 2, LostPerPhase: "400.0", LostPerPhaseLow: "0.0", LostPerPhaseHigh: "1670.6"}},
		{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "other", Applied: 1, Messages: &perfv1alpha1.FaultMessages{Published: 50, Lost: 3, LostPerPhase: "3.0"}}}}
	text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res))
	for _, want := range []string{
		"messages: 10100 published, 800 lost (400.0 a phase, 95% interval 0.0..1670.6 over this run's repetitions), 2 delivered more than once",
		"messages: 50 published, 3 lost (3.0 a phase), 0 delivered more than once",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}

// A long run's report says each sidecar's memory slope with its interval; a short one's
// says nothing of it.
func TestTheReportSaysEachSidecarsMemoryTrend(t *testing.T) {
	res := &perfv1alpha1.Result{MemoryTrends: []perfv1alpha1.MemoryTrend{{Role: "serverSidecar", MiBPerHour: "2.40", Low: "-0.80", High: "5.60",
		Lag1: "0.62", Windows: 58, Span: metav1.Duration{Duration: 29 * time.Minute}, StartMiB: "41.20", EndMiB: "42.36"}}}
	text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res))
	want := "serverSidecar: 2.40 MiB/h (95% interval -0.80..5.60), 41.20 MiB to 42.36 MiB over 29m0s, 58 windows, lag-1 autocorrelation 0.62"
	if !strings.Contains(text, want) {
		t.Errorf("the report lacks %q:\n%s", want, text)
	}
	if text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, &perfv1alpha1.Result{})); strings.Contains(text, "sidecar memory over") || strings.Contains(text, "goroutines") {
		t.Errorf("a run without a trend has one:\n%s", text)
	}
}

// A soak's report says each daprd's goroutine and open-file slopes with their intervals,
// without a memory trend beside them.
func TestTheReportSaysEachDaprdsGaugeTrends(t *testing.T) {
	res := &perfv1alpha1.Result{DaprdTrends: []perfv1alpha1.DaprdTrend{{Sidecar: "serverSidecar", Gauge: "goroutines", PerHour: "12.00",
		Low: "3.10", High: "20.90", Lag1: "0.40", Readings: 58, Span: metav1.Duration{Duration: 29 * time.Minute}, Start: "201.00", End: "206.80"}}}
	text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res))
	want := "serverSidecar goroutines: 12.00 an hour (95% interval 3.10..20.90), 201.00 to 206.80 over 29m0s, 58 readings, lag-1 autocorrelation 0.40"
	if !strings.Contains(text, want) || strings.Contains(text, "sidecar memory over") {
		t.Errorf("the report lacks %q, or has a memory heading:\n%s", want, text)
	}
}

// A soak's report says the measured path's p90 slope with its interval and each change of
// level, or that there was none.
func TestTheReportSaysASoaksLatencyDriftAndItsChangePoints(t *testing.T) {
	at := time.Date(2026, 11, 29, 5, 20, 0, 0, time.UTC)
	ms := func(v float64) metav1.Duration {
		return metav1.Duration{Duration: time.Duration(v * float64(time.Millisecond))}
	}
	res := &perfv1alpha1.Result{LatencyDrift: &perfv1alpha1.LatencyDrift{Path: "dapr", PerHour: ms(4.2), Low: ms(-1.5), High: ms(9.9), Lag1: "0.71",
		Windows: 58, Width: metav1.Duration{Duration: 30 * time.Second}, Span: metav1.Duration{Duration: 28*time.Minute + 30*time.Second},
		Start: ms(10.1), End: ms(12.1), ChangePoints: []perfv1alpha1.LatencyChangePoint{{At: metav1.NewTime(at), Before: ms(10), After: ms(14)}}}}
	text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res))
	for _, want := range []string{
		"dapr path's p90 over the measured load (its windows of 30s",
		"p90: 4.2ms an hour (95% interval -1.5ms..9.9ms), 10.1ms to 12.1ms over 28m30s, 58 windows, lag-1 autocorrelation 0.71",
		"changed level at 2026-11-29T05:20:00Z: p90 10ms before, 14ms after",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	res.LatencyDrift.ChangePoints = nil
	if text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res)); !strings.Contains(text, "no change of level") {
		t.Errorf("a drift without a change point does not say so:\n%s", text)
	}
}

// A scheduler outage's section on a Workflow run names every pod of the service it deleted
// and says what the instances did: the stuck, with the spread of each phase's.
func TestTheReportSaysWhatAnOutageLeftStuck(t *testing.T) {
	res := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "dapr", Applied: 2,
		Instances: &perfv1alpha1.FaultInstances{Started: 4000, Completed: 3900, Failed: 4, Stuck: 96, StuckPerPhase: "48.0", StuckPerPhaseLow: "0.0", StuckPerPhaseHigh: "658.0"},
		DaprdCPU: []perfv1alpha1.FaultDaprdCPU{{Sidecar: "clientSidecar", Before: resource.MustParse("120m"), During: resource.MustParse("815m"),
			DuringLow: ptr.To(resource.MustParse("402m")), DuringHigh: ptr.To(resource.MustParse("1228m"))}},
		Kills: []perfv1alpha1.PodKillRecord{{Repetition: 1, Deleted: "dapr-scheduler-server-0, dapr-scheduler-server-1", Replacement: "dapr-scheduler-server-0, dapr-scheduler-server-1",
			ReadyAfter: &metav1.Duration{Duration: 9 * time.Second}}}}}}
	text := runTables(clitest.WithResult(&perfv1alpha1.PerfRun{}, res))
	for _, want := range []string{
		"workflow instances: 4000 started, 3900 completed, 4 failed, 96 stuck, not ended by the drain after their phase (48.0 a phase, 95% interval 0.0..658.0 over this run's repetitions)",
		"daprd CPU, clientSidecar: 120m before the fault, 815m during it (95% interval 402m..1228m over this run's repetitions)",
		"repetition 1: deleted pods dapr-scheduler-server-0, dapr-scheduler-server-1; replaced by dapr-scheduler-server-0, dapr-scheduler-server-1, ready 9s after the order",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "messages:") {
		t.Errorf("a Workflow outcome reads as messages:\n%s", text)
	}
}

// A fault's chart holds each window's share across its seconds (a phase's: the window's
// seconds over the phases), its interval at the window's middle, and a cross at the mean
// recovery from the fault's own end, at the share before the fault; it goes into
// report.html beside the other charts. A path the fault was never applied in draws none.
func TestAFaultsTimelineHoldsEachWindowAcrossItsSeconds(t *testing.T) {
	res := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultTargetErrors, Path: "dapr", Applied: 2,
		Before:   perfv1alpha1.FaultWindow{Seconds: 16, Requests: 1600, ErrorPercent: "0.00", ErrorPercentLow: "0.00", ErrorPercentHigh: "0.24"},
		During:   perfv1alpha1.FaultWindow{Seconds: 8, Requests: 800, Errors: 400, ErrorPercent: "50.00", ErrorPercentLow: "45.12", ErrorPercentHigh: "54.88"},
		After:    perfv1alpha1.FaultWindow{Seconds: 20, Requests: 2000, Errors: 20, ErrorPercent: "1.00"},
		Recovery: &metav1.Duration{Duration: 2 * time.Second}, Recovered: 2},
		{Fault: 0, Kind: perfv1alpha1.FaultTargetErrors, Path: "never", NotApplied: []string{"repetition 1: refused"}}}}
	// The fault held from 8 s to 11.5 s; its during window holds seconds 8 to 12.
	spec := &perfv1alpha1.PerfRunSpec{Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultTargetErrors,
		At: metav1.Duration{Duration: 8 * time.Second}, Duration: metav1.Duration{Duration: 3500 * time.Millisecond}, ErrorPercent: ptr.To[int32](50)}}}
	charts := faultWindowCharts(spec, res)
	if len(charts) != 1 {
		t.Fatalf("%d charts, want the applied path's alone: %+v", len(charts), charts)
	}
	c := charts[0]
	nan := math.NaN()
	s := c.Series[0]
	want := plots.Series{Name: s.Name, X: []float64{0, 4, 8, 8, 10, 12, 12, 17, 22}, Y: []float64{0, 0, 0, 50, 50, 50, 1, 1, 1},
		Low:  []float64{nan, 0, nan, nan, 45.12, nan, nan, nan, nan},
		High: []float64{nan, 0.24, nan, nan, 54.88, nan, nan, nan, nan}}
	if c.Name != "fault-0-dapr" || !sameFloats(s.X, want.X) || !sameFloats(s.Y, want.Y) || !sameFloats(s.Low, want.Low) || !sameFloats(s.High, want.High) {
		t.Errorf("chart %s, series %+v\nwant %+v", c.Name, s, want)
	}
	if !sameFloats(c.Marks.X, []float64{13.5}) || !sameFloats(c.Marks.Y, []float64{0}) {
		t.Errorf("the recovery's mark: %+v, want at the fault's end 11.5 s + 2 s, at the share before the fault", c.Marks)
	}
	if !strings.Contains(c.Marks.Name, "2 of 2 phases recovered") {
		t.Errorf("the mark's name %q does not say how many phases recovered", c.Marks.Name)
	}
	// Without the spec's fault, the during window's end stands in for the fault's.
	if got := faultWindowCharts(nil, res)[0].Marks.X; !sameFloats(got, []float64{14}) {
		t.Errorf("without the spec the mark is at %v, want the during window's end 12 s + 2 s", got)
	}
	files, err := Write(t.TempDir(), "faults", clitest.WithResult(&perfv1alpha1.PerfRun{}, res), "", charts)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(files[len(files)-1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<figure id="chart-fault-0-dapr">`) {
		t.Errorf("report.html lacks the fault's chart:\n%s", page)
	}
	if got := fileSafe("Variant_B/../x"); got != "variant-b----x" {
		t.Errorf("fileSafe: %q", got)
	}
}

// A PodKill's recovery is timed from its replacement's readiness, each phase's (its
// duration for a phase whose replacement was never ready), and two outcomes whose paths
// fold to one file name get names of their own.
func TestAPodKillsMarkIsTimedFromItsReplacement(t *testing.T) {
	window := perfv1alpha1.FaultWindow{Seconds: 20, Requests: 2000, ErrorPercent: "0.00"}
	kill := perfv1alpha1.FaultOutcome{Fault: 0, Kind: perfv1alpha1.FaultPodKill, Path: "Variant_B", Applied: 2, Recovered: 1,
		Before: window, During: window, After: window, Recovery: &metav1.Duration{Duration: time.Second},
		Kills: []perfv1alpha1.PodKillRecord{{Repetition: 1, ReadyAfter: &metav1.Duration{Duration: 4 * time.Second}}, {Repetition: 2}}}
	other := kill
	other.Path = "variant-b"
	spec := &perfv1alpha1.PerfRunSpec{Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
		At: metav1.Duration{Duration: 10 * time.Second}, Duration: metav1.Duration{Duration: 20 * time.Second}}}}
	charts := faultWindowCharts(spec, &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{kill, other}})
	if len(charts) != 2 || charts[0].Name != "fault-0-variant-b" || charts[1].Name != "fault-0-variant-b-2" {
		t.Fatalf("charts %v, want two of their own names", charts)
	}
	// Held 4 s in one phase and its whole 20 s in the other: 10 s + 12 s mean, + 1 s.
	if got := charts[0].Marks.X; !sameFloats(got, []float64{23}) {
		t.Errorf("the kill's mark at %v, want 23", got)
	}
	if !strings.Contains(charts[0].Marks.Name, "1 of 2 phases recovered") {
		t.Errorf("the mark's name %q", charts[0].Marks.Name)
	}
}

// A fault's timeline is drawn second by second: the successes' p99 and p50 in ms at each
// second's middle, the share failed in each second with requests (none drawn for a second
// without a success, or without requests), and the fault's span as a box from its start to
// its end, up to the chart's highest point; both charts reach report.html.
func TestAFaultsSecondsAreDrawnWithTheFaultsSpan(t *testing.T) {
	res := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultTargetDelay, Path: "dapr", Applied: 2,
		Timeline: &perfv1alpha1.FaultTimeline{Requests: []int64{200, 200, 200, 0}, Errors: []int64{0, 50, 200, 0},
			P50Micros: []int64{1000, 250_000, 0, 0}, P99Micros: []int64{3000, 900_000, 0, 0}}},
		{Fault: 0, Kind: perfv1alpha1.FaultTargetDelay, Path: "torn", Applied: 2,
			Timeline: &perfv1alpha1.FaultTimeline{Requests: []int64{1, 2}, Errors: []int64{0}, P50Micros: []int64{1, 2}, P99Micros: []int64{1, 2}}}}}
	spec := &perfv1alpha1.PerfRunSpec{Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultTargetDelay,
		At: metav1.Duration{Duration: time.Second}, Duration: metav1.Duration{Duration: 1500 * time.Millisecond}, Delay: &metav1.Duration{Duration: 250 * time.Millisecond}}}}
	charts := faultSecondCharts(spec, res)
	if len(charts) != 2 {
		t.Fatalf("%d charts, want the dapr path's two (a torn timeline draws none): %+v", len(charts), charts)
	}
	latency, errors := charts[0], charts[1]
	if latency.Name != "fault-0-dapr-latency" || errors.Name != "fault-0-dapr-errors" {
		t.Errorf("names %q, %q", latency.Name, errors.Name)
	}
	p99, p50, box := latency.Series[0], latency.Series[1], latency.Series[2]
	if !sameFloats(p99.X, []float64{0.5, 1.5}) || !sameFloats(p99.Y, []float64{3, 900}) || !sameFloats(p50.Y, []float64{1, 250}) {
		t.Errorf("latency: p99 %+v, p50 %+v; want seconds 0 and 1 only, in ms", p99, p50)
	}
	if !sameFloats(box.X, []float64{1, 1, 2.5, 2.5}) || !sameFloats(box.Y, []float64{0, 900, 900, 0}) {
		t.Errorf("the fault's box %+v, want from 1 s to 2.5 s, up to 900 ms", box)
	}
	failed := errors.Series[0]
	if !sameFloats(failed.X, []float64{0.5, 1.5, 2.5}) || !sameFloats(failed.Y, []float64{0, 25, 100}) {
		t.Errorf("errors %+v, want 0, 25 and 100%% over the seconds with requests", failed)
	}
	files, err := Write(t.TempDir(), "seconds", clitest.WithResult(&perfv1alpha1.PerfRun{}, res), "", charts)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(files[len(files)-1])
	if err != nil || !strings.Contains(string(page), `<figure id="chart-fault-0-dapr-latency">`) || !strings.Contains(string(page), `<figure id="chart-fault-0-dapr-errors">`) {
		t.Errorf("report.html lacks the fault's second-by-second charts: %v", err)
	}
}

// A report's charts each get a file of their own: a path named "x-latency" has a window
// chart named as path "x"'s second-by-second latency chart would be.
func TestAReportsFaultChartsHaveNamesOfTheirOwn(t *testing.T) {
	window := perfv1alpha1.FaultWindow{Seconds: 10, Requests: 100, ErrorPercent: "0.00"}
	outcome := func(path string) perfv1alpha1.FaultOutcome {
		return perfv1alpha1.FaultOutcome{Fault: 0, Kind: perfv1alpha1.FaultTargetErrors, Path: path, Applied: 1, Before: window, During: window, After: window,
			Timeline: &perfv1alpha1.FaultTimeline{Requests: []int64{10}, Errors: []int64{0}, P50Micros: []int64{1}, P99Micros: []int64{2}}}
	}
	_, charts := Run(clitest.WithResult(&perfv1alpha1.PerfRun{}, &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{outcome("x-latency"), outcome("x")}}))
	names := map[string]bool{}
	for _, c := range charts {
		if names[c.Name] {
			t.Errorf("two charts named %q", c.Name)
		}
		names[c.Name] = true
	}
	if len(charts) != 6 || !names["fault-0-x-latency"] || !names["fault-0-x-latency-2"] {
		t.Errorf("charts %v: want six, path x's latency chart renamed beside x-latency's window chart", names)
	}
}

// sameFloats compares two lists, NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })
}
