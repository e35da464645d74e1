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
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/pods/perfapp"
)

// slowApp is perfapp answering every request after delay: pods calling apps of different
// speeds make per-pod distributions that differ, so a merge by averaging would show.
func slowApp(t *testing.T, delay time.Duration) string {
	t.Helper()
	app := perfapp.New(perfapp.Config{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		app.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/test"
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// runGroup runs one load tester per args entry at once, as pods of one group led by pod 0.
func runGroup(t *testing.T, common []string, perPod [][]string) []cliRun {
	t.Helper()
	addr := freeAddr(t)
	out := make([]cliRun, len(perPod))
	var wg sync.WaitGroup
	for i, own := range perPod {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append([]string{fmt.Sprintf("--group-size=%d", len(perPod)), fmt.Sprintf("--group-index=%d", i),
				"--group-listen=" + addr, "--group-leader=http://" + addr, "--group-token=" + testToken}, common...)
			out[i] = runCLI(t, append(args, own...)...)
		}()
	}
	wg.Wait()
	return out
}

// fortioDoc is one of a pod's measured fortio runs (warm-ups left out), from its stdout.
type fortioDoc struct {
	Labels            string
	StartTime         time.Time
	DurationHistogram struct{ Count int64 }
}

func measuredRuns(t *testing.T, stdout string) []fortioDoc {
	t.Helper()
	var runs []fortioDoc
	for _, line := range fortioLines(stdout) {
		var r fortioDoc
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("fortio JSON: %v", err)
		}
		if r.Labels != "warmup" {
			runs = append(runs, r)
		}
	}
	return runs
}

func TestGroupMergesEveryPodsRequestsIntoOneDistribution(t *testing.T) {
	t.Parallel()
	// The slow pod holds 60 ms, far from the others: the mean of the pods' medians (~21 ms)
	// lies well above the merged median even when a busy host (make test's packages side by
	// side) lends the fast pods' requests a few ms each (with 25 ms, that mean was ~10 ms, and
	// a merged p50 of 9.1 ms on a busy host failed a bound of 8 ms). Six connections a pod:
	// the slow one keeps three busy at 50 rps.
	delays := []time.Duration{time.Millisecond, 3 * time.Millisecond, 60 * time.Millisecond}
	var perPod [][]string
	for i, d := range delays {
		u := slowApp(t, d)
		// Pod 2 warms up 1.5 s longer: the barrier must hold the others back.
		warmup := map[bool]string{true: "--warmup=1600ms", false: "--warmup=100ms"}[i == 2]
		perPod = append(perPod, []string{"--baseline-url=" + u, "--dapr-url=" + u, warmup})
	}
	pods := runGroup(t, []string{"--qps=150", "--connections=18", "--duration=1500ms", "--repetitions=2"}, perPod)
	for i, p := range pods {
		if p.code != 0 {
			t.Fatalf("pod %d exit %d: %s\n%s", i, p.code, p.summary.Error, p.stderr)
		}
	}
	merged := pods[0].summary
	if merged.RequestedQPS != 150 {
		t.Errorf("requested qps = %v, want the whole 150", merged.RequestedQPS)
	}
	if len(merged.Runs) != 4 {
		t.Fatalf("merged runs = %d, want 4 (B D B D)", len(merged.Runs))
	}
	var fortio [][]fortioDoc
	for _, p := range pods {
		fortio = append(fortio, measuredRuns(t, p.stdout))
	}
	for i, r := range merged.Runs {
		var want int64
		for _, runs := range fortio {
			want += runs[i].DurationHistogram.Count
		}
		if r.Requests != want || r.Codes["200"] != r.Requests || r.Errors != 0 {
			t.Errorf("%s rep %d: %d requests (codes %v), want the pods' %d", r.Variant, r.Rep, r.Requests, r.Codes, want)
		}
		if r.ActualQPS < 0.9*150 || r.ActualQPS > 1.1*150 {
			t.Errorf("%s rep %d: merged rate %.1f qps, want ~150 (the pods' sum)", r.Variant, r.Rep, r.ActualQPS)
		}
		// A third of the requests take ≥ 60 ms, a third ~3 ms, a third ~1 ms: the merged
		// median is the middle pod's, p90 the slow pod's. The mean of the pods' medians
		// (~21 ms) would be neither.
		p50, _ := r.Latency(50)
		p90, _ := r.Latency(90)
		if p50 < 3*time.Millisecond || p50 > 15*time.Millisecond || p90 < 60*time.Millisecond {
			t.Errorf("%s rep %d: merged p50 %v, p90 %v; want p50 in [3ms, 15ms] and p90 >= 60ms", r.Variant, r.Rep, p50, p90)
		}
	}
	if len(merged.Pods) != 3 {
		t.Fatalf("per-pod loads = %+v, want 3", merged.Pods)
	}
	for i, p := range merged.Pods {
		if p.Pod != i || p.RequestedQPS != 50 || p.ActualQPS < 45 || p.ActualQPS > 55 {
			t.Errorf("pod load %+v, want pod %d at ~50 of 50 qps", p, i)
		}
	}
	// Every phase starts together: pod 2's long warm-up held the others at the barrier.
	for i := range fortio[0] {
		if d := fortio[0][i].StartTime.Sub(fortio[2][i].StartTime).Abs(); d > 500*time.Millisecond {
			t.Errorf("phase %d: pods 0 and 2 started %v apart; want together (pod 2 warmed up 1.5 s longer)", i, d)
		}
	}
}

func TestGroupFailsFastWhenAPeerFails(t *testing.T) {
	t.Parallel()
	good := slowApp(t, 0)
	closed := "http://" + freeAddr(t) + "/test"
	pods := runGroup(t, []string{"--qps=60", "--connections=2", "--duration=1s", "--warmup=0s", "--group-wait=60s", "--target-wait=1s"},
		[][]string{{"--dapr-url=" + good}, {"--dapr-url=" + closed}})
	if pods[1].code != 1 || !strings.Contains(pods[1].summary.Error, "did not answer 2xx") {
		t.Errorf("pod 1: exit %d, error %q; want its own failure", pods[1].code, pods[1].summary.Error)
	}
	if pods[0].code != 1 || !strings.Contains(pods[0].summary.Error, "load-tester pod 1 failed") {
		t.Errorf("leader: exit %d, error %q; want pod 1's failure", pods[0].code, pods[0].summary.Error)
	}
	// The leader learnt of it from pod 1, not from its 60 s wait running out.
	if pods[0].elapsed > 30*time.Second {
		t.Errorf("leader gave up after %v; want at once", pods[0].elapsed)
	}
}

func TestPeerWithoutLeaderGivesUpWithinItsWait(t *testing.T) {
	t.Parallel()
	u := slowApp(t, 0)
	r := runCLI(t, "--qps=20", "--connections=2", "--duration=1s", "--warmup=0s", "--dapr-url="+u,
		"--group-size=2", "--group-index=1", "--group-leader=http://"+freeAddr(t), "--group-wait=1s", "--group-token="+testToken)
	if r.code != 1 || !strings.Contains(r.summary.Error, "waiting for the leader load-tester pod (pod 0)") {
		t.Errorf("exit %d, error %q; want the missing leader named", r.code, r.summary.Error)
	}
}

func TestGroupSettingsAreValidated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--group-size=3", "--connections=2", "--group-leader=http://x:1", "--group-index=1", "--group-token=" + testToken}, "--connections (2) must be at least the group's size (3)"},
		{[]string{"--group-size=2", "--group-index=2", "--group-leader=http://x:1", "--group-token=" + testToken}, "--group-index must be in [0, 2)"},
		{[]string{"--group-size=2", "--group-index=1", "--group-leader=x:1", "--group-token=" + testToken}, "--group-leader must be an http://HOST:PORT URL"},
		{[]string{"--group-size=2", "--group-index=1", "--group-leader=http://x:1"}, "--group-token (DAPRBENCH_GROUP_TOKEN) must have at least 32 characters"},
	} {
		r := runCLI(t, append([]string{"--qps=10", "--dapr-url=http://127.0.0.1:1/test"}, tc.args...)...)
		if r.code != 1 || !strings.Contains(r.summary.Error, tc.want) {
			t.Errorf("%v: exit %d, error %q; want %q", tc.args, r.code, r.summary.Error, tc.want)
		}
	}
}

func TestCoordinatorBarrier(t *testing.T) {
	t.Parallel()
	c := newCoordinator(3, testToken, nil)
	ctx := context.Background()
	if err := c.arrive(ctx, 0, 1); err == nil || !strings.Contains(err.Error(), "never joined this leader pod") {
		t.Errorf("a peer that never joined (a replaced leader's) arrived: %v", err)
	}
	for _, pod := range []int{1, 2} {
		if _, err := c.join(pod, "first"); err != nil {
			t.Fatal(err)
		}
	}
	released := make(chan int, 3)
	for _, pod := range []int{0, 1} {
		go func() {
			if c.arrive(ctx, 0, pod) == nil {
				released <- pod
			}
		}()
	}
	// A pod that arrives twice (a retried request) is one arrival.
	shortCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if err := c.arrive(shortCtx, 0, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("barrier opened without pod 2: %v", err)
	}
	if len(released) != 0 {
		t.Fatal("a pod was released before all arrived")
	}
	if err := c.arrive(ctx, 0, 2); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case <-released:
		case <-time.After(5 * time.Second):
			t.Fatal("pods 0 and 1 not released when pod 2 arrived")
		}
	}
	c.abort(errors.New("pod 1 broke"))
	if err := c.arrive(ctx, 1, 0); err == nil || err.Error() != "pod 1 broke" {
		t.Errorf("arrive after abort = %v, want the abort's error", err)
	}
	if err := c.arrive(ctx, 1, 3); err == nil {
		t.Error("a pod outside the group was admitted")
	}
}
