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
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// podStandIn runs one incarnation of a load-tester pod in this process; kill ends it as a
// SIGKILL would: its context is cancelled, so nothing more reaches the leader.
type podStandIn struct {
	kill context.CancelFunc
	done chan int // its exit code
}

func startPod(t *testing.T, args []string) *podStandIn {
	ctx, cancel := context.WithCancel(context.Background())
	p := &podStandIn{kill: cancel, done: make(chan int, 1)}
	termLog := filepath.Join(t.TempDir(), "termination-log")
	go func() {
		var stdout, stderr bytes.Buffer
		p.done <- Main(ctx, append(args, "--termination-log="+termLog), nil, &stdout, &stderr)
	}()
	return p
}

// A LoadTester PodKill, made by the group's leader in each Dapr phase, kills the last pod;
// its replacement joins at the next phase. Each run holds the pods that measured it whole:
// a Dapr run only the leader's share (its requested rate says so, and it is not saturated),
// the baseline run between the kills the replacement's too.
func TestALoadTesterKillLosesOnlyThePhaseItHit(t *testing.T) {
	t.Parallel()
	app := slowApp(t, 0)
	addr := freeAddr(t)
	group := func(i int) []string {
		return []string{"--group-size=2", fmt.Sprintf("--group-index=%d", i), "--group-listen=" + addr, "--group-leader=http://" + addr,
			"--group-token=" + testToken, "--group-wait=30s"}
	}
	var (
		mu     sync.Mutex
		common []string // set once the operator's address is known
		pods   []*podStandIn
		orders []loadsettings.KillOrder
	)
	operator := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var o loadsettings.KillOrder
		if r.Header.Get("Authorization") != "Bearer "+testToken || json.NewDecoder(r.Body).Decode(&o) != nil {
			http.Error(w, "refused", http.StatusForbidden)
			return
		}
		mu.Lock()
		orders = append(orders, o)
		victim := pods[len(pods)-1]
		n := len(pods)
		mu.Unlock()
		victim.kill()
		// As the Job does: a replacement once the pod has ended, here later than the phase's
		// end (the kill is at 0.4 s of 1.5 s), so the leader waits for it at the next phase.
		go func() {
			<-victim.done
			time.Sleep(1500 * time.Millisecond)
			mu.Lock()
			pods = append(pods, startPod(t, append(group(1), common...)))
			mu.Unlock()
		}()
		_ = json.NewEncoder(w).Encode(loadsettings.KillAnswer{Deleted: fmt.Sprintf("kill-loadtester-1-%d", n)})
	}))
	defer operator.Close()
	faults := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleLoadTester, At: 400 * time.Millisecond, For: time.Second}})
	common = []string{"--qps=100", "--connections=4", "--duration=1500ms", "--warmup=0s", "--repetitions=2", "--target-wait=5s",
		"--baseline-url=" + app, "--dapr-url=" + app,
		"--faults=" + faults, "--fault-token=" + testToken, "--kill-url=" + operator.URL, "--run-namespace=perf", "--run-name=kill"}
	mu.Lock()
	pods = append(pods, startPod(t, append(group(1), common...)))
	mu.Unlock()

	leader := runCLI(t, append(group(0), common...)...)
	if leader.code != 0 {
		t.Fatalf("leader: exit %d: %s\n%s", leader.code, leader.summary.Error, leader.stderr)
	}
	mu.Lock()
	last := pods[len(pods)-1]
	mu.Unlock()
	select {
	case code := <-last.done:
		if code != 0 {
			t.Errorf("the last replacement exited %d; want 0 (it had no phase left to measure)", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the last replacement did not exit")
	}
	if len(orders) != 2 || orders[0].Role != loadsettings.RoleLoadTester || orders[0].Variant != "" {
		t.Fatalf("kill orders %+v; want one LoadTester kill in each Dapr phase", orders)
	}
	if len(leader.report.Faults) != 2 {
		t.Fatalf("applied %+v; want 2", leader.report.Faults)
	}
	for _, f := range leader.report.Faults {
		if f.Error != "" || f.Pod == "" || f.AppSeen != -1 || f.MeasuredQPS != 50 {
			t.Errorf("applied %+v; want a pod killed, no app count (the load is split) and the leader's 50 qps measured", f)
		}
	}
	sum := leader.summary
	if len(sum.Runs) != 4 {
		t.Fatalf("runs %+v; want B D B D", sum.Runs)
	}
	for _, r := range sum.Runs {
		wantRequested, wantRequests := 0.0, int64(150) // both pods' 50 qps for 1.5 s
		if r.Variant == result.Dapr {
			wantRequested, wantRequests = 50, 75 // the leader's alone: the other pod was killed in it
		}
		if r.RequestedQPS != wantRequested || r.Requests < wantRequests-8 || r.Requests > wantRequests+8 {
			t.Errorf("%s repetition %d: requested %.0f qps, %d requests; want %.0f (0: all) and about %d",
				r.Variant, r.Rep, r.RequestedQPS, r.Requests, wantRequested, wantRequests)
		}
	}
	if sat := sum.Saturated(); len(sat) != 0 {
		t.Errorf("saturated %+v; want none: each run achieved the rate of the pods it holds", sat)
	}
	if len(sum.Pods) != 2 || sum.Pods[1].ActualQPS < 45 || sum.Pods[1].ActualQPS > 55 {
		t.Errorf("pod loads %+v; want pod 1 at about its 50 qps over the runs it measured", sum.Pods)
	}
}

// A pod's replacement starts after the last phase the pod started, or at the phase it was
// waiting at; an incarnation asking again gets its first answer; the leader never joins.
func TestCoordinatorJoinsAReplacementAfterThePhaseItsPodStarted(t *testing.T) {
	t.Parallel()
	c := newCoordinator(3, testToken, nil)
	join := func(pod int, id string) int {
		t.Helper()
		from, err := c.join(pod, id)
		if err != nil {
			t.Fatal(err)
		}
		return from
	}
	if join(1, "a") != 0 || join(2, "x") != 0 {
		t.Fatal("a pod's first incarnation starts at phase 0")
	}
	ctx := t.Context()
	for phase := range 2 {
		var wg sync.WaitGroup
		for pod := range 3 {
			wg.Go(func() { _ = c.arrive(ctx, phase, pod) })
		}
		wg.Wait()
	}
	waiting, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_ = c.arrive(waiting, 2, 2) // pod 2 waits at phase 2, which pod 0 has not reached
	if got := join(1, "b"); got != 2 {
		t.Errorf("pod 1's replacement starts at %d; want 2, after phase 1, the last it started", got)
	}
	if got := join(1, "b"); got != 2 {
		t.Errorf("pod 1's replacement asking again starts at %d; want its first answer, 2", got)
	}
	if got := join(1, "a"); got != 0 {
		t.Errorf("pod 1's first incarnation asking again starts at %d; want 0", got)
	}
	if got := join(2, "y"); got != 2 {
		t.Errorf("pod 2's replacement starts at %d; want 2, the phase its pod was waiting at", got)
	}
	// Its predecessor's arrival there is forgotten: phase 2 waits for the replacement.
	opened := make(chan int, 3)
	for _, pod := range []int{0, 1} {
		go func() {
			if c.arrive(ctx, 2, pod) == nil {
				opened <- pod
			}
		}()
	}
	select {
	case pod := <-opened:
		t.Fatalf("phase 2 opened for pod %d without pod 2's replacement", pod)
	case <-time.After(100 * time.Millisecond):
	}
	if err := c.arrive(ctx, 2, 2); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case <-opened:
		case <-time.After(5 * time.Second):
			t.Fatal("phase 2 did not open when the replacement arrived")
		}
	}
	if _, err := c.join(0, "z"); err == nil {
		t.Error("the leader's index joined as a peer")
	}
}

// A pod's runs come in parts, one run each, and end with its last delivery; a part is taken
// once (its retry again), a run twice is refused, and gather has every part.
func TestCoordinatorGathersAPodsRunsFromItsParts(t *testing.T) {
	t.Parallel()
	c := newCoordinator(2, testToken, map[latency.Key]bool{{Variant: result.Dapr, Rep: 0}: true, {Variant: result.Dapr, Rep: 1}: true, {Variant: result.Baseline, Rep: 1}: true})
	part := func(rep int, requests int64) podMeasurements {
		m := delivery(t)
		m.Part, m.Runs[0].Rep, m.Runs[0].Requests = true, rep, requests
		m.Recordings = map[string]wireRecording{recordingKey(latency.Key{Variant: result.Dapr, Rep: rep}): m.Recordings[recordingKey(latency.Key{Variant: result.Dapr, Rep: 0})]}
		return m
	}
	digest := func(m podMeasurements) [32]byte {
		b, _ := json.Marshal(m)
		return sha256.Sum256(b)
	}
	if err := c.deliver(part(0, 100), digest(part(0, 100))); err == nil || !strings.Contains(err.Error(), "never joined this leader pod") {
		t.Errorf("a part of a pod that never joined this leader (a replaced leader's peer): %v; want it refused", err)
	}
	if _, err := c.join(1, "pod-1"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []podMeasurements{part(0, 100), part(0, 100), part(1, 90)} {
		if err := c.deliver(m, digest(m)); err != nil {
			t.Fatalf("part %+v: %v", m.Runs, err)
		}
	}
	if err := c.deliver(part(1, 91), digest(part(1, 91))); err == nil || !strings.Contains(err.Error(), "delivered its measurements of dapr, repetition 1, already") {
		t.Errorf("a second, different part of a run: %v; want it refused", err)
	}
	two := part(0, 5)
	two.Runs = append(two.Runs, part(1, 5).Runs...)
	if err := c.deliver(two, digest(two)); err == nil || !strings.Contains(err.Error(), "a part holds one run") {
		t.Errorf("a part of two runs: %v; want it refused", err)
	}
	waiting, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.gather(waiting, time.Minute); err == nil {
		t.Fatal("gathered before the pod's last delivery")
	}
	last := podMeasurements{Pod: 1}
	if err := c.deliver(last, digest(last)); err != nil {
		t.Fatal(err)
	}
	got, err := c.gather(t.Context(), time.Second)
	if err != nil || len(got) != 1 || len(got[0].Runs) != 2 || len(got[0].Recordings) != 2 || got[0].Runs[1].Requests != 90 {
		t.Errorf("gathered %+v, %v; want pod 1's two parts", got, err)
	}
	late := part(1, 90)
	late.Runs[0].Variant = result.Baseline
	late.Recordings = map[string]wireRecording{recordingKey(latency.Key{Variant: result.Baseline, Rep: 1}): late.Recordings[recordingKey(latency.Key{Variant: result.Dapr, Rep: 1})]}
	if err := c.deliver(late, digest(late)); err == nil || !strings.Contains(err.Error(), "has ended its deliveries") {
		t.Errorf("a part after the pod's last delivery: %v; want it refused", err)
	}
}
