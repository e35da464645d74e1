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
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fortio.org/fortio/fhttp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
)

// keepHistograms stores, as the controller does, histograms of 1..n ms for the run's paths.
func keepHistograms(t *testing.T, runName string, n int64) {
	t.Helper()
	h := result.NewHistogram()
	for v := int64(1); v <= n; v++ {
		if err := h.RecordValue(v * 1000); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := result.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	storeHistograms(t, runName, result.Histograms{Paths: []result.PathHistograms{
		{Variant: result.Baseline, Latency: enc, Service: enc}, {Variant: result.Dapr, Latency: enc, Service: enc}}})
}

// storeHistograms keeps the run's result document anew with h beside its figures, as the
// operator writes the histograms into it, and points the run's status at it.
func storeHistograms(t *testing.T, runName string, h result.Histograms) {
	t.Helper()
	run := &perfv1alpha1.PerfRun{}
	if err := k8s.Get(context.Background(), keyOf(runName), run); err != nil {
		t.Fatal(err)
	}
	doc, _, err := document.Read(context.Background(), k8s, run)
	if err != nil {
		t.Fatal(err)
	}
	var paths []perfv1alpha1.PathHistograms
	for _, p := range h.Paths {
		paths = append(paths, perfv1alpha1.PathHistograms{Path: p.Variant.String(), Variant: string(p.Variant), Latency: p.Latency, Service: p.Service})
	}
	run.Status.Result = keepDocument(t, run, doc.Result, paths)
	if err := k8s.Status().Update(context.Background(), run); err != nil {
		t.Fatal(err)
	}
}

// The fortio files load with fortio's own result type and carry the histogram exactly:
// count, buckets and percentiles.
func TestExportFortioRoundTripsThroughFortiosTypes(t *testing.T) {
	createRun(t, "raw", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	keepHistograms(t, "raw", 1000)
	dir := t.TempDir()
	out, err := run(t, "export", "raw", "--format", "fortio", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	for _, path := range []string{"baseline", "dapr"} {
		b, err := os.ReadFile(filepath.Join(dir, "raw-"+path+".json"))
		if err != nil {
			t.Fatal(err, out)
		}
		var res fhttp.HTTPRunnerResults
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatalf("%s: not fortio's HTTP result: %v", path, err)
		}
		h := res.DurationHistogram
		if res.RunType != "HTTP" || h == nil || h.Count != 1000 || res.RetCodes[200] != 1000 {
			t.Fatalf("%s: run type %q, histogram %+v, codes %v", path, res.RunType, h, res.RetCodes)
		}
		var sum int64
		for i, bucket := range h.Data {
			sum += bucket.Count
			if i > 0 && bucket.Start < h.Data[i-1].End-1e-9 {
				t.Errorf("%s: bucket %d starts at %v before the previous one ends at %v", path, i, bucket.Start, h.Data[i-1].End)
			}
		}
		if sum != 1000 || math.Abs(h.Data[len(h.Data)-1].Percent-100) > 1e-9 {
			t.Errorf("%s: buckets hold %d, last at %v%%", path, sum, h.Data[len(h.Data)-1].Percent)
		}
		for _, p := range h.Percentiles {
			if p.Percentile == 90 && math.Abs(p.Value-0.9) > 0.9*0.001 {
				t.Errorf("%s: p90 %vs, want 0.9s within HDR's precision", path, p.Value)
			}
		}
		if math.Abs(h.Avg-0.5005) > 0.001 || h.Min != 0.001 {
			t.Errorf("%s: avg %v min %v", path, h.Avg, h.Min)
		}
	}
}

func TestExportFortioWithoutHistogramsSaysWhy(t *testing.T) {
	createRun(t, "nohist", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	_, err := run(t, "export", "nohist", "--format", "fortio", "--dir", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "holds no histograms") {
		t.Errorf("error %v, want one saying the run has no histograms", err)
	}
}

func TestExportCSVMatchesItsGoldenFiles(t *testing.T) {
	createRun(t, "csv-run", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	weekly := createSchedule(t, "weekly")
	scheduledRun(t, weekly, "weekly-1", "2026-11-20T03:00:00Z", clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	scheduledRun(t, weekly, "weekly-2", "2026-11-27T03:00:00Z", clitest.SampleResult("19ms", "18ms", "20ms", "520m"), true)
	sw := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "csv-sweep", Namespace: "default"}, Spec: perfv1alpha1.PerfSweepSpec{
		Points: &perfv1alpha1.SweepPoints{QPS: []int32{500, 1000}},
		Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
			Load: perfv1alpha1.LoadSpec{QPS: 1000}}}}}
	if err := k8s.Create(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	for i, q := range []int32{500, 1000} {
		sw.Status.Points = append(sw.Status.Points, keepPointDocument(t, sw.Namespace, perfv1alpha1.SweepPointStatus{Step: int32(i), QPS: q, Connections: 16,
			Run: "csv-sweep-" + strconv.Itoa(i), Phase: perfv1alpha1.PhaseSucceeded},
			&perfv1alpha1.Result{ActualQPS: strconv.Itoa(int(q)), Latency: &perfv1alpha1.LatencySummary{P90: d("3ms"), P99: d("9ms")},
				Added: &perfv1alpha1.LatencySummary{P90: d("2ms"), P99: d("6ms")}}))
	}
	if err := k8s.Status().Update(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	for golden, args := range map[string][]string{
		"export-run.csv":   {"export", "csv-run", "--format", "csv"},
		"export-sweep.csv": {"export", "perfsweep/csv-sweep", "--format", "csv"},
		"history.csv":      {"history", "weekly", "-o", "csv", "--dir", t.TempDir()},
	} {
		out, err := run(t, args...)
		if err != nil {
			t.Fatal(err, out)
		}
		checkGolden(t, golden, out)
	}
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (rerun with -update after checking):\n%s", path, got)
	}
}

func keyOf(name string) client.ObjectKey { return client.ObjectKey{Namespace: "default", Name: name} }

// A run with histograms gets its latency distribution chart in report.html.
func TestReportOfARunWithHistogramsDrawsItsDistribution(t *testing.T) {
	createRun(t, "spectrum", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	keepHistograms(t, "spectrum", 1000)
	dir := t.TempDir()
	if out, err := run(t, "report", "spectrum", "--dir", dir); err != nil {
		t.Fatal(err, out)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "latency-distribution.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"99.9%", "baseline", "dapr"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the distribution chart lacks %q", want)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !strings.Contains(string(html), `<figure id="chart-latency-distribution"><svg `) {
		t.Error("report.html does not inline the distribution chart")
	}
}
