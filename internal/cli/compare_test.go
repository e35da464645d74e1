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
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func TestTheChangesIntervalCombinesBothSides(t *testing.T) {
	// A 12.1ms [11.8, 12.4], B 14.0ms [13.6, 14.5]: change 1.9ms, half-widths
	// sqrt(0.4²+0.3²) = 0.5 below and sqrt(0.5²+0.3²) ≈ 0.583 above.
	c := changeOf(ms(12.1), ms(11.8), ms(12.4), ms(14.0), ms(13.6), ms(14.5))
	if got, want := c.low, ms(1.4); (got - want).Abs() > time.Microsecond {
		t.Errorf("low = %v, want %v", got, want)
	}
	if got, want := c.high, ms(1.9+0.5831); (got - want).Abs() > time.Microsecond {
		t.Errorf("high = %v, want %v", got, want)
	}
	// Intervals that overlap ([9.5, 10.5] and [10.3, 11.3]) still show a change of 0.8ms
	// against a combined half-width of 0.71ms: the overlap rule would have hidden it.
	if v := changeOf(ms(10), ms(9.5), ms(10.5), ms(10.8), ms(10.3), ms(11.3)).verdict(); v != VerdictSlower {
		t.Errorf("0.8ms beyond a combined half-width of 0.71ms: %s", v)
	}
	// 0.5ms against a combined half-width of 0.5ms: not shown.
	if v := changeOf(ms(12.1), ms(11.8), ms(12.4), ms(12.6), ms(12.2), ms(12.9)).verdict(); v != VerdictNoDifference {
		t.Errorf("0.5ms with a combined half-width of 0.5ms: %s", v)
	}
}

func TestTheGate(t *testing.T) {
	pct := func(s string) *maxSlowdown {
		m := &maxSlowdown{}
		if err := m.Set(s); err != nil {
			t.Fatal(err)
		}
		return m
	}
	slower := changeOf(ms(10), ms(9.8), ms(10.2), ms(12), ms(11.8), ms(12.2)) // +2ms ± ~0.28
	same := changeOf(ms(10), ms(9.5), ms(10.5), ms(10.1), ms(9.6), ms(10.6))  // +0.1ms ± ~0.7
	cases := []struct {
		name  string
		c     delta
		limit string
		want  string
	}{
		{"slower beyond noise, no slowdown allowed", slower, "0", GateSlower},
		{"slower, but within 25%", slower, "25%", GatePassed},
		{"slower by more than 10%", slower, "10%", GateSlower},
		{"limit inside the interval", slower, "2ms", GateInconclusive},
		{"no change shown, none allowed", same, "0", GateInconclusive},
		{"no change shown, 10% allowed", same, "10%", GatePassed},
		{"one repetition", changeWithoutInterval(ms(10), ms(10)), "10%", GateInconclusive},
	}
	for _, c := range cases {
		if got, _ := c.c.gate(pct(c.limit)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	for _, bad := range []string{"-5%", "ten%", "fast", "-1ms", "NaN%"} {
		if err := (&maxSlowdown{}).Set(bad); err == nil {
			t.Errorf("--max-slowdown %s accepted", bad)
		}
	}
}

// The golden pairs: a slower run, a faster one and one within noise, each against the same
// reference, by exit code — on each run's own interval (--rerun-spread 0), then covering a
// rerun of the Intel node's measured 3% (5 degrees of freedom): a 10% gate between two runs
// 0.8% apart becomes inconclusive at the noise floor, and a 15.7% slowdown is still shown,
// but no longer within 25%. (The assumed default is wider: TestTheRerunSpreadIsMeasured….)
func TestCompareExitsWithTheGatesVerdict(t *testing.T) {
	createRun(t, "cmp-ref", nil, nil, sampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	createRun(t, "cmp-slower", nil, nil, sampleResult("14.0ms", "13.6ms", "14.5ms", "450m"), false)
	createRun(t, "cmp-faster", nil, nil, sampleResult("10.0ms", "9.7ms", "10.3ms", "380m"), false)
	createRun(t, "cmp-same", nil, nil, sampleResult("12.2ms", "11.8ms", "12.6ms", "392m"), false)
	cases := []struct {
		b    string
		args []string
		want verdict.ExitCode
		line string // the added p90 row holds it
	}{
		{"cmp-slower", nil, verdict.ExitRegressed, "slower " + GateSlower},
		{"cmp-slower", []string{"--max-slowdown", "25%"}, verdict.ExitPassed, "slower " + GatePassed},
		{"cmp-faster", nil, verdict.ExitPassed, "faster " + GatePassed},
		{"cmp-same", nil, verdict.ExitPassed, VerdictNoDifference + " " + GateInconclusive},
		{"cmp-same", []string{"--fail-inconclusive"}, verdict.ExitThresholds, VerdictNoDifference + " " + GateInconclusive},
		{"cmp-same", []string{"--max-slowdown", "10%", "--fail-inconclusive"}, verdict.ExitPassed, VerdictNoDifference + " " + GatePassed},
	}
	for i := range cases {
		cases[i].args = append(cases[i].args, "--rerun-spread", "0")
	}
	cases = append(cases, []struct {
		b    string
		args []string
		want verdict.ExitCode
		line string
	}{
		{"cmp-slower", nil, verdict.ExitRegressed, "slower " + GateSlower},
		{"cmp-slower", []string{"--max-slowdown", "25%"}, verdict.ExitPassed, "slower " + GateInconclusive},
		{"cmp-same", []string{"--max-slowdown", "10%", "--fail-inconclusive"}, verdict.ExitThresholds, VerdictNoDifference + " " + GateInconclusive},
	}...)
	for i := len(cases) - 3; i < len(cases); i++ {
		cases[i].args = append(cases[i].args, "--rerun-spread", "3%", "--rerun-spread-df", "5")
	}
	for _, c := range cases {
		out, err := run(t, append([]string{"compare", "cmp-ref", c.b}, c.args...)...)
		if got := verdict.ExitCodeOf(err); got != c.want {
			t.Errorf("compare cmp-ref %s %v: exit %d, want %d\n%s", c.b, c.args, got, c.want, out)
		}
		if row := rowOf(out, "added p90"); !strings.Contains(squeeze(row), c.line) {
			t.Errorf("compare cmp-ref %s %v: added p90 row %q lacks %q", c.b, c.args, row, c.line)
		}
	}
}

func rowOf(out, figure string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, figure+" ") {
			return l
		}
	}
	return ""
}

// main's result, exported as main's pipeline keeps it, against a run in the cluster and
// against a sweep's point; two files compare without a cluster. The rerun spread is the Intel
// node's measured 3%, under which the 15.7% slowdown is shown (the assumed default is wider).
func TestCompareReadsExportedResultsAndSweepPoints(t *testing.T) {
	createRun(t, "cmp-main", nil, nil, sampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	createRun(t, "cmp-pr", nil, nil, sampleResult("14.0ms", "13.6ms", "14.5ms", "450m"), false)
	dir := t.TempDir()
	main := filepath.Join(dir, "main.json")
	out, err := run(t, "export", "cmp-main", "-o", "json")
	if err != nil {
		t.Fatal(err, out)
	}
	if err := os.WriteFile(main, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	junit, summary := filepath.Join(dir, "compare.xml"), filepath.Join(dir, "summary.md")
	out, err = run(t, "compare", main, "perfrun/cmp-pr", "--junit", junit, "--summary", summary, "--rerun-spread", "3%", "--rerun-spread-df", "5")
	if verdict.ExitCodeOf(err) != verdict.ExitRegressed || !strings.Contains(squeeze(rowOf(out, "added p90")), "slower "+GateSlower) {
		t.Fatalf("file against run: exit %d\n%s", verdict.ExitCodeOf(err), out)
	}
	var suites junitSuites
	b, _ := os.ReadFile(junit)
	if err := xml.Unmarshal(b, &suites); err != nil || len(suites.Suites) != 1 || suites.Suites[0].Tests != 3 || suites.Suites[0].Failures != 1 {
		t.Errorf("JUnit: one suite, three gated figures, p90 alone slower: %+v %v", suites, err)
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "❌ exit 4") || !strings.Contains(string(md), "| added p90 | 12.1ms | 14ms |") {
		t.Errorf("summary:\n%s", md)
	}

	pr := filepath.Join(dir, "pr.json")
	out, _ = run(t, "export", "cmp-pr", "-o", "json")
	_ = os.WriteFile(pr, []byte(out), 0o644)
	var cmp Comparison
	out, err = runWithoutCluster(t, "compare", main, pr, "-o", "json", "--rerun-spread", "3%", "--rerun-spread-df", "5")
	if jerr := json.Unmarshal([]byte(out), &cmp); jerr != nil || verdict.ExitCodeOf(err) != verdict.ExitRegressed || cmp.ExitCode != verdict.ExitRegressed || len(cmp.Differences) == 0 {
		t.Errorf("two files, no cluster: %v %v %+v\n%s", err, jerr, cmp, out)
	}

	sw := &perfv1alpha1.PerfSweep{}
	sw.Name, sw.Namespace = "cmp-sweep", "default"
	sw.Spec.Template.Spec = perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000}}
	sw.Spec.Points = &perfv1alpha1.SweepPoints{Connections: []int32{8}}
	if err := k8s.Create(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	sw.Status.Points = []perfv1alpha1.SweepPointStatus{{Step: 0, Connections: 8, Run: "cmp-pr", Setting: "trace-1"}}
	if err := k8s.Status().Update(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	for _, point := range []string{"perfsweep/cmp-sweep/0", "perfsweep/cmp-sweep/cmp-pr", "perfsweep/cmp-sweep/trace-1"} {
		if out, err := run(t, "compare", "cmp-main", point, "--rerun-spread", "3%", "--rerun-spread-df", "5"); verdict.ExitCodeOf(err) != verdict.ExitRegressed {
			t.Errorf("against %s: exit %d\n%s", point, verdict.ExitCodeOf(err), out)
		}
	}
	if _, err := runWithoutCluster(t, "compare", "missing/main.json", "other.json"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a mistyped path: %v", err)
	}
	if out, err := run(t, "compare", "cmp-main", "perfsweep/cmp-sweep/7"); verdict.ExitCodeOf(err) != verdict.ExitCouldNotRun || !strings.Contains(out+err.Error(), "no point") {
		t.Errorf("a missing point: %v\n%s", err, out)
	}
}

// runWithoutCluster executes the plugin with a client that fails the test when asked for:
// what it does, it does without connecting. Only stdout is returned.
func runWithoutCluster(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newCommand(Streams{Out: &out, ErrOut: &errOut}, func() (client.WithWatch, error) {
		t.Errorf("%v connected to the cluster", args)
		return nil, errors.New("no cluster in this test")
	})
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// An exported file's settings reach the terminal escaped: a crafted mtls or arrival string
// can neither set the clipboard (OSC 52) nor print a line of its own.
func TestCompareEscapesAFilesSettings(t *testing.T) {
	crafted := "Enabled\x1b]52;c;ZXZpbA==\x07\nverdict: faster\u202e"
	out := comparisonTable(Comparison{A: "main.json", B: "perfrun/x", SettingsDiffer: []string{"mtls: " + crafted + " vs Enabled"}})
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\nverdict: faster"} {
		if strings.Contains(out, bad) {
			t.Errorf("compare printed %q raw:\n%q", bad, out)
		}
	}
	if !strings.Contains(out, "settings differ: mtls: Enabled") {
		t.Errorf("the difference itself is gone:\n%q", out)
	}
}

// Compare without a gate (as a test or a library caller uses it) reports every shared figure.
func TestCompareWithoutAGate(t *testing.T) {
	a, b := sampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), sampleResult("14.0ms", "13.6ms", "14.5ms", "450m")
	diffs := Compare(a, b, nil, RerunSpread{})
	if !slices.ContainsFunc(diffs, func(d Difference) bool { return d.Figure == "added p90" && d.Verdict == VerdictSlower }) {
		t.Errorf("no slower added p90 in %+v", diffs)
	}
}

// A run's own interval covers its repetitions, not a rerun: two runs 5% apart with tight
// intervals read "slower" on within-run intervals alone, and "no difference shown" once each
// side is widened by the 3% between-run spread the rerun benchmark measured.
func TestTheRerunSpreadWidensEachRunsInterval(t *testing.T) {
	a, b := sampleResult("10ms", "9.9ms", "10.1ms", "390m"), sampleResult("10.5ms", "10.4ms", "10.6ms", "390m")
	p90 := func(rerun float64) Difference {
		for _, d := range Compare(a, b, nil, KnownRerunSpread(rerun)) {
			if d.Figure == "added p90" {
				return d
			}
		}
		t.Fatal("no added p90")
		return Difference{}
	}
	if d := p90(0); d.Verdict != VerdictSlower {
		t.Errorf("within-run intervals alone: %+v, want slower", d)
	}
	if d := p90(0.03); d.Verdict != VerdictNoDifference || d.Gate != GateInconclusive {
		t.Errorf("covering a rerun: %+v, want no difference shown, gate inconclusive", d)
	}
	// An interval of no width widened by 3%: 1.96 × 3% of the value on each side.
	lo, hi := coveringRerun(10*time.Millisecond, 10*time.Millisecond, 10*time.Millisecond, 0.03, 1.96)
	if want := 588 * time.Microsecond; (10*time.Millisecond-lo-want).Abs() > time.Microsecond || (hi-10*time.Millisecond-want).Abs() > time.Microsecond {
		t.Errorf("widened to [%v, %v], want ±%v", lo, hi, want)
	}
	var r rerunSpreadFlag
	for _, bad := range []string{"3", "-1%", "101%", "x%", "NaN%"} {
		if r.Set(bad) == nil {
			t.Errorf("--rerun-spread %q accepted", bad)
		}
	}
	if err := r.Set("0"); err != nil || r.fraction != 0 {
		t.Errorf("0: %v %v", err, r.fraction)
	}
	if err := r.Set("4.5%"); err != nil || r.fraction != 0.045 {
		t.Errorf("4.5%%: %v %v", err, r.fraction)
	}
}

// Two PubSub results compare their delivery too: the Dapr path's delivery percentiles, Dapr's
// added delivery latency gated as the added latency is, and the messages lost.
func TestComparePubSubResultsGatesTheAddedDeliveryLatency(t *testing.T) {
	flat := flatLatency
	pubsub := func(added time.Duration, lost int64) *perfv1alpha1.Result {
		return &perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
			Latency: flat(added + ms(1)), Added: flat(added),
			AddedInterval: &perfv1alpha1.LatencyInterval{Low: *flat(added - ms(0.2)), High: *flat(added + ms(0.2))},
			Messages:      &perfv1alpha1.MessageCounts{Published: 1000, Delivered: 1000 - lost, Lost: lost}}}
	}
	diffs := Compare(pubsub(ms(3), 0), pubsub(ms(5), 7), nil, RerunSpread{})
	var added, lost *Difference
	for i, d := range diffs {
		switch d.Figure {
		case "delivery added p90":
			added = &diffs[i]
		case "messages lost":
			lost = &diffs[i]
		}
	}
	if added == nil || added.Verdict != VerdictSlower || added.Gate != GateSlower {
		t.Errorf("delivery added p90: %+v, want slower, gated slower", added)
	}
	if lost == nil || lost.A != "0" || lost.B != "7" || lost.Change != "+7" {
		t.Errorf("messages lost: %+v", lost)
	}
	if got := ComparisonOutcome(diffs, false).Code; got != verdict.ExitRegressed {
		t.Errorf("exit %d, want %d: a slower delivery is a regression", got, verdict.ExitRegressed)
	}
	if len(Compare(&perfv1alpha1.Result{}, pubsub(ms(3), 0), nil, RerunSpread{})) != 0 {
		t.Error("a side without delivery compared delivery figures")
	}
}
