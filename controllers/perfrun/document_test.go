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

package perfrun

import (
	"bytes"
	"context"
	"encoding/base64"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/pods/latency"
	"github.com/daprbench/daprbench/internal/testenv"
)

// The largest run the API admits — every bounded list and string full, four sidecar
// variants and a baseline over ten repetitions, split over ten load-tester pods — leaves a
// report the channel carries and a document its ConfigMap holds, each with room to spare:
// with the termination message gone, the bounds that remain on repetitions and variants
// are the run's time and this size, and admission needs no rule of its own for the size.
// The latencies are heavy-tailed and different in every run, so neither the histograms nor
// gzip get the help of repeated values.
func TestTheLargestAdmittedRunsReportAndDocumentFit(t *testing.T) {
	spec := testenv.LargestRunSpec()
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: strings.Repeat("r", 38), Namespace: strings.Repeat("n", 63), Generation: 1},
		Spec: spec}
	rng := rand.New(rand.NewPCG(59, 1))
	sum := result.Summary{RequestedQPS: float64(spec.Load.QPS), GapUs: 10_240, Error: strings.Repeat("e", result.MaxPointerErrorBytes)}
	recs := map[latency.Key]*latency.Recorded{}
	start := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	for rep := range int(spec.Load.Repetitions) {
		for _, v := range workload.MeasuredPaths(&spec) {
			rec := heavyTailed(rng, 20_000)
			recs[latency.Key{Variant: v, Rep: rep}] = rec
			n := rec.Latency.TotalCount()
			ms := int64(rng.IntN(60_000))
			sum.Runs = append(sum.Runs, result.Run{Variant: v, Rep: rep, StartUnix: start.Add(time.Duration(len(sum.Runs)) * time.Minute).Unix(),
				SecondHalfUnix: start.Unix() + int64(rep), Seconds: 60 + rng.Float64(), ActualQPS: 99_000 + rng.Float64()*999, Requests: n, Scheduled: n + 7,
				Errors: 3, Codes: map[string]int64{"200": n - 3, "503": 1, "504": 1, "-1": 1}, LagP99Us: rng.Int64N(9_999), TesterLagP99Us: rng.Int64N(999),
				DaprdCPU: &result.DaprdCPU{ClientMs: &ms, ClientPods: 10, ServerMs: &ms, WallMs: 60_000}})
		}
	}
	for pod := range int(spec.LoadTester.Replicas) {
		sum.Pods = append(sum.Pods, result.PodLoad{Pod: pod, RequestedQPS: 10_000, ActualQPS: 9_999.9})
	}
	latency.Summarize(&sum, recs, result.StandardPercentiles)
	h, err := latency.HistogramsOf(sum.Runs, recs)
	if err != nil {
		t.Fatal(err)
	}
	rep := result.Report{Summary: sum, Histograms: h}
	for _, role := range []string{result.ProfileServerSidecar, result.ProfileClientSidecar} {
		pprof := make([]byte, result.MaxProfileBytes) // gzipped already: random bytes, as incompressible
		for i := range pprof {
			pprof[i] = byte(rng.Uint32())
		}
		rep.Profiles = append(rep.Profiles, result.Profile{Role: role, StartUnix: start.Unix(), Seconds: 60, Pprof: pprof})
	}
	// Both daprds' gauges, as many readings as the load tester keeps, through the runs.
	for i := range result.MaxGaugeReadings {
		at := start.Add(time.Duration(i) * time.Duration(len(sum.Runs)) * time.Minute / result.MaxGaugeReadings)
		read := func() *result.Gauges {
			return &result.Gauges{At: at, Goroutines: rng.Int64N(1 << 40), OpenFDs: rng.Int64N(1 << 40), Started: start.Unix()}
		}
		rep.DaprdGauges = append(rep.DaprdGauges, result.DaprdGauges{Client: read(), Server: read()})
	}
	// Each run's latency in windows, as many as the load tester keeps through the longest
	// soak of these runs (about MaxGaugeReadings in all, one more a run where a phase does
	// not divide), at seven-digit latencies: a window is its figures, never a histogram.
	for _, r := range sum.Runs {
		w := result.LatencyWindows{Variant: r.Variant, Rep: r.Rep, StartUnixNano: r.StartUnix * 1e9, Width: 360}
		for range result.MaxGaugeReadings/len(sum.Runs) + 1 {
			p50 := 1_000_000 + rng.Int64N(1_000_000)
			w.Windows = append(w.Windows, result.LatencyWindow{Successes: rng.Int64N(1 << 40), Failed: rng.Int64N(1 << 40),
				P50Us: p50, P90Us: p50 + rng.Int64N(1_000_000), P99Us: 3_000_000 + rng.Int64N(1_000_000), MaxUs: 4_000_000 + rng.Int64N(1_000_000)})
		}
		rep.LatencyWindows = append(rep.LatencyWindows, w)
	}

	var log bytes.Buffer
	p, err := result.WriteFrame(&log, rep, sum.Error)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the largest run's report: %d bytes gzipped in %d lines (the channel holds %d)", p.Frame.Bytes, p.Frame.Lines, result.MaxReportBytes)
	if p.Frame.Bytes > result.MaxReportBytes/2 {
		t.Errorf("the largest run's report takes %d bytes: more than half the channel's %d", p.Frame.Bytes, result.MaxReportBytes)
	}
	back, err := result.ReadFrame(log.Bytes(), *p.Frame)
	if err != nil || len(back.Summary.Runs) != len(sum.Runs) || len(back.LatencyWindows) != len(sum.Runs) {
		t.Fatalf("the report read back: %d runs, %d runs' latency windows, %v", len(back.Summary.Runs), len(back.LatencyWindows), err)
	}

	terminated := &corev1.ContainerStateTerminated{}
	a := assess.Evaluate(run, assess.Evidence{Load: assess.Load{Terminated: terminated, Summary: &back.Summary, DaprdGauges: back.DaprdGauges}})
	if a.Result == nil || len(a.Result.Repetitions) != len(sum.Runs) || len(a.Result.Variants) != len(spec.Variants) {
		t.Fatalf("the result of %d runs: %+v", len(sum.Runs), a.Result)
	}
	if len(a.Result.DaprdTrends) != 4 {
		t.Errorf("the document carries %d daprd trends, want both daprds' two", len(a.Result.DaprdTrends))
	}
	run.Status.Environment = &perfv1alpha1.Environment{KubernetesVersion: "v1.36.3", LoadTesterNodes: slices.Repeat([]string{strings.Repeat("n", 63)}, 10)}
	doc := perfv1alpha1.NewResultDocument(run, a.Result, documentHistograms(run, back.Histograms), &perfv1alpha1.ProfilesStatus{ConfigMap: "p"})
	enc, err := document.Encode(&doc)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the largest run's document: %d bytes of JSON, %d gzipped (a ConfigMap holds %d)", len(enc.JSON), len(enc.Gzip), document.MaxBytes)
	if len(enc.Gzip) > document.MaxBytes/2 {
		t.Errorf("the largest run's document takes %d bytes gzipped: more than half of the %d a ConfigMap holds", len(enc.Gzip), document.MaxBytes)
	}
}

// heavyTailed is a run of n requests whose latencies are log-normal around 2 ms with a
// tail to seconds, as a recording of the load tester's, in ten one-second blocks; and, the
// worst case for a histogram's size, requests in every bucket of the histogram's range (1 µs
// to 10 minutes at three digits), a different number in each.
func heavyTailed(rng *rand.Rand, n int) *latency.Recorded {
	lat := result.NewHistogram()
	for us := int64(1); us < result.HighestMicros; us += max(1, us/1000) {
		_ = lat.RecordValues(us, 1+rng.Int64N(1000)) // counts that differ: no help for zlib
	}
	blocks := make([]map[int64]int64, 10)
	for i := range blocks {
		blocks[i] = map[int64]int64{}
	}
	for i := range n {
		us := int64(math.Exp(math.Log(2000)+1.5*rng.NormFloat64())) + 1
		_ = lat.RecordValue(us)
		blocks[i%10][us]++
	}
	rec := &latency.Recorded{Latency: lat, Service: lat, Lag: result.NewHistogram(), TesterLag: result.NewHistogram()}
	_ = rec.Lag.RecordValues(100, lat.TotalCount())
	_ = rec.TesterLag.RecordValues(10, lat.TotalCount())
	for _, b := range blocks {
		var c latency.Counts
		for _, v := range slices.Sorted(maps.Keys(b)) {
			c.Values, c.Counts = append(c.Values, v), append(c.Counts, b[v])
		}
		rec.Blocks = append(rec.Blocks, c)
	}
	return rec
}

// A document larger than a ConfigMap holds fails the run with ResultTooLarge, naming its
// size and the limit; no ConfigMap is written, the headline stays in status, and
// status.lastSuccessful still names the last result that was kept, not this one.
func TestADocumentLargerThanItsStoreFailsTheRunNamingItsSize(t *testing.T) {
	c := fakeClient(t)
	r := &Reconciler{Client: c, APIReader: c, Clock: clocktesting.NewFakePassiveClock(time.Unix(1_800_000_000, 0))}
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "big", UID: "1", Generation: 2}}
	earlier := &perfv1alpha1.ResultDigest{Generation: 1, Document: "big-result-g1"}
	run.Status.LastSuccessful = earlier.DeepCopy()
	res := &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "999.1"}
	applyVerdict(run, assess.Assessment{Result: res, Verdict: assess.Verdict{Reason: perfv1alpha1.ReasonSucceeded, Message: "measured"}}, r.now())

	noise := make([]byte, 2<<20) // as incompressible as a histogram gets: random
	_, _ = rand.NewChaCha8([32]byte{59}).Read(noise)
	huge := []perfv1alpha1.PathHistograms{{Path: "dapr", Variant: string(result.Dapr), Latency: base64.StdEncoding.EncodeToString(noise)}}
	doc, err := r.keepResult(context.Background(), run, res, huge, nil)
	if doc != nil || err != nil {
		t.Fatalf("keepResult = %v, %v: want no document and no error", doc, err)
	}
	failed := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed)
	if failed == nil || failed.Status != metav1.ConditionTrue || failed.Reason != perfv1alpha1.ReasonResultTooLarge ||
		!strings.Contains(failed.Message, "gzipped, more than the 1040384 a ConfigMap holds") || run.Status.Phase != perfv1alpha1.PhaseFailed {
		t.Errorf("the run: %s, %+v", run.Status.Phase, failed)
	}
	if h := run.Status.Result; h == nil || h.ActualQPS != "999.1" || h.Document != "" {
		t.Errorf("the headline: %+v", h)
	}
	if got := run.Status.LastSuccessful; got == nil || *got != *earlier {
		t.Errorf("lastSuccessful: %+v, want generation 1's, untouched", got)
	}
	var cms corev1.ConfigMapList
	if err := c.List(context.Background(), &cms); err != nil || len(cms.Items) != 0 {
		t.Errorf("%d ConfigMaps written, %v", len(cms.Items), err)
	}
}

// fakeClient is controller-runtime's fake client with the API's and Kubernetes' kinds,
// objs in it.
func fakeClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := perfv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
}

// Retiring a run's documents keeps those its status names and the one its sweep's point
// names (a thresholds edit judged the run again: the point keeps the figures it recorded),
// and deletes the rest.
func TestRetiringDocumentsKeepsTheOnesStatusAndTheSweepName(t *testing.T) {
	sw := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "conns", UID: "sweep-1"}}
	sw.Status.Points = []perfv1alpha1.SweepPointStatus{{Run: "conns-1-0", Document: "conns-1-0-result-recorded"}, {Run: "conns-1-1", Document: "conns-1-1-result-x"}}
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "conns-1-0", UID: "run-1",
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(sw, perfv1alpha1.GroupVersion.WithKind("PerfSweep"))}}}
	run.Status.Result = &perfv1alpha1.ResultHeadline{Document: "conns-1-0-result-rejudged"}
	run.Status.LastSuccessful = &perfv1alpha1.ResultDigest{Document: "conns-1-0-result-rejudged"}
	var objs []client.Object
	for _, name := range []string{"recorded", "rejudged", "replaced", "unnamed"} {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "conns-1-0-result-" + name, UID: types.UID(name),
			Labels: workload.Labels(run, roleResult), OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(run, perfv1alpha1.GroupVersion.WithKind("PerfRun"))}}}
		objs = append(objs, cm)
	}
	c := fakeClient(t, append(objs, sw, run)...)
	r := &Reconciler{Client: c, APIReader: c}
	if err := r.retireDocuments(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	var left corev1.ConfigMapList
	if err := c.List(context.Background(), &left); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, cm := range left.Items {
		names = append(names, strings.TrimPrefix(cm.Name, "conns-1-0-result-"))
	}
	if slices.Sort(names); !slices.Equal(names, []string{"recorded", "rejudged"}) {
		t.Errorf("documents left: %v, want the point's and the status's", names)
	}
}
