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
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/document"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// runFile is a PerfRun as a user writes it, with two thresholds.
const runFile = `apiVersion: perf.daprbench.io/v1alpha1
kind: PerfRun
metadata:
  name: %s
spec:
  scenario: ServiceInvocation
  load: {qps: 1000}
  thresholds: {maxAddedP90: 5ms, maxErrors: 0}
`

func writeRunFile(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(runFile, "%s", name, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// startRun runs `run -f FILE --wait ARGS` in the background and returns the run it created
// (found by its generated name) and where its error arrives.
func startRun(t *testing.T, base string, args ...string) (*perfv1alpha1.PerfRun, <-chan error, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	cmd := newCommand(Streams{Out: &out, ErrOut: &out}, func() (client.WithWatch, error) { return k8s, nil })
	cmd.SetArgs(append([]string{"run", "-f", writeRunFile(t, base), "--wait", "-n", "default"}, args...))
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(context.Background()) }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var list perfv1alpha1.PerfRunList
		if err := k8s.List(context.Background(), &list, client.InNamespace("default")); err != nil {
			t.Fatal(err)
		}
		for i := range list.Items {
			if list.Items[i].GenerateName == base+"-" {
				return &list.Items[i], done, &out
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("run did not create a PerfRun named %s-…", base)
	return nil, nil, nil
}

// finish writes what the controller would at the end of a run.
func finish(t *testing.T, run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result, conds ...metav1.Condition) {
	t.Helper()
	run.Status.Phase = perfv1alpha1.PhaseSucceeded
	start, end := metav1.NewTime(time.Now().Add(-90*time.Second)), metav1.Now()
	run.Status.StartTime, run.Status.CompletionTime = &start, &end
	for _, c := range conds {
		if c.Type == perfv1alpha1.ConditionFailed && c.Status == metav1.ConditionTrue {
			run.Status.Phase = perfv1alpha1.PhaseFailed
		}
		c.ObservedGeneration, c.LastTransitionTime = run.Generation, metav1.Now()
		run.Status.Conditions = append(run.Status.Conditions, c)
	}
	if res != nil {
		res.Generation = run.Generation
		run.Status.Result = keepDocument(t, run, res, nil)
	}
	if err := k8s.Status().Update(context.Background(), run); err != nil {
		t.Fatal(err)
	}
}

func cond(t, status, reason, msg string) metav1.Condition {
	return metav1.Condition{Type: t, Status: metav1.ConditionStatus(status), Reason: reason, Message: msg}
}

func TestRunWaitExitsWithTheRunsVerdict(t *testing.T) {
	succeeded := cond(perfv1alpha1.ConditionSucceeded, "True", "Succeeded", "60000 requests")
	cases := []struct {
		name  string
		args  []string
		res   *perfv1alpha1.Result
		conds []metav1.Condition
		want  verdict.ExitCode
	}{
		{"passed", nil, clitest.SampleResult("4ms", "3.9ms", "4.1ms", "400m"), []metav1.Condition{succeeded,
			cond(perfv1alpha1.ConditionThresholdsMet, "True", "ThresholdsMet", "met")}, verdict.ExitPassed},
		{"failed", nil, nil, []metav1.Condition{cond(perfv1alpha1.ConditionFailed, "True", "LoadTesterFailed", "the load tester failed")}, verdict.ExitFailed},
		{"violated", nil, clitest.SampleResult("7ms", "6.9ms", "7.1ms", "400m"), []metav1.Condition{succeeded,
			cond(perfv1alpha1.ConditionThresholdsMet, "False", "ThresholdsViolated", "added p90 7ms")}, verdict.ExitThresholds},
		{"violated-failrun", nil, clitest.SampleResult("7ms", "6.9ms", "7.1ms", "400m"), []metav1.Condition{
			cond(perfv1alpha1.ConditionFailed, "True", "ThresholdsViolated", "added p90 7ms")}, verdict.ExitThresholds},
		{"inconclusive", nil, clitest.SampleResult("5ms", "4ms", "6ms", "400m"), []metav1.Condition{succeeded,
			cond(perfv1alpha1.ConditionThresholdsMet, "Unknown", "Inconclusive", "straddles")}, verdict.ExitThresholds},
		{"regressed", nil, clitest.SampleResult("4ms", "3.9ms", "4.1ms", "400m"), []metav1.Condition{succeeded,
			cond(perfv1alpha1.ConditionRegressed, "True", "Regressed", "p90 worse")}, verdict.ExitRegressed},
		{"saturated-lenient", nil, clitest.SampleResult("4ms", "3.9ms", "4.1ms", "400m"), []metav1.Condition{succeeded,
			cond(perfv1alpha1.ConditionSaturated, "True", "Saturated", "achieved 80%")}, verdict.ExitPassed},
		{"saturated-strict", []string{"--strict"}, clitest.SampleResult("4ms", "3.9ms", "4.1ms", "400m"), []metav1.Condition{succeeded,
			cond(perfv1alpha1.ConditionSaturated, "True", "Saturated", "achieved 80%")}, verdict.ExitNotClean},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run, done, out := startRun(t, "exit-"+tc.name, tc.args...)
			finish(t, run, tc.res, tc.conds...)
			select {
			case err := <-done:
				if got := verdict.ExitCodeOf(err); got != tc.want {
					t.Errorf("exit %d (%v), want %d; output:\n%s", got, err, tc.want, out)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("run --wait did not return after the run finished")
			}
		})
	}
}

func TestRunWaitPastItsTimeoutExits6(t *testing.T) {
	created, done, out := startRun(t, "exit-timeout", "--timeout", "1s", "-o", "name")
	select {
	case err := <-done:
		if got := verdict.ExitCodeOf(err); got != verdict.ExitStillRunning {
			t.Errorf("exit %d (%v), want %d", got, err, verdict.ExitStillRunning)
		}
		// A script still learns the run's name (it goes on in the cluster), in kubectl's
		// form, which every command takes back.
		if want := "perfrun.perf.daprbench.io/" + created.Name; !strings.Contains(out.String(), want) {
			t.Errorf("-o name printed %q, want %q", out.String(), want)
		}
		if o, err := run(t, "watch", "perfrun.perf.daprbench.io/"+created.Name, "--timeout", "1s"); verdict.ExitCodeOf(err) != verdict.ExitStillRunning {
			t.Errorf("watch of -o name's form: %v\n%s", err, o)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run --wait --timeout 1s did not return")
	}
}

func TestRunThatAdmissionRefusesExits1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	bad := strings.Replace(strings.Replace(runFile, "%s", "refused", 1), "qps: 1000", "qps: -5", 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "run", "-f", path, "--wait")
	if got := verdict.ExitCodeOf(err); got != verdict.ExitCouldNotRun || !strings.Contains(err.Error(), "spec.load.qps") {
		t.Errorf("exit %d (%v), want 1 naming the field; output:\n%s", got, err, out)
	}
}

func TestRunTwiceStartsTwoRuns(t *testing.T) {
	path := writeRunFile(t, "twice")
	for range 2 {
		if _, err := run(t, "run", "-f", path); err != nil {
			t.Fatal(err)
		}
	}
	var list perfv1alpha1.PerfRunList
	if err := k8s.List(context.Background(), &list, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range list.Items {
		if strings.HasPrefix(r.Name, "twice-") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d runs named twice-…, want 2", n)
	}
}

// The JUnit file has the shape CI systems read: testsuites > testsuite (tests, failures,
// errors) > testcase (name, classname) > failure (message, type).
func TestJUnitHasOneTestcasePerThreshold(t *testing.T) {
	run, done, _ := startRun(t, "junit", "--junit", filepath.Join(t.TempDir(), "unused.xml"))
	finish(t, run, clitest.SampleResult("7ms", "6.9ms", "7.1ms", "400m"), cond(perfv1alpha1.ConditionSucceeded, "True", "Succeeded", "60000 requests"),
		cond(perfv1alpha1.ConditionThresholdsMet, "False", "ThresholdsViolated", "added p90"))
	<-done
	latest := &perfv1alpha1.PerfRun{}
	if err := k8s.Get(context.Background(), client.ObjectKeyFromObject(run), latest); err != nil {
		t.Fatal(err)
	}
	shown, err := document.Load(context.Background(), k8s, latest)
	if err != nil {
		t.Fatal(err)
	}
	b, err := JUnit(shown, verdict.RunOutcome(latest, false), false)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Errors   int    `xml:"errors,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites, want 1:\n%s", len(doc.Suites), b)
	}
	s := doc.Suites[0]
	// run completed, added p90, errors
	if s.Tests != 3 || s.Failures != 1 || s.Errors != 0 || len(s.Cases) != 3 || s.Cases[0].Classname == "" {
		t.Fatalf("suite %+v, want 3 testcases (run, added p90, errors), 1 failure:\n%s", s, b)
	}
	p90 := s.Cases[1]
	if p90.Name != "added p90 <= 5ms" || p90.Failure == nil || p90.Failure.Type != "VIOLATED" ||
		!strings.Contains(p90.Failure.Message, "measured 7ms (95% interval 6.9ms..7.1ms), limit <= 5ms") {
		t.Errorf("added p90 testcase %+v, want a VIOLATED failure with the measured value, its interval and the limit:\n%s", p90, b)
	}
}

func TestSummaryMatchesItsGoldenFile(t *testing.T) {
	res := clitest.SampleResult("7ms", "6.9ms", "7.1ms", "400m")
	run := clitest.WithResult(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "invoke-x7k2p", Namespace: "perf", Generation: 1},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000},
			Thresholds: &perfv1alpha1.Thresholds{MaxAddedP90: d("5ms"), MaxErrors: ptrTo(int64(0))}},
		Status: perfv1alpha1.PerfRunStatus{Environment: &perfv1alpha1.Environment{DaprVersion: "1.16.0", KubernetesVersion: "v1.36.3",
			DaprResiliencies: []perfv1alpha1.DaprResiliencyRecord{{Name: "team-timeouts", Generation: 3, Targets: []string{"app orders"}}}},
			Conditions: []metav1.Condition{
				{Type: perfv1alpha1.ConditionSucceeded, Status: "True", Reason: "Succeeded", ObservedGeneration: 1},
				{Type: perfv1alpha1.ConditionThresholdsMet, Status: "False", Reason: "ThresholdsViolated", Message: "added p90 7ms (limit <= 5ms): VIOLATED", ObservedGeneration: 1}}}}, res)
	checkGolden(t, "summary.md", report.Summary(run, verdict.RunOutcome(run.PerfRun, false), false))
}

func ptrTo[T any](v T) *T { return &v }

// A variant's gate is a testcase of its own, as spec.thresholds' are.
func TestJUnitListsTheVariantsGates(t *testing.T) {
	obj := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{{Name: "base"},
		{Name: "fast", Thresholds: &perfv1alpha1.VariantThresholds{MaxSlowdownP90: d("200us")}}}}}
	obj.Name, obj.Namespace = "ab", "default"
	run := clitest.WithResult(obj, &perfv1alpha1.Result{Variants: []perfv1alpha1.VariantResult{{Name: "base"}, {Name: "fast",
		Difference: &perfv1alpha1.LatencySummary{P90: d("310us")},
		DifferenceInterval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low: perfv1alpha1.LatencySummary{P90: d("250us")}, High: perfv1alpha1.LatencySummary{P90: d("370us")}}}}})
	b, err := JUnit(run, verdict.Outcome{Code: verdict.ExitThresholds, Reason: "variant"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `name="variant fast p90 slowdown`) || !strings.Contains(string(b), `type="VIOLATED"`) {
		t.Errorf("JUnit lacks the variant's violated gate:\n%s", b)
	}
	if md := report.Summary(run, verdict.Outcome{Code: verdict.ExitThresholds, Reason: "variant"}, false); !strings.Contains(md, "variant fast p90 slowdown") {
		t.Errorf("summary lacks the variant's gate:\n%s", md)
	}
}
