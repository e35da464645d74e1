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
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	assessed "github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/testenv"
)

// The plugin is tested against a real API server (envtest) holding objects whose status
// is what the controllers write.

var k8s client.WithWatch

// restConfig reaches envtest's API server, for tests that build a kubeconfig.
var restConfig *rest.Config

func TestMain(m *testing.M) {
	// Fuzzing (make fuzz) exercises the renderers alone: no API server for the
	// coordinator, nor one per fuzz worker.
	flag.Parse()
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" || flag.Lookup("test.fuzzworker").Value.String() == "true" {
		os.Exit(m.Run())
	}
	env, err := testenv.New(false)
	if err != nil {
		panic(err)
	}
	cfg, err := env.Start()
	if err != nil {
		panic(err)
	}
	restConfig = cfg
	scheme := runtime.NewScheme()
	if err := perfv1alpha1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if k8s, err = client.NewWithWatch(cfg, client.Options{Scheme: scheme}); err != nil {
		panic(err)
	}
	code := m.Run()
	_ = env.Stop()
	os.Exit(code)
}

func d(v string) *metav1.Duration { return clitest.Dur(v) }

// createRun creates a finished run with the given result.
func createRun(t *testing.T, name string, labels, annotations map[string]string, res *perfv1alpha1.Result, regressed bool) {
	t.Helper()
	createRunIn(t, "default", name, labels, annotations, res, regressed)
}

// createRunIn creates a finished run in namespace ns.
func createRunIn(t *testing.T, ns, name string, labels, annotations map[string]string, res *perfv1alpha1.Result, regressed bool) {
	t.Helper()
	createRunOf(t, metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels, Annotations: annotations}, res, regressed)
}

// createRunOf creates a finished run with the given metadata.
func createRunOf(t *testing.T, meta metav1.ObjectMeta, res *perfv1alpha1.Result, regressed bool) {
	t.Helper()
	createRunWithSpec(t, meta, perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000}}, res, regressed)
}

// createRunWithSpec is createRunOf with a spec of its own.
func createRunWithSpec(t *testing.T, meta metav1.ObjectMeta, spec perfv1alpha1.PerfRunSpec, res *perfv1alpha1.Result, regressed bool) {
	t.Helper()
	run := &perfv1alpha1.PerfRun{ObjectMeta: meta, Spec: spec}
	if err := k8s.Create(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	run.Status = perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseSucceeded, Conditions: []metav1.Condition{
		{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, Reason: "Succeeded", Message: "done", ObservedGeneration: run.Generation, LastTransitionTime: metav1.Now()}}}
	if regressed {
		run.Status.Conditions = append(run.Status.Conditions, metav1.Condition{Type: perfv1alpha1.ConditionRegressed, Status: metav1.ConditionTrue,
			Reason: "Regressed", Message: "p99", ObservedGeneration: run.Generation, LastTransitionTime: metav1.Now()})
	}
	if res != nil {
		res.Generation = run.Generation
		run.Status.Result = keepDocument(t, run, res, nil)
	}
	if err := k8s.Status().Update(context.Background(), run); err != nil {
		t.Fatal(err)
	}
}

// keepDocument keeps res (and the histograms) as run's result document in the test's API
// server, as the operator keeps it, and returns the headline that points at it.
func keepDocument(t testing.TB, run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result, histograms []perfv1alpha1.PathHistograms) *perfv1alpha1.ResultHeadline {
	t.Helper()
	doc := perfv1alpha1.NewResultDocument(run, res, histograms, nil)
	return keepGivenDocument(t, run, &doc)
}

// keepGivenDocument keeps doc as run's result document and returns the headline that
// points at it.
func keepGivenDocument(t testing.TB, run *perfv1alpha1.PerfRun, doc *perfv1alpha1.ResultDocument) *perfv1alpha1.ResultHeadline {
	t.Helper()
	res := doc.Result
	enc, err := document.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	cm := document.ConfigMap(run, enc, map[string]string{perfv1alpha1.GroupVersion.Group + "/run": run.Name})
	if err := k8s.Create(context.Background(), cm); err != nil {
		t.Fatal(err)
	}
	h := assessed.StatusHeadline(res)
	h.Document, h.Digest = cm.Name, enc.Digest
	return h
}

// keepPointDocument keeps res as the result document of a sweep point's run, and returns
// the point with its reference.
func keepPointDocument(t testing.TB, ns string, p perfv1alpha1.SweepPointStatus, res *perfv1alpha1.Result) perfv1alpha1.SweepPointStatus {
	t.Helper()
	if p.Run == "" {
		p.Run = fmt.Sprintf("point-%d", p.Step)
	}
	h := keepDocument(t, &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: p.Run, Namespace: ns}}, res, nil)
	p.Document, p.Digest = h.Document, h.Digest
	return p
}

// run executes the plugin with args in namespace default and returns what it printed.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runIn(t, "default", args...)
}

// runIn executes the plugin with args in namespace ns and returns what it printed.
func runIn(t *testing.T, ns string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newCommand(Streams{Out: &out, ErrOut: &errOut}, func() (client.WithWatch, error) { return k8s, nil })
	cmd.SetArgs(append(args, "-n", ns))
	err := cmd.ExecuteContext(context.Background())
	return out.String() + errOut.String(), err
}

func TestReportOfARun(t *testing.T) {
	createRun(t, "published", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	dir := t.TempDir()
	out, err := run(t, "report", "published", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	for _, want := range []string{"PerfRun default/published: Succeeded", "60000 requests at 999.8 of 1000 qps",
		"added ", "12.1ms", "  95% low ", "11.8ms", "serverSidecar", "390m", "server sidecar per 1000 rps: CPU 390m", "report.html",
		"  service ", "21.5ms", "  send lag ", "8.3ms", "holds across the 3 repetitions' spread",
		"CPU and throttling (kubelet counters)", "37.5%", "4.2s", "93.5%"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(html), "13.7ms") {
		t.Errorf("report.html: %v", err)
	}
	out, err = run(t, "report", "perfrun/published", "-o", "json")
	var doc perfv1alpha1.ResultDocument // the run's result document, as export prints it
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil || doc.Schema != perfv1alpha1.ResultSchema || doc.Result.Added.P90.Duration != 12100*time.Microsecond {
		t.Errorf("json: %v %s", err, out)
	}
	if _, err := run(t, "report", "nothing-here"); err == nil || !strings.Contains(err.Error(), `no PerfRun or PerfSweep "nothing-here"`) {
		t.Errorf("a missing run: %v", err)
	}
}

func TestReportOfAVariantComparison(t *testing.T) {
	res := clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m")
	res.Variants = []perfv1alpha1.VariantResult{
		{Name: "release", ActualQPS: "499.9", Latency: res.Latency, Added: res.Added},
		{Name: "api-logging", ActualQPS: "499.8", Errors: 1, Latency: res.Latency, Added: res.Added,
			Difference: &perfv1alpha1.LatencySummary{P50: d("-444us"), P90: d("1.2ms"), P99: d("8ms")}, BeyondNoise: []string{"p50", "p90"},
			Resources: &perfv1alpha1.ResourceUsage{SidecarPer1kQPS: &perfv1alpha1.PerKQPS{CPU: ptr.To(resource.MustParse("360m"))}}},
	}
	createRun(t, "ab", nil, nil, res, false)
	out, err := run(t, "report", "ab", "--dir", t.TempDir())
	if err != nil {
		t.Fatal(err, out)
	}
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "release") || strings.HasPrefix(line, "api-logging") {
			rows = append(rows, strings.Join(strings.Fields(line), " "))
		}
	}
	want := []string{"release 499.9 0 7.6ms 13.7ms 29.8ms 12.1ms - - - - -",
		"api-logging 499.8 1 7.6ms 13.7ms 29.8ms 12.1ms 360m -444µs 1.2ms 8ms p50,p90"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("variant rows:\n%s\nwant:\n%s\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"), out)
	}
}

// Variants that differ in the Resiliency their invocations ran under name it, each its
// own: "none" for the one without; the column is left out when no variant ran under one.
func TestReportOfVariantsSideBySideNamesEachOnesResiliency(t *testing.T) {
	res := clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m")
	res.Variants = []perfv1alpha1.VariantResult{
		{Name: "plain", ActualQPS: "99.9", Errors: 120, Latency: res.Latency},
		{Name: "retried", ActualQPS: "99.8", Latency: res.Latency, Resiliencies: []string{"retry-killed"},
			Difference: &perfv1alpha1.LatencySummary{P50: d("1ms"), P90: d("2ms"), P99: d("3ms")}},
	}
	createRun(t, "sides", nil, nil, res, false)
	dir := t.TempDir()
	out, err := run(t, "report", "sides", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	for _, want := range []string{"BEYOND-NOISE RESILIENCY", "plain 99.9 120 7.6ms 13.7ms 29.8ms - - - - - - none",
		"retried 99.8 0 7.6ms 13.7ms 29.8ms - - 1ms 2ms 3ms none retry-killed"} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(html), `<th scope="col">Resiliency</th>`) || !strings.Contains(string(html), "retry-killed") {
		t.Errorf("report.html names no variant's Resiliency: %v", err)
	}
}

func TestReportOfASplitLoadListsEveryLoadTesterPod(t *testing.T) {
	res := clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m")
	res.LoadTesters = []perfv1alpha1.LoadTesterPod{
		{Index: 0, Node: "node-a", RequestedQPS: "333.3", ActualQPS: "333.2"},
		{Index: 1, Node: "node-b", RequestedQPS: "333.3", ActualQPS: "281.0"},
	}
	res.Paths = []perfv1alpha1.PathAccounting{{Path: "dapr", Scheduled: 60000, Sent: 59764, Completed: 59700, Failed: 64, Unsent: 236,
		TesterLagP99: &metav1.Duration{Duration: 412 * time.Microsecond}}}
	if res.CPU == nil {
		res.CPU = &perfv1alpha1.CPUAccounting{Source: "kubelet counters"}
	}
	res.CPU.MeasuredPods = []perfv1alpha1.ContainerCPU{{Role: "clientSidecar", Pod: "split-loadtester-1", CPU: resource.MustParse("301m"), Seconds: 50}}
	res.CPU.Variants = []perfv1alpha1.VariantCPU{{Name: "tight", Measured: []perfv1alpha1.ContainerCPU{
		{Role: "serverSidecar@d1", CPU: resource.MustParse("480m"), ThrottledPeriodsPercent: "60.0", Periods: 600, Seconds: 30}}}}
	createRun(t, "split", nil, nil, res, false)
	out, err := run(t, "report", "split", "--dir", t.TempDir())
	if err != nil {
		t.Fatal(err, out)
	}
	for _, want := range []string{"load-tester pods", "POD NODE QPS-SHARE QPS-ACHIEVED", "0 node-a 333.3 333.2", "1 node-b 333.3 281.0",
		"PATH SCHEDULED SENT COMPLETED FAILED NEVER SENT TESTER LAG P99", "dapr 60000 59764 59700 64 236 412µs",
		"measured, per pod clientSidecar (split-loadtester-1) 301m", "variant tight serverSidecar@d1 480m 60.0% 600"} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// squeeze folds runs of spaces, so table rows compare without their padding.
func squeeze(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

func TestReportOfASweepDrawsItsCharts(t *testing.T) {
	sw := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "conns", Namespace: "default"}, Spec: perfv1alpha1.PerfSweepSpec{
		Points: &perfv1alpha1.SweepPoints{Connections: []int32{1, 4}},
		Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
			Load: perfv1alpha1.LoadSpec{QPS: 1000}}}}}
	if err := k8s.Create(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	for i, c := range []int32{1, 4} {
		sw.Status.Points = append(sw.Status.Points, keepPointDocument(t, sw.Namespace,
			perfv1alpha1.SweepPointStatus{Step: int32(i), Connections: c, QPS: 1000, Phase: perfv1alpha1.PhaseSucceeded},
			&perfv1alpha1.Result{ActualQPS: "999.9", Latency: &perfv1alpha1.LatencySummary{P50: d("2ms"), P90: d("3ms"), P99: d("9ms")},
				Baseline: &perfv1alpha1.LatencySummary{P90: d("1ms")}, Added: &perfv1alpha1.LatencySummary{P90: d("2ms")},
				AddedInterval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Low: perfv1alpha1.LatencySummary{P90: d("1.9ms")}, High: perfv1alpha1.LatencySummary{P90: d("2.1ms")}}}))
	}
	sw.Status.Phase, sw.Status.Measured = perfv1alpha1.PhaseSucceeded, 2
	if err := k8s.Status().Update(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := run(t, "report", "perfsweep/conns", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "2 of 2 points measured") || !strings.Contains(out, "1.9ms..2.1ms") {
		t.Errorf("sweep table:\n%s", out)
	}
	for _, f := range []string{"latency-vs-connections.png", "latency-vs-connections.svg", "added-vs-connections.png", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if strings.Count(string(html), "<svg ") != 2 {
		t.Error("report.html does not inline both charts")
	}
	// -o json: the sweep's status with each point's figures, read from its run's document.
	out, err = run(t, "report", "perfsweep/conns", "-o", "json")
	var st struct {
		Measured int32 `json:"measured"`
		Points   []struct {
			Connections int32                      `json:"connections"`
			ActualQPS   string                     `json:"actualQPS"`
			AddedLow    *perfv1alpha1.PointLatency `json:"addedLow"`
		} `json:"points"`
	}
	if err != nil || json.Unmarshal([]byte(out), &st) != nil || st.Measured != 2 || len(st.Points) != 2 ||
		st.Points[1].Connections != 4 || st.Points[1].ActualQPS != "999.9" || st.Points[1].AddedLow.P90.Duration != 1900*time.Microsecond {
		t.Errorf("json: %v %s", err, out)
	}
}

func TestHistoryIsATrendWithRegressionsMarked(t *testing.T) {
	nightly := createSchedule(t, "nightly")
	scheduledRun(t, nightly, "nightly-1", "2026-11-20T03:00:00Z", clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	scheduledRun(t, nightly, "nightly-2", "2026-11-21T03:00:00Z", clitest.SampleResult("19ms", "18ms", "20ms", "520m"), true)
	dir := t.TempDir()
	out, err := run(t, "history", "nightly", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "nightly-2   2026-11-21T03:00:00Z   Succeeded   19ms") || !strings.Contains(out, "520m             yes") {
		t.Errorf("history:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "trend-added-latency.png")); err != nil {
		t.Error(err)
	}
}

// history marks where the added p90 changed level, as the regression judge's change points
// find it: twelve runs of a schedule of their own (the CSV test owns "weekly"), six at ~12 ms then six at ~19 ms.
func TestHistoryMarksChangePoints(t *testing.T) {
	levels := createSchedule(t, "levels")
	for i := range 12 {
		p90 := []string{"12.1ms", "11.9ms", "12.2ms", "12.0ms", "12.3ms", "11.8ms", "19.1ms", "18.9ms", "19.2ms", "19.0ms", "18.8ms", "19.3ms"}[i]
		scheduledRun(t, levels, fmt.Sprintf("levels-%02d", i), fmt.Sprintf("2026-11-%02dT03:00:00Z", i+1), clitest.SampleResult(p90, p90, p90, "390m"), false)
		time.Sleep(1100 * time.Millisecond) // runs are ordered by creation time, to the second
	}
	out, err := run(t, "history", "levels", "--dir", t.TempDir(), "-o", "json")
	if err != nil {
		t.Fatal(err, out)
	}
	var doc struct{ Items []TrendRow }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err, out)
	}
	var changed []string
	for _, r := range doc.Items {
		if r.LevelChange {
			changed = append(changed, r.Run)
		}
	}
	if len(changed) != 1 || changed[0] != "levels-06" {
		t.Errorf("level changes at %v, want levels-06 (the first run at ~19 ms):\n%s", changed, out)
	}
}

func TestProgress(t *testing.T) {
	start := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 1000, Repetitions: 2, Duration: d("60s"), Warmup: d("10s")}},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseRunning}}
	if got := Progress(run, start); got != "Running: starting the load tester" {
		t.Errorf("progress before the controller wrote any: %q", got)
	}
	// The controller last looked at 200 s, in the fourth run (repetition 2 runs dapr, then
	// baseline); the plugin shows that at 205 s, with its own clock's elapsed time.
	p := workload.ProgressAt(&run.Spec, start, start.Add(200*time.Second))
	run.Status.Progress = &p
	got := Progress(run, start.Add(205*time.Second))
	if want := "[########################------]  82% repetition 2/2, baseline path, 3m25s elapsed, ~45s left"; got != want {
		t.Errorf("progress\n got %q\nwant %q", got, want)
	}
	p = workload.ProgressAt(&run.Spec, start, start.Add(5*time.Second))
	run.Status.Progress = &p
	if got := Progress(run, start.Add(5*time.Second)); !strings.Contains(got, "warm-up") {
		t.Errorf("progress %q", got)
	}
}

func TestExportIsOneVersionedDocument(t *testing.T) {
	createRun(t, "exported", map[string]string{perfv1alpha1.LabelSchedule: "nightly"}, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	out, err := run(t, "export", "exported")
	if err != nil {
		t.Fatal(err, out)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out)
	}
	if doc["schema"] != perfv1alpha1.ResultSchema || doc["scenario"] != "ServiceInvocation" {
		t.Errorf("schema %v scenario %v", doc["schema"], doc["scenario"])
	}
	load := doc["load"].(map[string]any)
	// defaults resolved: what ran, not what was written
	if load["connections"] != 16.0 || load["durationSeconds"] != 60.0 || load["payloadBytes"] != 1024.0 || load["baseline"] != true ||
		load["arrival"] != "Synchronized" || load["loadTesterReplicas"] != 1.0 {
		t.Errorf("load %v", load)
	}
	if doc["run"].(map[string]any)["schedule"] != "nightly" {
		t.Errorf("run %v", doc["run"])
	}
	if added := doc["result"].(map[string]any)["added"].(map[string]any); added["p90"] != "12.1ms" {
		t.Errorf("added %v", added)
	}
	// every field the document has is described in docs/result-schema.md
	schemaDoc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "result-schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	for section, v := range doc {
		fields := []string{section}
		if m, ok := v.(map[string]any); ok && section != "result" && section != "environment" && section != "spec" {
			fields = nil
			for k := range m {
				fields = append(fields, section+"."+k)
			}
		}
		for _, f := range fields {
			if !strings.Contains(string(schemaDoc), "`"+f) {
				t.Errorf("docs/result-schema.md does not describe %s", f)
			}
		}
	}
}
