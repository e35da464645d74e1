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

package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
	"github.com/daprbench/daprbench/internal/pods/perfapp"
)

// These tests send real load over loopback, bounded to a few seconds each.

func startPerfapp(t *testing.T, cfg perfapp.Config) (*perfapp.App, string) {
	t.Helper()
	app := perfapp.New(cfg)
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	return app, srv.URL
}

type cliRun struct {
	code           int
	summary        *result.Summary
	report         result.Report
	stdout, stderr string
	elapsed        time.Duration
}

// runCLI runs the load tester's Main in this process, as the pod runs it. Most tests do
// and then wait on stand-in servers, using little CPU: they call t.Parallel (eight at a time:
// TestMain). A test whose assertion is a time to the millisecond (a freeze in the
// tail, a trigger's lateness, a held delivery, a daprd's CPU rate) does not: Go runs a
// package's serial tests alone, before its parallel ones. Four that judge milliseconds run in
// parallel anyway (attribution, variants, a fault's seconds, a group's merged p50): serial
// they cost CI 42 s, and they passed in parallel in every rehearsal.
func runCLI(t *testing.T, args ...string) cliRun {
	t.Helper()
	termLog := filepath.Join(t.TempDir(), "termination-log")
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := Main(context.Background(), append(args, "--termination-log="+termLog), nil, &stdout, &stderr)
	out := cliRun{code: code, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	out.report = readReport(t, termLog, out.stdout, out.stderr)
	out.summary = &out.report.Summary
	return out
}

// readReport reads the termination message, then the report it points to in the log, as
// the operator does.
func readReport(t *testing.T, termLog, stdout, stderr string) result.Report {
	t.Helper()
	b, err := os.ReadFile(termLog)
	if err != nil {
		t.Fatalf("no termination message written: %v\nstderr:\n%s", err, stderr)
	}
	if len(b) > result.MaxMessageBytes {
		t.Fatalf("a termination message of %d bytes", len(b))
	}
	p, err := result.DecodePointer(b)
	if err != nil {
		t.Fatalf("the termination message does not decode: %v: %s", err, b)
	}
	if p.Frame == nil {
		return result.Report{Summary: result.Summary{Error: p.Error}}
	}
	rep, err := result.ReadFrame([]byte(stdout), *p.Frame)
	if err != nil {
		t.Fatalf("the report does not read: %v", err)
	}
	if rep.Summary.Error != p.Error || len(rep.Summary.Runs) != p.Runs {
		t.Fatalf("the pointer (%d runs, error %q) does not match its report (%d runs, error %q)", p.Runs, p.Error, len(rep.Summary.Runs), rep.Summary.Error)
	}
	return rep
}

func TestInvocationInterleavedAgainstPerfapp(t *testing.T) {
	t.Parallel()
	app, appURL := startPerfapp(t, perfapp.Config{ResponseBytes: 16})
	sidecar := newSidecarStandIn(appURL, true)
	defer sidecar.Close()

	r := runCLI(t, "--qps=300", "--connections=4", "--duration=2s", "--warmup=400ms", "--repetitions=2",
		"--payload-bytes=1024", "--baseline-url="+appURL+"/test", "--dapr-url="+sidecar.URL+"/v1.0/invoke/target/method/test",
		"--sidecar-url="+sidecar.URL, "--sidecar-wait=5s",
		"--daprd-metrics-client-url="+sidecar.URL+"/metrics", "--daprd-metrics-server-url="+sidecar.URL+"/metrics")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	s := r.summary
	var order []string
	for _, run := range s.Runs {
		order = append(order, run.Variant.String())
		if run.Errors != 0 {
			t.Errorf("the %s path answered %v", run.Variant, run.Codes)
		}
	}
	if got := strings.Join(order, " "); got != "baseline dapr dapr baseline" {
		t.Errorf("run order = %q, want baseline and dapr interleaved A B B A", got)
	}
	for _, run := range s.Runs {
		if run.ActualQPS < 0.95*300 || run.ActualQPS > 1.05*300 {
			t.Errorf("%s rep %d: actual qps %.1f, want ~300", run.Variant, run.Rep, run.ActualQPS)
		}
		if run.Errors != 0 || run.Codes["200"] != run.Requests || run.Requests < 500 {
			t.Errorf("%s rep %d: requests %d, codes %v", run.Variant, run.Rep, run.Requests, run.Codes)
		}
		var prev int64 = -1
		for _, p := range result.StandardPercentiles {
			d, ok := run.Latency(p)
			if !ok {
				t.Fatalf("percentile %v missing", p)
			}
			if d.Microseconds() < prev {
				t.Errorf("%s: p%v = %v below the previous percentile", run.Variant, p, d)
			}
			prev = d.Microseconds()
		}
	}
	checkDaprdCPU(t, s)
	if got := sidecar.shutdowns.Load(); got != 1 {
		t.Errorf("sidecar shutdowns = %d, want 1", got)
	}
	// Full fortio JSON per run (two warm-ups + four measured) on stdout, then the report's
	// frame with the merged histograms of each path.
	all := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if all[len(all)-1] != result.FramePrefix+"end" {
		t.Errorf("the last stdout line does not end the report: %.80s", all[len(all)-1])
	}
	fortio := fortioLines(r.stdout)
	for _, line := range fortio {
		if !strings.Contains(line, `"DurationHistogram"`) {
			t.Errorf("stdout line is not a fortio result: %.80s", line)
		}
	}
	if len(fortio) != 6 {
		t.Errorf("fortio JSON documents on stdout = %d, want 6", len(fortio))
	}
	checkExactLatencies(t, s, fortio[2:])
	checkHistograms(t, s, r.report.Histograms)
	if app.Stats.Invocations.Load() < 4*500 {
		t.Errorf("app saw %d invocations", app.Stats.Invocations.Load())
	}
}

// checkDaprdCPU checks each run's daprd CPU against the stand-in's known answer: its
// counter advances by standInCPUPerRequest for every request through it (the Dapr path's)
// and by standInIdleCPU every second. Both URLs name the stand-in, so both readings match.
func checkDaprdCPU(t *testing.T, s *result.Summary) {
	t.Helper()
	for _, run := range s.Runs {
		c := run.DaprdCPU
		if c == nil || c.ClientMs == nil || c.ServerMs == nil || c.ClientPods != 1 {
			t.Fatalf("%s rep %d: daprd CPU %+v, want both daprds read by one pod", run.Variant, run.Rep, c)
		}
		want := standInIdleCPU * float64(c.WallMs)
		if run.Variant == result.Dapr {
			want += float64(run.Requests) * float64(standInCPUPerRequest.Microseconds()) / 1000
		}
		// The wall time is the meter's and the counter the stand-in's: a few ms apart at most.
		if got := float64(*c.ClientMs); math.Abs(got-want) > 3 || *c.ServerMs != *c.ClientMs {
			t.Errorf("%s rep %d: daprd CPU client %d ms, server %d ms over %d ms, want %.1f", run.Variant, run.Rep,
				*c.ClientMs, *c.ServerMs, c.WallMs, want)
		}
		if seconds := float64(c.WallMs) / 1000; seconds < 0.9*run.Seconds || seconds > run.Seconds+1 {
			t.Errorf("%s rep %d: daprd CPU read over %v s, the run lasted %v s", run.Variant, run.Rep, seconds, run.Seconds)
		}
	}
}

func TestActorCallsActivateAFreshActorEachTime(t *testing.T) {
	t.Parallel()
	app, appURL := startPerfapp(t, perfapp.Config{ActorType: "PerfActor"})
	sidecar := newSidecarStandIn(appURL, true)
	defer sidecar.Close()
	r := runCLI(t, "--qps=200", "--connections=2", "--duration=1s", "--warmup=0s", "--payload={}",
		"--dapr-url="+sidecar.URL+"/v1.0/actors/PerfActor/{uuid}/method/activate", "--sidecar-url="+sidecar.URL)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.summary.Error)
	}
	// Unmeasured calls: the target readiness probe (1) and fortio's one request per
	// connection before measuring (2 here).
	n := r.summary.Runs[0].Requests + 1 + 2
	if calls := app.Stats.ActorCalls.Load(); calls != n {
		t.Errorf("app saw %d actor calls, load tester made %d", calls, n)
	}
	if d := sidecar.distinctActors(); int64(d) != n {
		t.Errorf("distinct actor ids = %d, want one per request (%d)", d, n)
	}
}

func TestTargetRefusingConnectionsFailsWithSummary(t *testing.T) {
	t.Parallel()
	// Port 1 (tcpmux), which nothing here listens on: a port taken from a closed listener
	// can be handed to another test's server in the meantime, which answers or hangs
	// instead of refusing (rehearsal W: "context deadline exceeded").
	closed := "http://127.0.0.1:1/test"
	sidecar := newSidecarStandIn("", true)
	defer sidecar.Close()
	r := runCLI(t, "--qps=50", "--duration=1s", "--warmup=0s", "--dapr-url="+closed, "--sidecar-url="+sidecar.URL, "--target-wait=1s")
	if r.code != 1 {
		t.Errorf("exit = %d, want 1", r.code)
	}
	if !strings.Contains(r.summary.Error, "did not answer 2xx within 1s") || !strings.Contains(r.summary.Error, "connection refused") {
		t.Errorf("summary error = %q, want the failing path named", r.summary.Error)
	}
	if sidecar.shutdowns.Load() != 1 {
		t.Error("sidecar not stopped after a failure")
	}
}

func TestTargetFailingMidRunFailsWithTheFailingPath(t *testing.T) {
	t.Parallel()
	// The target answers the readiness probe, then goes away before the load: fortio's own
	// connection check fails and the error names the path.
	_, appURL := startPerfapp(t, perfapp.Config{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/test"
	l.Close()
	r := runCLI(t, "--qps=50", "--duration=1s", "--warmup=0s", "--baseline-url="+appURL+"/test", "--dapr-url="+closed, "--target-wait=0s")
	if r.code != 1 || !strings.Contains(r.summary.Error, "dapr path, repetition 1") {
		t.Errorf("exit %d, error %q", r.code, r.summary.Error)
	}
	if len(r.summary.Runs) != 1 || r.summary.Runs[0].Variant != result.Baseline {
		t.Errorf("the finished baseline run should be kept: %+v", r.summary.Runs)
	}
}

func TestTargetNotRoutableYetIsWaitedFor(t *testing.T) {
	t.Parallel()
	// The first requests fail (a Service whose route is not programmed yet), then succeed.
	app := perfapp.New(perfapp.Config{})
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		app.Handler().ServeHTTP(w, r)
	}))
	defer srv.Close()
	r := runCLI(t, "--qps=50", "--duration=1s", "--warmup=0s", "--direct-url="+srv.URL+"/test", "--target-wait=10s")
	if r.code != 0 || r.summary.Runs[0].Errors != 0 {
		t.Errorf("exit %d, error %q, runs %+v", r.code, r.summary.Error, r.summary.Runs)
	}
}

func TestSidecarNeverHealthyIsBounded(t *testing.T) {
	t.Parallel()
	_, appURL := startPerfapp(t, perfapp.Config{})
	sidecar := newSidecarStandIn(appURL, false)
	defer sidecar.Close()
	r := runCLI(t, "--qps=50", "--duration=1s", "--dapr-url="+appURL+"/test", "--sidecar-url="+sidecar.URL, "--sidecar-wait=1s")
	if r.code != 1 || !strings.Contains(r.summary.Error, "not healthy after 1s") {
		t.Errorf("exit %d, error %q", r.code, r.summary.Error)
	}
	if r.elapsed > 15*time.Second {
		t.Errorf("took %v for a 1s bound", r.elapsed) // generous: a hang, not a timing check
	}
	if len(r.summary.Runs) != 0 || sidecar.shutdowns.Load() != 1 {
		t.Errorf("runs %d, shutdowns %d", len(r.summary.Runs), sidecar.shutdowns.Load())
	}
}

func TestBadFlagsStillWriteSummary(t *testing.T) {
	t.Parallel()
	for name, args := range map[string][]string{
		"unknown flag":  {"--qps=10", "--dapr-url=http://127.0.0.1:1/", "--no-such-flag"},
		"no target":     {"--qps=10"},
		"zero qps":      {"--dapr-url=http://127.0.0.1:1/"},
		"bad duration":  {"--qps=10", "--dapr-url=http://127.0.0.1:1/", "--duration=soon"},
		"stray operand": {"--qps=10", "--dapr-url=http://127.0.0.1:1/", "extra"},
	} {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, args...)
			if r.code == 0 || r.summary.Error == "" {
				t.Errorf("exit %d, summary error %q", r.code, r.summary.Error)
			}
		})
	}
}

func TestEnvironmentSetsFlags(t *testing.T) {
	t.Parallel()
	_, appURL := startPerfapp(t, perfapp.Config{})
	env := []string{"DAPRBENCH_QPS=100", "DAPRBENCH_DURATION=500ms", "DAPRBENCH_WARMUP=0s",
		"DAPRBENCH_DIRECT_URL=" + appURL + "/test", "DAPRBENCH_CONNECTIONS=99", "HOME=/root"}
	termLog := filepath.Join(t.TempDir(), "log")
	var stderr bytes.Buffer
	var stdout bytes.Buffer
	code := Main(context.Background(), []string{"--connections=1", "--termination-log=" + termLog},
		env, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	s := readReport(t, termLog, stdout.String(), stderr.String()).Summary
	if len(s.Runs) != 1 || s.Runs[0].Variant != result.Direct || s.RequestedQPS != 100 {
		t.Fatalf("summary %+v", s)
	}
	if !strings.Contains(stderr.String(), "for 500ms") {
		t.Errorf("DAPRBENCH_DURATION not applied: %s", stderr.String())
	}
	// fortio's report names its threads, one per connection (a bare "99" could be a timing).
	if !strings.Contains(stderr.String(), "with 1 thread(s)") {
		t.Error("a flag given on the command line must win over the environment")
	}
}

func TestHelpDocumentsEveryFlagWithItsVariable(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	if code := Main(context.Background(), []string{"--help"}, nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("--help exit %d", code)
	}
	for _, v := range []string{"DAPRBENCH_QPS", "DAPRBENCH_DAPR_URL", "DAPRBENCH_BASELINE_URL", "DAPRBENCH_SIDECAR_WAIT", "DAPRBENCH_TERMINATION_LOG", "DAPRBENCH_PAYLOAD_BYTES"} {
		if !strings.Contains(stderr.String(), v) {
			t.Errorf("--help does not mention %s", v)
		}
	}
}

// checkExactLatencies: every measured request was recorded (fortio's own count), the exact
// mean agrees with fortio's (fortio sums latencies exactly; only its percentiles are
// bucketed), and the merged latencies and the added-latency intervals are present.
func checkExactLatencies(t *testing.T, s *result.Summary, fortioRuns []string) {
	t.Helper()
	if s.Digits != 3 {
		t.Errorf("summary precision %d significant digits, want 3", s.Digits)
	}
	// fortio times each request from its own wake-up, which the pacer holds until the slot:
	// fortio's mean is the summary's service time (from the actual send) plus the mean hold,
	// at most latency.PacerLead, to the histograms' precision. The summary's latency is timed
	// from each request's slot, so it is never below its service time.
	fortioSum, fortioCount := map[result.Variant]float64{}, map[result.Variant]int64{}
	for i, line := range fortioRuns {
		var fr struct {
			DurationHistogram struct {
				Count int64
				Avg   float64
			}
		}
		if err := json.Unmarshal([]byte(line), &fr); err != nil {
			t.Fatal(err)
		}
		run := s.Runs[i]
		if fr.DurationHistogram.Count != run.Requests {
			t.Errorf("%s rep %d: fortio counted %d requests, the summary %d", run.Variant, run.Rep, fr.DurationHistogram.Count, run.Requests)
		}
		fortioSum[run.Variant] += fr.DurationHistogram.Avg * 1e6 * float64(fr.DurationHistogram.Count)
		fortioCount[run.Variant] += fr.DurationHistogram.Count
	}
	lead := float64(latency.PacerLead.Microseconds())
	for v, n := range fortioCount {
		m, _ := s.MergedOf(v)
		fortioAvg, service := fortioSum[v]/float64(n), float64(m.Service.AvgUs)
		if service > fortioAvg+1+0.001*fortioAvg || fortioAvg-service > lead+1+0.001*fortioAvg {
			t.Errorf("%s: service time avg %.0f µs, fortio's %.1f µs: want fortio's less the pacer's hold, at most %v", v, service, fortioAvg, latency.PacerLead)
		}
		if m.AvgUs < m.Service.AvgUs {
			t.Errorf("%s: latency avg from the slots %d µs below the service time's %d µs", v, m.AvgUs, m.Service.AvgUs)
		}
	}
	for _, v := range []result.Variant{result.Baseline, result.Dapr} {
		m, ok := s.MergedOf(v)
		if p99, _ := m.Latency(99); !ok || p99 <= 0 || m.MaxUs < p99.Microseconds() {
			t.Errorf("merged %s = %+v", v, m)
		}
	}
	if s.Added == nil || s.Added.Confidence != 0.95 || len(s.Added.Percentiles) != len(result.StandardPercentiles) {
		t.Fatalf("added = %+v", s.Added)
	}
	for _, a := range s.Added.Percentiles {
		if a.LowUs > a.Us || a.Us > a.HighUs {
			t.Errorf("added p%v: %d outside its interval [%d, %d]", a.P, a.Us, a.LowUs, a.HighUs)
		}
	}
}

// Sidecar variants are measured interleaved with the baseline, the whole order reversed on
// every other repetition, and each further variant is compared with the baseline and with
// the first variant: a variant 3 ms slower is beyond noise by about that much.
func TestVariantsAreInterleavedAndCompared(t *testing.T) {
	t.Parallel()
	_, appURL := startPerfapp(t, perfapp.Config{ResponseBytes: 16})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(3 * time.Millisecond)
		_, _ = w.Write([]byte("slow"))
	}))
	defer slow.Close()

	r := runCLI(t, "--qps=200", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=3",
		"--baseline-url="+appURL+"/test", "--dapr-url="+appURL+"/test", "--variant-urls="+appURL+"/test,"+slow.URL+"/test")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.summary.Error)
	}
	s := r.summary
	var order []string
	for _, run := range s.Runs {
		order = append(order, run.Variant.String())
	}
	// Three repetitions: the first in two halves (forward, then reversed), then forward and
	// reversed (loadsettings.PhaseOrder); a repetition's halves are one run.
	if got := strings.Join(order, " "); got != "baseline dapr d1 d2 baseline dapr d1 d2 d2 d1 dapr baseline" {
		t.Errorf("run order = %q", got)
	}
	d1, ok1 := s.Comparison(result.DaprVariant(1), result.Dapr)
	d2, ok2 := s.Comparison(result.DaprVariant(2), result.Dapr)
	d2b, ok3 := s.Comparison(result.DaprVariant(2), result.Baseline)
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("comparisons = %+v", s.Compared)
	}
	p50, _ := d2.At(50)
	if p50.LowUs < 2000 || p50.Us > 5000 {
		t.Errorf("slow variant − first variant at p50 = %+v, want ~3 ms, beyond noise", p50)
	}
	if b, _ := d2b.At(50); b.LowUs < 2000 {
		t.Errorf("slow variant − baseline at p50 = %+v, want ~3 ms", b)
	}
	if same, _ := d1.At(50); same.Us > 1000 || same.Us < -1000 {
		t.Errorf("alike variant − first variant at p50 = %+v, want near zero", same)
	}
}

// checkHistograms: the report holds each path's merged histograms, and they give the
// summary's merged percentiles exactly.
func checkHistograms(t *testing.T, s *result.Summary, h result.Histograms) {
	t.Helper()
	if len(h.Paths) != 2 {
		t.Fatalf("histograms of %d paths", len(h.Paths))
	}
	for _, p := range h.Paths {
		lat, err := result.DecodeHistogram(p.Latency)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := s.MergedOf(p.Variant)
		if !ok || lat.TotalCount() == 0 {
			t.Fatalf("no merged latency of %s in the summary", p.Variant)
		}
		want, _ := m.Latency(90)
		if got := time.Duration(lat.ValueAtPercentile(90)) * time.Microsecond; got != want {
			t.Errorf("%s p90 from the histograms %v, the summary's %v", p.Variant, got, want)
		}
	}
}

// fortioLines are the load tester's stdout lines that are fortio results (not the
// report's frame).
func fortioLines(stdout string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if !strings.HasPrefix(line, result.FramePrefix) {
			out = append(out, line)
		}
	}
	return out
}

// --calibrate scores the node instead of driving a load, and writes the score as the
// termination message the operator reads from the calibration init container.
func TestCalibrateWritesTheNodesScore(t *testing.T) {
	log := filepath.Join(t.TempDir(), "termination-log")
	var stdout bytes.Buffer
	if code := Main(context.Background(), []string{"--calibrate=100ms", "--termination-log=" + log}, nil, &stdout, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var s result.Calibration
	if err := json.Unmarshal(b, &s); err != nil || s.Single <= 0 || s.Parallel <= 0 || s.Parallelism < 1 {
		t.Errorf("termination message %q (%v), want a score", b, err)
	}
	if strings.TrimSpace(stdout.String()) != string(b) {
		t.Errorf("stdout %q, want the score too", stdout.String())
	}
}

// A four-path run measures the direct path, each one-sidecar path and both, interleaved
// and counterbalanced, and splits what the slowest adds: stand-ins that add 2 ms (client
// only), 4 ms (server only) and 8 ms (both) leave an interaction of about 2 ms. The
// server-only stand-in, like the target's opened daprd, refuses every request without the
// run's API token: no request of that path may go without it.
func TestFourPathsAreInterleavedAndAttributed(t *testing.T) {
	t.Parallel()
	_, appURL := startPerfapp(t, perfapp.Config{ResponseBytes: 16})
	slow := func(d time.Duration, token string) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("dapr-api-token") != token {
				http.Error(w, "invalid api token", http.StatusUnauthorized)
				return
			}
			time.Sleep(d)
			_, _ = w.Write([]byte("ok"))
		}))
		t.Cleanup(s.Close)
		return s.URL + "/test"
	}
	r := runCLI(t, "--qps=100", "--connections=4", "--duration=1s", "--warmup=0s", "--repetitions=2",
		"--baseline-url="+appURL+"/test", "--client-only-url="+slow(2*time.Millisecond, ""),
		"--server-only-url="+slow(4*time.Millisecond, "s3cret"), "--dapr-url="+slow(8*time.Millisecond, ""), "--dapr-api-token=s3cret")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.summary.Error)
	}
	s := r.summary
	var order []string
	for _, run := range s.Runs {
		order = append(order, run.Variant.String())
	}
	if got := strings.Join(order, " "); got != "baseline client-only server-only dapr dapr server-only client-only baseline" {
		t.Errorf("run order = %q", got)
	}
	a := s.Attribution
	if a == nil || len(a.Paths) != 4 {
		t.Fatalf("attribution = %+v", a)
	}
	for _, c := range []struct {
		name      string
		est       result.Added
		low, high int64
	}{{"client", a.Client, 1500, 3500}, {"server", a.Server, 3500, 5500}, {"interaction", a.Interaction, 500, 3500}} {
		if c.est.Avg.Us < c.low || c.est.Avg.Us > c.high {
			t.Errorf("%s mean = %+v, want between %d and %d µs", c.name, c.est.Avg, c.low, c.high)
		}
	}
	if len(a.Interaction.Percentiles) != 0 {
		t.Errorf("interaction percentiles %+v: only means decompose", a.Interaction.Percentiles)
	}
}
