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
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
	"github.com/daprbench/daprbench/internal/pods/perfapp"
)

// A PodKill is ordered from the operator at its time in each Dapr phase, with the run's
// token, and held from the order to the answer that the replacement is ready: the applied
// fault records both pods and that span, and later orders and reads go to the replacement's
// address. The app's count of the phase runs across the kill: the killed app's to its last
// reading, its replacement's from 0. The known answer: the stand-in daprd moves to the
// replacement before the old app stops, so every request sent reached exactly one app once,
// and each phase's count is what was sent (amplification 1), though three apps served the
// two phases. The operator here is a stand-in that answers as its route does (the real route
// is tested against a real API server in controllers/perfrun_podkill_test.go).
func TestAPodKillIsOrderedFromTheOperatorAndHeldUntilTheReplacementIsReady(t *testing.T) {
	t.Parallel()
	apps, servers, reads := appsOnOnePort(t, 3)
	sidecar := newSidecarStandIn(servers[0].URL, true)
	defer sidecar.Close()
	const ready = 300 * time.Millisecond
	orders := make(chan loadsettings.KillOrder, 4)
	var killed atomic.Int32
	operator := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var o loadsettings.KillOrder
		if r.URL.Path != loadsettings.KillPath || r.Header.Get("Authorization") != "Bearer "+testToken || json.NewDecoder(r.Body).Decode(&o) != nil {
			http.Error(w, "refused", http.StatusForbidden)
			return
		}
		orders <- o
		i := int(killed.Add(1))
		if i >= len(servers) {
			http.Error(w, "no app left to replace it with", http.StatusInternalServerError)
			return
		}
		// daprd finds the replacement; the old app answers a while longer, then is gone.
		sidecar.moveTo(servers[i].URL)
		readTwiceMore(t, reads[i-1])
		servers[i-1].Close()
		time.Sleep(ready)
		_ = json.NewEncoder(w).Encode(loadsettings.KillAnswer{Deleted: fmt.Sprintf("t-%d", i-1), Replacement: fmt.Sprintf("t-%d", i),
			Ready: true, ReplacementIP: fmt.Sprintf("127.0.0.%d", i+1)})
	}))
	defer operator.Close()
	const held = 1500 * time.Millisecond
	faults := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleTarget, At: 400 * time.Millisecond, For: held}})
	r := runCLI(t, "--qps=50", "--connections=2", "--duration=2s", "--warmup=0s", "--repetitions=2",
		"--dapr-url="+sidecar.URL+"/v1.0/invoke/target/method/test",
		"--sidecar-url="+sidecar.URL, "--sidecar-wait=5s", "--faults="+faults, "--fault-url="+servers[0].URL, "--fault-token="+testToken,
		"--kill-url="+operator.URL, "--run-namespace=perf", "--run-name=killed")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	if len(orders) != 2 {
		t.Fatalf("%d kill orders, want one in each Dapr phase", len(orders))
	}
	if o := <-orders; o != (loadsettings.KillOrder{Namespace: "perf", Run: "killed", Role: loadsettings.RoleTarget, Wait: held}) {
		t.Errorf("order %+v: want the run, the role and the fault's duration as the wait", o)
	}
	if len(r.report.Faults) != 2 {
		t.Fatalf("%d faults applied, want 2: %+v", len(r.report.Faults), r.report.Faults)
	}
	for _, f := range r.report.Faults {
		start, end := f.Span()
		old, repl := fmt.Sprintf("t-%d", f.Rep), fmt.Sprintf("t-%d", f.Rep+1)
		if f.Variant != result.Dapr || f.Error != "" || f.Pod != old || f.Replacement != repl || !f.Ready {
			t.Errorf("applied %+v: want the Dapr path's, %s replaced by %s", f, old, repl)
		}
		if d := end.Sub(start); d < ready || d >= held {
			t.Errorf("repetition %d: held %v, want from the order to the answer (at least %v, within the fault's duration)", f.Rep, d, ready)
		}
		if f.Sent < 50 || f.AppSeen != f.Sent {
			t.Errorf("repetition %d: the apps saw %d invocations over the phase, the load tester sent %d: want every one counted once across the kill", f.Rep, f.AppSeen, f.Sent)
		}
	}
	for i, app := range apps {
		if app.Stats.Invocations.Load() == 0 {
			t.Errorf("app %d served no invocation: the count did not span a kill", i)
		}
	}
}

// appsOnOnePort are n apps at one port of 127.0.0.1, .2 and on, as a target and the pods
// that replace it listen at one port of their own addresses; reads counts each app's reads
// of its count (GET /stats) answered well within the reader's 250 ms (countClient): one it
// gave up on would be no reading.
func appsOnOnePort(t *testing.T, n int) (apps []*perfapp.App, servers []*httptest.Server, reads []*atomic.Int64) {
	t.Helper()
	port := "0"
	for i := range n {
		l, err := net.Listen("tcp", net.JoinHostPort(fmt.Sprintf("127.0.0.%d", i+1), port))
		if err != nil {
			t.Fatalf("loopback address %d: %v", i+1, err)
		}
		_, port, _ = net.SplitHostPort(l.Addr().String())
		app := perfapp.New(perfapp.Config{ResponseBytes: 16, FaultToken: testToken})
		read, h := new(atomic.Int64), app.Handler()
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			began := time.Now()
			h.ServeHTTP(w, r)
			if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/stats") && time.Since(began) < 100*time.Millisecond {
				read.Add(1)
			}
		}))
		srv.Listener = l
		srv.Start()
		t.Cleanup(srv.Close)
		apps, servers, reads = append(apps, app), append(servers, srv), append(reads, read)
	}
	return apps, servers, reads
}

// readTwiceMore waits, at most 5 s, until the load tester has read an app's count twice
// more: called once the caller has moved away and the app answered its last call
// (sidecarStandIn.moveTo), the second read began after that, so it holds every invocation
// the app took. A stand-in operator stops the old app only then: a fixed sleep let a slow
// reader (two test packages on two busy cores) miss the last ones.
func readTwiceMore(t *testing.T, reads *atomic.Int64) {
	want := reads.Load() + 2
	for deadline := time.Now().Add(5 * time.Second); reads.Load() < want; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("the load tester read the killed app %d times in 5 s, want 2", reads.Load()-want+2)
			return
		}
	}
}

// A kill of a PubSub run's broker needs no target app: the load tester orders it from the
// operator alone, keeps publishing to the same daprd, and each applied fault carries its
// phase's message counts (here a tenth lost and a seventh doubled by the stand-in broker),
// summing to the path's.
func TestABrokerKillCarriesEachPhasesMessages(t *testing.T) {
	t.Parallel()
	listen := freeAddr(t)
	dapr := &pubsubStandIn{subscriberURL: "http://" + listen, dropEvery: 10, doubleEvery: 7}
	orders := make(chan loadsettings.KillOrder, 4)
	operator := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var o loadsettings.KillOrder
		if r.Header.Get("Authorization") != "Bearer "+testToken || json.NewDecoder(r.Body).Decode(&o) != nil {
			http.Error(w, "refused", http.StatusForbidden)
			return
		}
		orders <- o
		_ = json.NewEncoder(w).Encode(loadsettings.KillAnswer{Deleted: "store-old", Replacement: "store-new", Ready: true, ReplacementIP: "10.0.0.9"})
	}))
	defer operator.Close()
	faults := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleStore, At: 300 * time.Millisecond, For: time.Second}})
	r := runCLI(t, "--qps=100", "--connections=2", "--duration=1500ms", "--warmup=0s", "--repetitions=2",
		"--payload-bytes=16", "--target-wait=5s", "--subscriber-listen="+listen,
		"--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders?raw=true",
		"--faults="+faults, "--fault-token="+testToken, "--kill-url="+operator.URL, "--run-namespace=perf", "--run-name=broker")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	if len(orders) != 2 {
		t.Fatalf("%d kill orders, want one in each Dapr phase", len(orders))
	}
	if o := <-orders; o.Role != loadsettings.RoleStore {
		t.Errorf("order %+v: want the Store's", o)
	}
	p, _ := r.summary.Delivery.PathOf(result.Dapr)
	var published, lost, duplicated int64
	for _, f := range r.report.Faults {
		if f.Error != "" || f.Pod != "store-old" || f.AppSeen != -1 {
			t.Errorf("applied %+v: want store-old killed, and no app count (a PubSub run has no target app)", f)
		}
		m := f.Messages
		if m == nil || m.Published < 100 || m.Lost < m.Published/10-2 || m.Lost > m.Published/10+2 {
			t.Fatalf("repetition %d: messages %+v, want the phase's, about a tenth lost", f.Rep, m)
		}
		published, lost, duplicated = published+m.Published, lost+m.Lost, duplicated+m.Duplicated
	}
	if published != p.Messages.Published || lost != p.Messages.Lost || duplicated != p.Messages.Duplicated || duplicated == 0 {
		t.Errorf("the phases' messages sum to %d published, %d lost, %d duplicated; the path's are %+v", published, lost, duplicated, p.Messages)
	}
}

// Redeliveries after a phase's drain join the counts of the faults applied in that phase,
// as they join its path's, and no other phase's; a count two faults share is copied, not
// written through.
func TestLateDeliveriesJoinTheFaultsOfTheirPhase(t *testing.T) {
	t.Parallel()
	shared := &result.Messages{Published: 100, Delivered: 98, Lost: 2}
	o := measured{faults: []result.AppliedFault{{Variant: result.Dapr, Rep: 0, Messages: shared}, {Variant: result.Dapr, Rep: 1, Messages: shared}}}
	o.faultsLate(latency.Key{Variant: result.Dapr, Rep: 0}, result.Messages{Duplicated: 3, Late: 1})
	if m := o.faults[0].Messages; m.Duplicated != 3 || m.Late != 1 || m.Published != 100 {
		t.Errorf("the phase's fault: %+v, want 3 duplicated and 1 late added", m)
	}
	if m := o.faults[1].Messages; m.Duplicated != 0 || shared.Duplicated != 0 {
		t.Errorf("another phase's fault %+v (shared %+v): want untouched", m, shared)
	}
}

// cpuStandIn is a daprd's metrics page whose CPU counter advances at base cores, and at busy
// cores while busy is set: an outage's cost with a known answer.
type cpuStandIn struct {
	mu         sync.Mutex
	base, busy float64
	outage     bool
	total      float64
	last       time.Time
}

func (c *cpuStandIn) set(outage bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance()
	c.outage = outage
}

func (c *cpuStandIn) advance() {
	now := time.Now()
	rate := c.base
	if c.outage {
		rate = c.busy
	}
	if !c.last.IsZero() {
		c.total += rate * now.Sub(c.last).Seconds()
	}
	c.last = now
}

func (c *cpuStandIn) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance()
	fmt.Fprintf(w, "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %.6f\n", c.total)
}

// A control-plane kill goes through no target app, and each applied fault carries the
// daprd's CPU before it and over its span, from the daprd's own counter: the stand-in burns
// 0.25 cores, and 1 core from the order to the operator's answer.
func TestAFaultCarriesTheDaprdsCPUBeforeAndDuringIt(t *testing.T) {
	listen := freeAddr(t)
	dapr := &pubsubStandIn{subscriberURL: "http://" + listen}
	daprd := &cpuStandIn{base: 0.25, busy: 1}
	metrics := httptest.NewServer(daprd)
	defer metrics.Close()
	operator := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		daprd.set(true)
		time.Sleep(600 * time.Millisecond)
		daprd.set(false)
		_ = json.NewEncoder(w).Encode(loadsettings.KillAnswer{Deleted: "dapr-scheduler-server-0, dapr-scheduler-server-1",
			Replacement: "dapr-scheduler-server-0, dapr-scheduler-server-1", Ready: true})
	}))
	defer operator.Close()
	faults := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleScheduler, At: 500 * time.Millisecond, For: time.Second}})
	r := runCLI(t, "--qps=50", "--connections=2", "--duration=2s", "--warmup=0s", "--repetitions=2",
		"--payload-bytes=16", "--target-wait=5s", "--subscriber-listen="+listen,
		"--dapr-url=dapr-pubsub+http://"+dapr.serve(t)+"/pubsub/orders?raw=true", "--daprd-metrics-client-url="+metrics.URL,
		"--faults="+faults, "--fault-token="+testToken, "--kill-url="+operator.URL, "--run-namespace=perf", "--run-name=outage")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	if len(r.report.Faults) != 2 {
		t.Fatalf("%d faults applied, want one in each Dapr phase: %+v", len(r.report.Faults), r.report.Faults)
	}
	cores := func(d *result.DaprdCPU) float64 {
		if d == nil || d.ClientMs == nil || d.WallMs <= 0 || d.ServerMs != nil {
			t.Fatalf("reading %+v: want the client daprd's alone", d)
		}
		return float64(*d.ClientMs) / float64(d.WallMs)
	}
	for _, f := range r.report.Faults {
		if f.Error != "" || f.Pod != "dapr-scheduler-server-0, dapr-scheduler-server-1" {
			t.Errorf("applied %+v: want both scheduler pods killed", f)
		}
		if b := cores(f.CPUBefore); b < 0.2 || b > 0.3 {
			t.Errorf("repetition %d: %.3f cores before the fault, want 0.25", f.Rep, b)
		}
		if d := cores(f.CPUDuring); d < 0.9 || d > 1.05 {
			t.Errorf("repetition %d: %.3f cores during the fault, want about 1 (0.25 for the order's own round trip)", f.Rep, d)
		}
	}
}

// With sidecar variants each variant's phases kill and count its own target: the order of a
// further variant's phase names it (d1), the first's names none, and each phase's count is
// read from its variant's apps across the kill, so it equals what was sent to that variant.
// Each variant is its own stand-in daprd and its own three apps, at a port of their own: a
// phase that read or killed the other variant's app would count what it never sent.
func TestEachVariantsKillGoesToItsOwnTargetAndItsCount(t *testing.T) {
	t.Parallel()
	type target struct {
		sidecar *sidecarStandIn
		servers []*httptest.Server
		reads   []*atomic.Int64
		killed  int
	}
	targets := map[string]*target{}
	for _, v := range []string{"", "d1"} {
		_, servers, reads := appsOnOnePort(t, 3)
		targets[v] = &target{sidecar: newSidecarStandIn(servers[0].URL, true), servers: servers, reads: reads}
		defer targets[v].sidecar.Close()
	}
	var mu sync.Mutex
	var orders []loadsettings.KillOrder
	operator := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var o loadsettings.KillOrder
		if r.Header.Get("Authorization") != "Bearer "+testToken || json.NewDecoder(r.Body).Decode(&o) != nil || targets[o.Variant] == nil {
			http.Error(w, "refused", http.StatusForbidden)
			return
		}
		mu.Lock()
		orders = append(orders, o)
		tg := targets[o.Variant]
		tg.killed++
		i := tg.killed
		mu.Unlock()
		tg.sidecar.moveTo(tg.servers[i].URL)
		readTwiceMore(t, tg.reads[i-1])
		tg.servers[i-1].Close()
		_ = json.NewEncoder(w).Encode(loadsettings.KillAnswer{Deleted: fmt.Sprintf("%s-%d", o.Variant, i-1), Replacement: fmt.Sprintf("%s-%d", o.Variant, i),
			Ready: true, ReplacementIP: fmt.Sprintf("127.0.0.%d", i+1)})
	}))
	defer operator.Close()
	faults := loadsettings.EncodeFaults([]loadsettings.Fault{{Kind: loadsettings.FaultPodKill, Role: loadsettings.RoleTarget, At: 300 * time.Millisecond, For: time.Second}})
	first, second := targets[""], targets["d1"]
	r := runCLI(t, "--qps=50", "--connections=2", "--duration=1500ms", "--warmup=0s", "--repetitions=2",
		"--dapr-url="+first.sidecar.URL+"/v1.0/invoke/target/method/test",
		"--variant-urls="+second.sidecar.URL+"/v1.0/invoke/target-d1/method/test",
		"--sidecar-url="+first.sidecar.URL, "--sidecar-wait=5s", "--faults="+faults,
		"--fault-url="+first.servers[0].URL, "--variant-fault-urls="+second.servers[0].URL, "--fault-token="+testToken,
		"--kill-url="+operator.URL, "--run-namespace=perf", "--run-name=variants")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	if len(orders) != 4 || first.killed != 2 || second.killed != 2 {
		t.Fatalf("orders %+v: want two for each variant's target", orders)
	}
	if len(r.report.Faults) != 4 {
		t.Fatalf("%d faults applied, want one in each of 4 Dapr phases: %+v", len(r.report.Faults), r.report.Faults)
	}
	for _, f := range r.report.Faults {
		want := ""
		if f.Variant != result.Dapr {
			want = string(f.Variant)
		}
		if f.Error != "" || f.Pod != fmt.Sprintf("%s-%d", want, f.Rep) || !f.Ready {
			t.Errorf("applied %+v: want %s's target %d killed", f, f.Variant, f.Rep)
		}
		if f.Sent < 30 || f.AppSeen != f.Sent {
			t.Errorf("%s repetition %d: its apps saw %d invocations, it sent %d: want its own target counted, every request once", f.Variant, f.Rep, f.AppSeen, f.Sent)
		}
	}
}
