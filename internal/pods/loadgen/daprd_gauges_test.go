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
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// The sampler reads both gauges of each daprd at once and then every interval until
// stopped; a daprd it cannot read is left out of the readings, tried again, and named once
// in the log.
func TestTheGaugeSamplerReadsEachDaprdUntilStopped(t *testing.T) {
	t.Parallel()
	var pages atomic.Int64
	daprd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := pages.Add(1)
		fmt.Fprintf(w, "# TYPE go_goroutines gauge\ngo_goroutines %d\ngo_goroutines_other 1\nprocess_open_fds{pid=\"1\"} %d\nprocess_start_time_seconds 1.8e+09\n", 100+n, 40+2*n)
	}))
	defer daprd.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	defer gone.Close()
	var log strings.Builder
	g := &gaugeSampler{urls: DaprdMetrics{ClientURL: daprd.URL, ServerURL: gone.URL}, every: 20 * time.Millisecond,
		client: &http.Client{Timeout: time.Second}, log: &log}
	stop := g.start(context.Background())
	waitFor(t, func() bool { return pages.Load() >= 4 })
	readings := stop()
	if len(readings) < 3 {
		t.Fatalf("%d readings, want 3 or more", len(readings))
	}
	for i, r := range readings {
		if r.Server != nil || r.Client == nil || r.Client.OpenFDs != 40+2*(r.Client.Goroutines-100) || r.Client.Started != 1_800_000_000 {
			t.Fatalf("reading %d: %+v (client %+v), want the client's page alone, each gauge of one page", i, r, r.Client)
		}
		if i > 0 && (!r.Client.At.After(readings[i-1].Client.At) || r.Client.Goroutines <= readings[i-1].Client.Goroutines) {
			t.Errorf("reading %d is not after the one before: %+v then %+v", i, readings[i-1].Client, r.Client)
		}
	}
	if n := strings.Count(log.String(), "daprd gauges: not read from "+gone.URL); n != 1 {
		t.Errorf("the unreadable daprd is named %d times in the log, want once:\n%s", n, log.String())
	}
	// A request already on its way when stop cancelled it may still reach the page.
	after := pages.Load()
	time.Sleep(60 * time.Millisecond)
	if pages.Load() > after+1 {
		t.Errorf("the sampler read after stop")
	}
}

// A load read more often than it planned keeps at most MaxGaugeReadings readings, evenly
// spread: every other one dropped, the interval doubled.
func TestTheGaugeSamplerKeepsAtMostItsReadings(t *testing.T) {
	t.Parallel()
	var pages atomic.Int64
	daprd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pages.Add(1)
		fmt.Fprint(w, "go_goroutines 1\nprocess_open_fds 1\nprocess_start_time_seconds 1\n")
	}))
	defer daprd.Close()
	g := &gaugeSampler{urls: DaprdMetrics{ClientURL: daprd.URL}, every: time.Millisecond, client: &http.Client{Timeout: time.Second}, log: io.Discard}
	stop := g.start(context.Background())
	waitFor(t, func() bool { return pages.Load() >= result.MaxGaugeReadings+10 })
	readings := stop()
	if len(readings) >= result.MaxGaugeReadings || len(readings) < result.MaxGaugeReadings/2 {
		t.Errorf("%d readings kept of %d read, want fewer than %d and at least half as many", len(readings), pages.Load(), result.MaxGaugeReadings)
	}
	for i := 1; i < len(readings); i++ {
		if !readings[i].Client.At.After(readings[i-1].Client.At) {
			t.Fatalf("readings %d and %d are out of order", i-1, i)
		}
	}
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("not within 10 s")
		}
	}
}

// Only a soak's leader reads the gauges, less often the longer the soak.
func TestOnlyASoaksLeaderSamplesTheGauges(t *testing.T) {
	t.Parallel()
	urls := DaprdMetrics{ClientURL: "http://localhost:9090/metrics"}
	soak := Config{Duration: 5 * time.Minute, Repetitions: 2, Targets: []Target{{}}, DaprdMetrics: urls}
	if g := newGaugeSampler(soak); g == nil || g.every != result.GaugeEvery {
		t.Errorf("a 10-minute load: %+v, want a reading every %v", g, result.GaugeEvery)
	}
	day := soak
	day.Duration = 12 * time.Hour
	if g := newGaugeSampler(day); g == nil || g.every != 6*time.Minute {
		t.Errorf("a 24-hour load: %+v, want a reading every 6m (240 in all)", g)
	}
	short := soak
	short.Repetitions = 1
	follower := soak
	follower.Group = &Group{Index: 1, Size: 2}
	unread := soak
	unread.DaprdMetrics = DaprdMetrics{}
	for name, c := range map[string]Config{"a 5-minute load": short, "a group's second pod": follower, "a run without daprd": unread} {
		if g := newGaugeSampler(c); g != nil {
			t.Errorf("%s samples: %+v", name, g)
		}
	}
}

func TestScanSamplesFindsEachNameOrSaysWhichIsMissing(t *testing.T) {
	t.Parallel()
	v, err := scanSamples(strings.NewReader("go_goroutines 12\nprocess_open_fds 3e1\n"), openFDsGauge, goroutinesGauge)
	if err != nil || v[0] != 30 || v[1] != 12 {
		t.Errorf("%v, %v; want [30 12]", v, err)
	}
	if _, err := scanSamples(strings.NewReader("go_goroutines 12\n"), goroutinesGauge, openFDsGauge); err == nil || !strings.Contains(err.Error(), "no process_open_fds") {
		t.Errorf("a page without open files: %v", err)
	}
}
