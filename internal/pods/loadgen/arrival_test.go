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
	"slices"
	"sync"
	"testing"
	"time"
)

// arrivalGaps runs the load tester against an app that notes when each request arrives, and
// returns the share of gaps between consecutive arrivals shorter than a tenth of the gap an
// even stream would have.
func arrivalGaps(t *testing.T, uniform bool) float64 {
	t.Helper()
	var mu sync.Mutex
	var arrivals []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
	}))
	defer srv.Close()
	// 8 connections at 80 qps: each connection sends every 100 ms; an even stream every 12.5 ms.
	args := []string{"--qps=80", "--connections=8", "--duration=2s", "--warmup=0s", "--target-wait=0s", "--direct-url=" + srv.URL}
	if uniform {
		args = append(args, "--uniform")
	}
	if r := runCLI(t, args...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.summary.Error)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(arrivals, func(a, b time.Time) int { return a.Compare(b) })
	short := 0
	for i := 1; i < len(arrivals); i++ {
		if arrivals[i].Sub(arrivals[i-1]) < 1250*time.Microsecond {
			short++
		}
	}
	share := float64(short) / float64(len(arrivals)-1)
	t.Logf("uniform=%v: %d requests, %.0f%% of gaps under 1.25 ms", uniform, len(arrivals), 100*share)
	return share
}

func TestArrivalSynchronizedSendsInBurstsUniformStaggers(t *testing.T) {
	// Synchronized (fortio's default): the 8 connections fire together, so most gaps are
	// within a burst. Uniform: spread over the period, few gaps are that short.
	if burst := arrivalGaps(t, false); burst < 0.6 {
		t.Errorf("synchronized: %.0f%% of gaps under 1.25 ms, want most (bursts of one request per connection)", 100*burst)
	}
	if even := arrivalGaps(t, true); even > 0.3 {
		t.Errorf("uniform: %.0f%% of gaps under 1.25 ms, want few (a steady stream)", 100*even)
	}
}
