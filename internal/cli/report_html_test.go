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
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
)

// Issue 36 item 7: report.html was a <pre> of the terminal's tables and PNGs: no versions,
// images, spec or dates, no interval on the sweep's added latency, empty charts drawn. These
// render the reports of testdata's finished run and sweep through `kubectl daprbench
// report` against the API server and read the page back.

// fixtureObject reads testdata/file into obj (strictly: a misspelt field fails).
func fixtureObject(t testing.TB, file string, obj any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, obj); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// runFixture is testdata's finished run as the operator leaves it: the object, with the
// figures of its result document in the file's status.result (createFixtureRun keeps them
// as the document, and status.result becomes its headline).
type runFixture struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              perfv1alpha1.PerfRunSpec `json:"spec"`
	Status            struct {
		perfv1alpha1.PerfRunStatus `json:",inline"`
		Result                     *perfv1alpha1.Result `json:"result"`
	} `json:"status"`
}

// sweepFixture is testdata's finished sweep, each point with its run's figures (kept as
// the point's result document by createFixtureSweep).
type sweepFixture struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              perfv1alpha1.PerfSweepSpec `json:"spec"`
	Status            struct {
		perfv1alpha1.PerfSweepStatus `json:",inline"`
		Points                       []pointFixture `json:"points"`
	} `json:"status"`
}

// pointFixture is a point and its run's compact figures.
type pointFixture struct {
	perfv1alpha1.SweepPointStatus `json:",inline"`
	ActualQPS                     string                     `json:"actualQPS"`
	Errors                        int64                      `json:"errors"`
	Latency                       *perfv1alpha1.PointLatency `json:"latency"`
	Baseline                      *perfv1alpha1.PointLatency `json:"baseline"`
	Added                         *perfv1alpha1.PointLatency `json:"added"`
	AddedLow                      *perfv1alpha1.PointLatency `json:"addedLow"`
	AddedHigh                     *perfv1alpha1.PointLatency `json:"addedHigh"`
	SidecarCPUPer1kQPS            *resource.Quantity         `json:"sidecarCPUPer1kQPS"`
}

// result is the point's run's result holding its figures.
func (p pointFixture) result() *perfv1alpha1.Result {
	full := func(l *perfv1alpha1.PointLatency) *perfv1alpha1.LatencySummary {
		if l == nil {
			return nil
		}
		return &perfv1alpha1.LatencySummary{P50: l.P50, P90: l.P90, P99: l.P99}
	}
	res := &perfv1alpha1.Result{ActualQPS: p.ActualQPS, Errors: p.Errors, Latency: full(p.Latency), Baseline: full(p.Baseline), Added: full(p.Added)}
	if p.AddedLow != nil && p.AddedHigh != nil {
		res.AddedInterval = &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Low: *full(p.AddedLow), High: *full(p.AddedHigh)}
	}
	if p.SidecarCPUPer1kQPS != nil {
		res.Resources = &perfv1alpha1.ResourceUsage{SidecarPer1kQPS: &perfv1alpha1.PerKQPS{CPU: p.SidecarCPUPer1kQPS}}
	}
	return res
}

// createSweep creates sw under name in namespace default, then writes its status as the
// controller would, each point with a result document of its figures (nil: none).
func createSweep(t *testing.T, name string, sw *perfv1alpha1.PerfSweep, figures []*perfv1alpha1.Result) *perfv1alpha1.PerfSweep {
	t.Helper()
	sw.SetName(name)
	sw.SetNamespace("default")
	status := sw.Status
	sw.Status = perfv1alpha1.PerfSweepStatus{}
	if err := k8s.Create(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	sw.Status = status
	for i := range sw.Status.Points {
		if i < len(figures) && figures[i] != nil {
			sw.Status.Points[i] = keepPointDocument(t, sw.Namespace, sw.Status.Points[i], figures[i])
		}
	}
	if err := k8s.Status().Update(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	return sw
}

// createFixtureSweep creates testdata's connections sweep under name.
func createFixtureSweep(t *testing.T, name string) *perfv1alpha1.PerfSweep {
	t.Helper()
	var f sweepFixture
	fixtureObject(t, "report-sweep.yaml", &f)
	sw := &perfv1alpha1.PerfSweep{TypeMeta: f.TypeMeta, ObjectMeta: f.ObjectMeta, Spec: f.Spec, Status: f.Status.PerfSweepStatus}
	var figures []*perfv1alpha1.Result
	sw.Status.Points = nil
	for _, p := range f.Status.Points {
		sw.Status.Points = append(sw.Status.Points, p.SweepPointStatus)
		var res *perfv1alpha1.Result
		if p.Latency != nil {
			res = p.result()
		}
		figures = append(figures, res)
	}
	return createSweep(t, name, sw, figures)
}

// createFixtureRun creates testdata's sidecar A/B run under name, with its result document
// and histograms (the baseline's and each variant's) so the report draws the latency
// distribution.
func createFixtureRun(t *testing.T, name string) *perfv1alpha1.PerfRun {
	t.Helper()
	var f runFixture
	fixtureObject(t, "report-run.yaml", &f)
	run := &perfv1alpha1.PerfRun{TypeMeta: f.TypeMeta, ObjectMeta: f.ObjectMeta, Spec: f.Spec}
	run.SetName(name)
	run.SetNamespace("default")
	if err := k8s.Create(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	run.Status = f.Status.PerfRunStatus
	for i := range run.Status.Conditions {
		run.Status.Conditions[i].ObservedGeneration = run.Generation
	}
	var paths []perfv1alpha1.PathHistograms
	for i, v := range []result.Variant{result.Baseline, result.DaprVariant(0), result.DaprVariant(1)} {
		hist := result.NewHistogram()
		for us := int64(1); us <= 2000; us++ {
			if err := hist.RecordValue(300 + us*int64(1+3*i) + us*us*int64(i)/200); err != nil {
				t.Fatal(err)
			}
		}
		enc, err := result.EncodeHistogram(hist)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, perfv1alpha1.PathHistograms{Path: v.String(), Variant: string(v), Latency: enc, Service: enc})
	}
	run.Status.Result = keepDocument(t, run, f.Status.Result, paths)
	if err := k8s.Status().Update(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	return run
}

// reportOf runs `report ARG --dir DIR` and returns what it printed and report.html.
func reportOf(t *testing.T, arg string) (out, page, dir string) {
	t.Helper()
	dir = t.TempDir()
	out, err := run(t, "report", arg, "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	return out, string(b), dir
}

// htmlTables parses page and returns each table with an id as rows of cell texts (a cell's
// text nodes joined by a space).
func htmlTables(t testing.TB, page string) map[string][][]string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][][]string{}
	var text func(n *html.Node) []string
	text = func(n *html.Node) []string {
		if n.Type == html.TextNode {
			if s := strings.TrimSpace(n.Data); s != "" {
				return []string{s}
			}
		}
		var out []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			out = append(out, text(c)...)
		}
		return out
	}
	var walk func(n *html.Node, table string)
	walk = func(n *html.Node, table string) {
		if n.Type == html.ElementNode && n.Data == "table" {
			table = attr(n, "id")
		}
		if n.Type == html.ElementNode && n.Data == "tr" && table != "" {
			var row []string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
					row = append(row, strings.Join(text(c), " "))
				}
			}
			tables[table] = append(tables[table], row)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, table)
		}
	}
	walk(doc, "")
	return tables
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// tableRow is the row of table whose first cell is first; nil when none.
func tableRow(rows [][]string, first string) []string {
	for _, r := range rows {
		if len(r) > 0 && r[0] == first {
			return r
		}
	}
	return nil
}

// wantRow checks that table has a row starting with first whose cells hold want in order.
func wantRow(t *testing.T, tables map[string][][]string, table, first string, want ...string) {
	t.Helper()
	row := tableRow(tables[table], first)
	if row == nil {
		t.Errorf("table %s has no row %q: %q", table, first, tables[table])
		return
	}
	cells := row[1:]
	for _, w := range want {
		i := slices.IndexFunc(cells, func(c string) bool { return strings.Contains(c, w) })
		if i < 0 {
			t.Errorf("table %s, row %q lacks %q (in order): %q", table, first, w, row)
			return
		}
		cells = cells[i+1:]
	}
}

// externalRef finds what would make a browser fetch something or run code.
var externalRef = regexp.MustCompile(`(?i)<(img|script|link|iframe|object|embed|image|foreignobject)\b|\s(src|href|xlink:href|action|poster|srcset)\s*=|url\(|@import`)

// checkSelfContained: nothing in page is fetched, and it inlines exactly the charts named,
// one <svg> each.
func checkSelfContained(t *testing.T, page string, charts ...string) {
	t.Helper()
	if m := externalRef.FindAllString(page, -1); m != nil {
		t.Errorf("report.html refers outside itself: %q", m)
	}
	if n := strings.Count(page, "<svg"); n != len(charts) {
		t.Errorf("report.html has %d <svg>, want %d (%v)", n, len(charts), charts)
	}
	for _, c := range charts {
		if !regexp.MustCompile(`<figure id="chart-` + c + `"><svg [^>]*role="img"`).MatchString(page) {
			t.Errorf("report.html does not inline chart %s as SVG", c)
		}
	}
}

func TestReportHTMLOfARunCarriesItsIdentityEnvironmentAndIntervals(t *testing.T) {
	fixture := createFixtureRun(t, "html-run")
	out, page, dir := reportOf(t, "html-run")
	tables := htmlTables(t, page)

	wantRow(t, tables, "identity", "Run", "default/html-run")
	wantRow(t, tables, "identity", "UID", string(fixture.UID))
	wantRow(t, tables, "identity", "Started", "2026-11-22 03:00:04 UTC")
	wantRow(t, tables, "identity", "Finished", "2026-11-22 03:09:41 UTC")
	wantRow(t, tables, "identity", "Took", "9m37s")
	wantRow(t, tables, "identity", "Queued for", "12s")
	wantRow(t, tables, "versions", "Dapr", "1.16.0")
	wantRow(t, tables, "versions", "Kubernetes", "v1.36.3")
	wantRow(t, tables, "versions", "daprbench manager", "v0.4.0 (commit 3f9c2e1)")
	wantRow(t, tables, "versions", "Sidecar image (measured)", "ghcr.io/dapr/daprd:1.16.0")
	wantRow(t, tables, "versions", "Target image", "ghcr.io/daprbench/daprbench:v0.4.0")
	wantRow(t, tables, "versions", "Load-tester image", "the operator's own image (default)")
	wantRow(t, tables, "versions", "Variant api-logging sidecar image", "ghcr.io/dapr/daprd:1.16.0")
	wantRow(t, tables, "versions", "mTLS", "enabled (the spec expects Enabled)")
	wantRow(t, tables, "placement", "Target node", "bench-node-a")
	wantRow(t, tables, "placement", "Load-tester nodes", "bench-node-b")
	wantRow(t, tables, "calibration", "bench-node-a", "41230", "39870 (1 goroutines)", "82460", "3%", "500m", "c41d2a")

	// Figures in tables, each with its interval or its spread over repetitions.
	wantRow(t, tables, "latency-figures", "dapr", "7.6ms repetitions 7.5ms – 7.7ms", "13.7ms repetitions 13.4ms – 14.1ms")
	wantRow(t, tables, "latency-figures", "baseline (no sidecar)", "1.44ms repetitions 1.41ms – 1.47ms")
	wantRow(t, tables, "latency-figures", "added by Dapr", "6.9ms 95%: 6.8ms – 7ms", "12.1ms 95%: 11.8ms – 12.4ms",
		"26ms ≈95%: 25ms – 27ms", "35.1ms ≈95%: 31.9ms – 38.6ms", "7.54ms 95%: 7.41ms – 7.66ms")
	wantRow(t, tables, "variant-figures", "release", "499.9", "12.1ms 95%: 11.8ms – 12.4ms", "390m")
	wantRow(t, tables, "variant-figures", "api-logging", "499.8", "13.3ms 95%: 12.9ms – 13.8ms", "455m",
		"444µs 95%: 210µs – 680µs", "1.2ms 95%: 610µs – 1.8ms", "8ms 95%: -1.5ms – 17.5ms", "p50, p90")
	wantRow(t, tables, "threshold-checks", "added p90", "12.1ms", "met")
	wantRow(t, tables, "paths", "api-logging", "30000", "29989", "29988", "1", "11", "92µs")
	wantRow(t, tables, "cpu", "measured", "serverSidecar", "196m", "0.4%")
	wantRow(t, tables, "sidecar-cost", "serverSidecar", "392µs", "1020", "bench-node-a")
	wantRow(t, tables, "resources-measured", "serverSidecar", "195m", "221m", "38Mi")
	wantRow(t, tables, "disturbances", "2026-11-22 03:04:12 UTC", "Created", "controlPlane/dapr-placement-server")
	wantRow(t, tables, "condition-table", "DaprReady", "True", "ControlPlaneFound", "Dapr 1.16.0 found in dapr-system")
	wantRow(t, tables, "condition-table", "Succeeded", "True", "Succeeded")

	// The spec, as YAML, folded away.
	spec := regexp.MustCompile(`(?s)<details><summary>The run&#39;s spec \(YAML\)</summary><pre>(.*?)</pre></details>`).FindStringSubmatch(page)
	if spec == nil || !strings.Contains(spec[1], "dapr.io/enable-api-logging") || !strings.Contains(spec[1], "maxAddedP90: 15ms") {
		t.Errorf("report.html lacks the spec as YAML in a <details>:\n%s", page)
	}
	if !strings.Contains(page, `<p class="verdict passed">passed: `) {
		t.Error("report.html does not say the run passed")
	}
	checkSelfContained(t, page, "latency-distribution")
	checkWritten(t, out, dir, "latency-distribution.png", "latency-distribution.svg", "report.html")
}

func TestReportHTMLOfASweepCarriesItsPointsWithIntervals(t *testing.T) {
	sw := createFixtureSweep(t, "html-sweep")
	out, page, dir := reportOf(t, "perfsweep/html-sweep")
	tables := htmlTables(t, page)

	wantRow(t, tables, "identity", "Sweep", "default/html-sweep")
	wantRow(t, tables, "identity", "UID", string(sw.UID))
	wantRow(t, tables, "identity", "Started", "2026-11-23 01:00:00 UTC")
	wantRow(t, tables, "identity", "Took", "31m12s")
	wantRow(t, tables, "identity", "Points measured", "4 of 4")
	wantRow(t, tables, "identity", "Swept", "connections [1 4 16 64]")
	wantRow(t, tables, "point-figures", "0", "16", "1000", "invocation-connections-1-0", "Succeeded", "999.9",
		"3.4ms", "890µs", "1.58ms 95%: 1.51ms – 1.65ms", "2.51ms 95%: 2.38ms – 2.64ms", "6.8ms 95%: 6.1ms – 7.5ms", "402m")
	wantRow(t, tables, "point-figures", "2", "64", "Failed", "Saturated: the dapr path achieved 871.2 qps")
	wantRow(t, tables, "condition-table", "Succeeded", "True", "PointsMeasured")
	if !strings.Contains(page, "<summary>The sweep&#39;s spec: the template run and its points (YAML)</summary>") ||
		!strings.Contains(page, "tracingSamplingRate: &#34;0.1&#34;") {
		t.Errorf("report.html lacks the sweep's spec:\n%s", page)
	}
	checkSelfContained(t, page, "latency-vs-connections", "added-vs-connections")
	checkWritten(t, out, dir, "latency-vs-connections.png", "latency-vs-connections.svg",
		"added-vs-connections.png", "added-vs-connections.svg", "report.html")
}

// A search's charts without data are left out, and the report says so; the terminal's
// "written:" lists only the files there are.
func TestReportHTMLDrawsNoEmptyChart(t *testing.T) {
	sw := &perfv1alpha1.PerfSweep{Spec: perfv1alpha1.PerfSweepSpec{Search: &perfv1alpha1.RateSearch{StartQPS: 500, MaxQPS: 4000, MaxSteps: 4, PrecisionPercent: 5},
		Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 500}}}}}
	// The sidecar's CPU was not measured at any step.
	var figures []*perfv1alpha1.Result
	for i, q := range []int32{500, 1000, 2000} {
		sw.Status.Points = append(sw.Status.Points, perfv1alpha1.SweepPointStatus{Step: int32(i), QPS: q, Phase: perfv1alpha1.PhaseSucceeded,
			Run: fmt.Sprintf("html-search-%d", i), Passed: ptr.To(q < 2000)})
		figures = append(figures, &perfv1alpha1.Result{Latency: &perfv1alpha1.LatencySummary{P50: d("1ms"), P90: d("2ms"), P99: d("5ms")}})
	}
	sw.Status.Phase, sw.Status.Measured, sw.Status.MaxSustainableQPS = perfv1alpha1.PhaseSucceeded, 3, ptr.To[int32](1000)
	createSweep(t, "html-search", sw.DeepCopy(), figures)
	out, page, dir := reportOf(t, "perfsweep/html-search")
	checkSelfContained(t, page, "latency-vs-qps")
	if !strings.Contains(page, "html-search: server sidecar CPU per 1000 rps, by rate: not drawn, no point has a value for it.") {
		t.Errorf("report.html does not say why the CPU chart is missing:\n%s", page)
	}
	checkWritten(t, out, dir, "latency-vs-qps.png", "latency-vs-qps.svg", "report.html")
	wantRow(t, htmlTables(t, page), "identity", "Highest rate meeting the objective", "1000 qps")

	// No step succeeded: no chart at all.
	none := sw.DeepCopy()
	none.ResourceVersion, none.UID = "", ""
	for i := range none.Status.Points {
		none.Status.Points[i].Phase = perfv1alpha1.PhaseFailed
	}
	createSweep(t, "html-search-none", none, nil)
	out, page, dir = reportOf(t, "perfsweep/html-search-none")
	checkSelfContained(t, page)
	if strings.Count(page, "not drawn, no point has a value for it.") != 2 {
		t.Errorf("report.html does not say both charts were left out:\n%s", page)
	}
	checkWritten(t, out, dir, "report.html")
}

// checkWritten: the command's "written:" line names exactly files, each in dir, and dir
// holds nothing else.
func checkWritten(t *testing.T, out, dir string, files ...string) {
	t.Helper()
	var want []string
	for _, f := range files {
		want = append(want, filepath.Join(dir, f))
	}
	if line := "written: " + strings.Join(want, ", "); !strings.Contains(out, line+"\n") {
		t.Errorf("the command printed no %q:\n%s", line, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(got)
	slices.Sort(files)
	if !slices.Equal(got, files) {
		t.Errorf("%s holds %v, want %v", dir, got, files)
	}
}

// The run's report of a run with nothing yet: no result, environment or condition. It
// says so instead of drawing empty tables.
func TestReportHTMLOfARunWithoutAResult(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 10}}}
	page, err := report.RunPage(document.Run{PerfRun: run})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"No result yet.", "The run recorded no environment", "No conditions yet."} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	for _, table := range []string{"latency-figures", "calibration", "condition-table"} {
		if strings.Contains(string(page), `id="`+table+`"`) {
			t.Errorf("report.html draws the empty table %s", table)
		}
	}
}
