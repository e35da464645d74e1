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
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// freezingServer answers after service, except that once it has seen freezeAfter requests
// it holds every request for freeze (a stalled sidecar, a GC pause, a throttled CPU period).
func freezingServer(t *testing.T, service time.Duration, freezeAfter int64, freeze time.Duration) *httptest.Server {
	var seen atomic.Int64
	var once sync.Once
	var mu sync.Mutex
	var until time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) == freezeAfter {
			once.Do(func() {
				mu.Lock()
				until = time.Now().Add(freeze)
				mu.Unlock()
			})
		}
		mu.Lock()
		hold := time.Until(until)
		mu.Unlock()
		if hold > 0 {
			time.Sleep(hold)
		}
		time.Sleep(service)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The classic coordinated-omission test (Gil Tene): a service of 1 ms frozen for F = 1 s in
// a T = 30 s run at 1000 rps over 16 connections. Requests due during the freeze wait 0–1 s,
// so timed from their slots p99 ≈ 700 ms and p99.9 ≈ 970 ms; timed from their late sends
// (fortio's figure, the service time) p99 stays at a few ms.
//
// The 700/970 assume the backlog drains at once. It cannot: each connection has F/gap ≈ 62
// slots to catch up, one service time s each, while new slots keep coming every gap = 16 ms,
// so draining takes c = F·s/(gap − s) (~75 ms at s = 1.1 ms). The waits stay uniform over
// 0–F but spread over the slots of F + c: p = F·(1 − (1 − q)·T/(F + c)) for quantile q —
// 721 ms and 972 ms at s = 1.1 ms. The test computes c from the service time it measured.
//
// The band is −10% / +15%: a CPU shared with other work (make test runs two packages at once
// on a 2-core machine) slows the client's own catch-up, which the model's c leaves out, so the
// backlog drains later and p99 sits above the model. At T = 60 s (p99 ≈ 450 ms), on a
// 2-vCPU AMD EPYC guest, 2026-11-27: alone +2.6%; under make test +10.0% and +10.9%. At
// T = 30 s a late drain moves p99 less (its weight falls with T), on a 2-vCPU Intel Xeon
// guest, 2026-11-28: alone −0.1% (724.5 ms against 725.4); beside the controllers' envtest
// suite −0.1%, −0.3% and +0.1%. Timed from the late sends instead, p99 would be a few ms:
// far outside either side.
func TestLatencyIsTimedFromTheScheduledSend(t *testing.T) {
	const freeze, total, gap = time.Second, 30 * time.Second, 16 * time.Millisecond
	srv := freezingServer(t, time.Millisecond, 15_000, freeze)
	r := runCLI(t, "--qps=1000", "--connections=16", "--duration=30s", "--warmup=0s", "--target-wait=5s", "--direct-url="+srv.URL)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.summary.Error)
	}
	m, ok := r.summary.MergedOf(result.Direct)
	if !ok {
		t.Fatalf("no merged latency: %+v", r.summary)
	}
	service := durationAt(m.Service, 50)
	drain := time.Duration(float64(freeze) * float64(service) / float64(gap-service))
	expect := func(q float64) time.Duration {
		return time.Duration(float64(freeze) * (1 - (1-q)*float64(total)/float64(freeze+drain)))
	}
	within := func(name string, got, want time.Duration) {
		t.Helper()
		if lo, hi := want*9/10, want*115/100; got < lo || got > hi {
			t.Errorf("%s = %v, want %v −10%%/+15%% (service %v, backlog drained in %v)", name, got, want, service, drain)
		}
	}
	p99, p999 := durationAt(result.Spectrum{Percentiles: m.Percentiles}, 99), durationAt(result.Spectrum{Percentiles: m.Percentiles}, 99.9)
	within("p99 from the scheduled send", p99, expect(0.99))
	within("p99.9 from the scheduled send", p999, expect(0.999))
	if st := durationAt(m.Service, 99); st > 20*time.Millisecond {
		t.Errorf("service time p99 = %v, want a few ms (the stall hidden, as fortio alone reports it)", st)
	}
	if lag := durationAt(m.Lag, 99); lag < 300*time.Millisecond {
		t.Errorf("send lag p99 = %v: the sends delayed by the freeze are missing", lag)
	}
	t.Logf("p99 %v (model %v), p99.9 %v (model %v); service p50 %v p99 %v; lag p99 %v; %d requests at %.1f qps",
		p99, expect(0.99), p999, expect(0.999), service, durationAt(m.Service, 99), durationAt(m.Lag, 99),
		r.summary.Runs[0].Requests, r.summary.Runs[0].ActualQPS)
}

// A 250 ms freeze of a 1 ms service in a 30 s run at 1000 rps over 16 connections: requests
// due during it wait 0–250 ms, so p99.9 (the slowest 30 of 30,000) waited about
// 250·(1 − 30/(250 + drain)) ≈ 220 ms. In the last 250 ms of the run the connections are
// still held at the end time and fortio sends none of the slots due meanwhile: they must be
// counted and recorded at the least they waited, not dropped (which left p99.9 at ~50 ms and
// the run reading clean). Mid-run, every request is sent; the stall is the path's latency
// and never the tester's saturation.
func TestAFreezeIsInTheTailWhereverItFalls(t *testing.T) {
	const freeze, total, gap = 250 * time.Millisecond, 30 * time.Second, 16 * time.Millisecond
	for _, tc := range []struct {
		name  string
		after int64 // the request that starts the freeze
		end   bool
	}{{"at the end", 29_750, true}, {"mid-run", 15_000, false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := freezingServer(t, time.Millisecond, tc.after, freeze)
			r := runCLI(t, "--qps=1000", "--connections=16", "--duration=30s", "--warmup=0s", "--target-wait=5s", "--direct-url="+srv.URL)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.summary.Error)
			}
			run := r.summary.Runs[0]
			m, _ := r.summary.MergedOf(result.Direct)
			service := durationAt(m.Service, 50)
			drain := time.Duration(float64(freeze) * float64(service) / float64(gap-service))
			model := time.Duration(float64(freeze) * (1 - 0.001*float64(total)/float64(freeze+drain)))
			if tc.end {
				model = time.Duration(float64(freeze) * (1 - 0.001*float64(total)/float64(freeze)))
			}
			p999 := durationAt(result.Spectrum{Percentiles: m.Percentiles}, 99.9)
			t.Logf("scheduled %d, sent %d (never sent %d), %.1f qps; p99.9 %v (model %v); tester lag p99 %v; send lag p99 %v",
				run.Scheduled, run.Requests, run.Unsent(), run.ActualQPS, p999, model, durationAt(m.TesterLag, 99), durationAt(m.Lag, 99))
			if run.Scheduled != 30_000 {
				t.Errorf("%d slots scheduled, want 30000", run.Scheduled)
			}
			if tc.end && run.Unsent() == 0 {
				t.Errorf("no slot left unsent: the freeze did not reach the end time (sent %d)", run.Requests)
			}
			if !tc.end && run.Unsent() != 0 {
				t.Errorf("%d slots never sent mid-run, want every one", run.Unsent())
			}
			if lo, hi := model*9/10, model*11/10; p999 < lo || p999 > hi {
				t.Errorf("p99.9 %v, want the model's %v ± 10%%", p999, model)
			}
			// The stall is the path's: it is in the send lag (requests waited behind the frozen
			// one on their connection) and not in the tester's own lag. This machine's other
			// load can still make the tester itself late, and that alone may call it saturated.
			stall, own := durationAt(m.Lag, 99.9), durationAt(m.TesterLag, 99.9)
			if !tc.end && stall < 100*time.Millisecond {
				t.Errorf("send lag p99.9 %v: the wait behind the frozen requests is missing", stall)
			}
			if (!tc.end && own > stall/4) || own > 60*time.Millisecond {
				t.Errorf("tester lag p99.9 %v against send lag p99.9 %v: the connection's wait was taken for the tester's", own, stall)
			}
			for _, sat := range r.summary.Saturated() {
				if sat.TesterLagP99 <= sat.Bound {
					t.Errorf("saturated %+v with the tester on time: a stalled path is latency, not saturation", sat)
				}
				t.Logf("saturated by the tester's own lag (this machine's other load): %+v", sat)
			}
		})
	}
}

// One connection cannot carry 1000 rps to a 1.4 ms service (at most ~714): the summary
// shows the load tester fell behind its schedule, so no latency is claimed for the rate.
func TestOneConnectionCannotKeepTheScheduleOfASlowService(t *testing.T) {
	srv := freezingServer(t, 1400*time.Microsecond, -1, 0)
	r := runCLI(t, "--qps=1000", "--connections=1", "--duration=2s", "--warmup=0s", "--target-wait=5s",
		"--baseline-url="+srv.URL, "--dapr-url="+srv.URL)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.summary.Error)
	}
	if r.summary.GapUs != 1000 {
		t.Errorf("gap %d µs, want 1000 (one connection at 1000 rps)", r.summary.GapUs)
	}
	sat := r.summary.Saturated()
	if len(sat) != 2 {
		t.Fatalf("saturated paths %+v, want both", sat)
	}
	for _, s := range sat {
		if s.ActualQPS > 800 || s.LagP99 < time.Millisecond {
			t.Errorf("%s: %.1f qps, lag p99 %v; want at most ~714 qps and a lag beyond the 1 ms gap", s.Variant, s.ActualQPS, s.LagP99)
		}
	}
}

func durationAt(s result.Spectrum, p float64) time.Duration {
	d, _ := s.At(p)
	return d
}

// A repetition measured in two halves carries the tail of its last requests once, as a
// whole repetition does: with a 400 ms tail per fortio run, two 30 s halves of 30,000
// requests each read 993.4 qps (above the 99% a path must carry), not 986.8.
func TestHalvesAreJoinedWithOneTail(t *testing.T) {
	half := func(start int64) result.Run {
		return result.Run{Variant: result.Dapr, StartUnix: start, Seconds: 30.4, ActualQPS: 986.84, Requests: 30_000, Scheduled: 30_000,
			Codes: map[string]int64{"200": 30_000}}
	}
	got := joinHalves(half(100), half(200), 30*time.Second)
	if got.ActualQPS != 993.38 || got.Requests != 60_000 || got.Scheduled != 60_000 || got.Seconds != 60.4 {
		t.Errorf("joined %+v, want 60000 requests over 60.4 s: 993.38 qps", got)
	}
	if got.StartUnix != 100 || got.SecondHalfUnix != 200 || got.Codes["200"] != 60_000 {
		t.Errorf("joined %+v: the first half's start, the second's, both halves' codes", got)
	}
}
