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

package report

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// counterSeries is a container's cumulative counters read every second from start, its
// CPU use and throttled share changing at each phase given as (seconds, millicores,
// throttled share of 10 CFS periods a second).
func counterSeries(role string, start time.Time, phases ...[3]float64) []perfv1alpha1.CounterSample {
	var out []perfv1alpha1.CounterSample
	var cpu, periods, throttled float64
	at := 0
	for _, p := range phases {
		for range int(p[0]) {
			out = append(out, perfv1alpha1.CounterSample{Role: role, At: metav1.NewMicroTime(start.Add(time.Duration(at) * time.Second)),
				CPUMillis: int64(cpu), Periods: int64(periods), ThrottledPeriods: int64(throttled), ThrottledMillis: int64(throttled * 60)})
			cpu += p[1]
			periods += 10
			throttled += 10 * p[2]
			at++
		}
	}
	return out
}

// Dapr's cost per request is the sidecar's CPU-seconds over the measured runs divided by the
// requests they completed, whether a repetition was throttled or not: throttling delays the
// work without changing its amount. Repetitions that carried different rates weigh by their
// requests, not by the median rate.
func TestCostPerRequestFromCountersOverThrottledAndUnthrottledRepetitions(t *testing.T) {
	start := time.Unix(4_000_000, 0)
	// Three 30 s Dapr repetitions with 10 s baselines between them (the server sidecar idles
	// at 2m there): the first unthrottled, 1000 rps at 450m (450 µs a request); the next two
	// held at the 500m limit, throttled in 60% of their periods, completing 800 rps (625 µs).
	idle := [3]float64{10, 2, 0}
	free := [3]float64{30, 450, 0}
	held := [3]float64{30, 500, 0.6}
	samples := counterSeries(string(roles.ServerSidecar), start, idle, free, idle, held, idle, held, idle)
	phase := func(from, secs int) accounting.Phase {
		return accounting.Phase{Variant: string(result.Dapr), Start: start.Add(time.Duration(from) * time.Second), End: start.Add(time.Duration(from+secs) * time.Second)}
	}
	byVariant := accounting.AccountCPU(samples, []accounting.Phase{phase(10, 30), phase(50, 30), phase(90, 30)}, 0)
	cpu := &perfv1alpha1.CPUAccounting{Measured: byVariant[string(result.Dapr)].Roles}
	if len(cpu.Measured) != 1 {
		t.Fatalf("measured CPU %+v, want the server sidecar's", cpu.Measured)
	}

	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
		Load: perfv1alpha1.LoadSpec{QPS: 1000},
		Dapr: perfv1alpha1.DaprSpec{Sidecar: perfv1alpha1.SidecarSpec{CPULimit: ptr.To(resource.MustParse("500m"))}}}}
	rep := func(i int, qps float64) result.Run {
		return result.Run{Variant: result.Dapr, Rep: i, Seconds: 30, ActualQPS: qps, Requests: int64(qps * 30), Scheduled: 30_000}
	}
	sum := &result.Summary{RequestedQPS: 1000, Runs: []result.Run{rep(0, 1000), rep(1, 800), rep(2, 800)}}
	res := Build(run, Inputs{Summary: sum, CPU: cpu})
	if len(res.SidecarCost) != 1 {
		t.Fatalf("sidecar cost %+v", res.SidecarCost)
	}
	// (0.45 + 0.5 + 0.5)·30 CPU-seconds over (1000 + 800 + 800)·30 requests = 557.7 µs.
	want := 1.45 / 2600 * 1e6
	got := float64(res.SidecarCost[0].CPUPerRequest.Nanoseconds()) / 1e3
	if math.Abs(got-want)/want > 0.01 {
		t.Errorf("cost per request %.1f µs, want %.1f µs (±1%%): CPU-seconds over completed requests", got, want)
	}
	// A projection at 80% of the limit, where the queue drains: not limit ÷ cost (897 rps
	// here, above the 800 the limit carried while bound).
	projected, _ := strconv.ParseFloat(res.SidecarCost[0].LimitProjectedQPS, 64)
	if wantQPS := 0.8 * 0.5 / (want / 1e6); math.Abs(projected-wantQPS)/wantQPS > 0.01 {
		t.Errorf("the 500m limit's projected rate %v rps, want %.0f (±1%%)", projected, wantQPS)
	}
	if !res.LimitBound {
		t.Errorf("throttled in 40%% of the measured periods: limit-bound")
	}

	// With sidecar variants the first's target is serverSidecar@d: its counters are the
	// server sidecar's all the same.
	variants := run.DeepCopy()
	variants.Spec.Variants = []perfv1alpha1.SidecarVariant{{Name: "one"}, {Name: "two"}}
	tagged := cpu.DeepCopy()
	tagged.Measured[0].Role = string(roles.OfVariant(roles.ServerSidecar, string(result.Dapr)))
	if res := Build(variants, Inputs{Summary: sum, CPU: tagged}); len(res.SidecarCost) != 1 || res.SidecarCost[0].ThrottledPercent == "" {
		t.Errorf("with variants: sidecar cost %+v, want the first variant's target's counters", res.SidecarCost)
	}

	// Failed requests cost CPU but are not what a user pays for: they count out.
	sum.Runs[0].Errors = 3000
	res = Build(run, Inputs{Summary: sum, CPU: cpu})
	want = 1.45 / (2600 - 100) * 1e6
	if got := float64(res.SidecarCost[0].CPUPerRequest.Nanoseconds()) / 1e3; math.Abs(got-want)/want > 0.01 {
		t.Errorf("with 3,000 failed requests: %.1f µs, want %.1f µs", got, want)
	}
}

// daprd's own counter, read at each repetition's edges, gives the cost per repetition: a
// known answer of 200 µs a request above an idle floor of 20m, at 500 rps for 10 s
// repetitions (5000 requests, 1000 ms + 200 ms idle), the baseline's 5 s repetitions idle.
func TestDaprdCostPerRepetitionWithItsIdleFloorApart(t *testing.T) {
	ms := func(v int64) *int64 { return &v }
	dapr := func(rep int, extraMs int64) result.Run {
		return result.Run{Variant: result.Dapr, Rep: rep, Seconds: 10, Requests: 5000, Errors: 0,
			DaprdCPU: &result.DaprdCPU{ClientMs: ms(1200 + extraMs), ClientPods: 1, ServerMs: ms(1100 + extraMs), WallMs: 10_000}}
	}
	baseline := func(rep int) result.Run {
		return result.Run{Variant: result.Baseline, Rep: rep, Seconds: 5, Requests: 2500,
			DaprdCPU: &result.DaprdCPU{ClientMs: ms(100), ClientPods: 1, ServerMs: ms(50), WallMs: 5000}}
	}
	sum := &result.Summary{Runs: []result.Run{baseline(0), dapr(0, -50), dapr(1, 0), baseline(1), baseline(2), dapr(2, 50)}}

	client := daprdCost(sum, roles.ClientSidecar, result.Dapr)
	if client == nil {
		t.Fatal("no client daprd cost")
	}
	var per []string
	for _, d := range client.PerRepetition {
		per = append(per, d.Duration.String())
	}
	if got := strings.Join(per, " "); got != "230µs 240µs 250µs" {
		t.Errorf("per repetition %s, want 230µs 240µs 250µs", got)
	}
	// mean 240 µs, sd 10 µs, t(0.975, 2) = 4.303: ±24.8 µs.
	if client.CPUPerRequest.Duration != 240*time.Microsecond || client.Low == nil || client.High == nil ||
		client.Low.Duration != 215*time.Microsecond+200*time.Nanosecond || client.High.Duration != 264*time.Microsecond+800*time.Nanosecond {
		t.Errorf("mean %v [%v, %v], want 240µs [215.2µs, 264.8µs]", client.CPUPerRequest.Duration, client.Low, client.High)
	}
	if client.IdleCPU == nil || client.IdleCPU.MilliValue() != 20 || client.MarginalPerRequest == nil ||
		client.MarginalPerRequest.Duration != 200*time.Microsecond {
		t.Errorf("idle %v, marginal %v; want 20m and 200µs", client.IdleCPU, client.MarginalPerRequest)
	}
	server := daprdCost(sum, roles.ServerSidecar, result.Dapr)
	if server == nil || server.CPUPerRequest.Duration != 220*time.Microsecond || server.IdleCPU.MilliValue() != 10 ||
		server.MarginalPerRequest.Duration != 200*time.Microsecond {
		t.Errorf("server daprd cost %+v, want 220µs, idle 10m, marginal 200µs", server)
	}

	// A repetition without a reading, or a split load with one pod's daprd unread, gives no
	// figure rather than one over part of the requests.
	unread := &result.Summary{Runs: []result.Run{baseline(0), dapr(0, 0), {Variant: result.Dapr, Rep: 1, Requests: 5000}}}
	if c := daprdCost(unread, roles.ClientSidecar, result.Dapr); c != nil {
		t.Errorf("cost %+v from a run with a repetition unread", c)
	}
	split := &result.Summary{Runs: []result.Run{dapr(0, 0)}, Pods: []result.PodLoad{{Pod: 0}, {Pod: 1}}}
	if c := daprdCost(split, roles.ClientSidecar, result.Dapr); c != nil {
		t.Errorf("client cost %+v from one of two pods' daprds", c)
	}
	if c := daprdCost(split, roles.ServerSidecar, result.Dapr); c == nil || c.Low != nil || c.IdleCPU != nil {
		t.Errorf("server cost %+v from one repetition: want a figure without interval or idle floor", c)
	}

	// The headline is daprd's counter; the kubelet's figure over the same runs stands beside
	// it as the cross-check, tagged with what it was measured under.
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 500}}}
	kubelet := &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{{Role: string(roles.ClientSidecar), CPU: resource.MustParse("126m")}}}
	costs := sidecarCosts(run, kubelet, sum, 500)
	if len(costs) != 2 || costs[0].Role != string(roles.ServerSidecar) || costs[0].CPUPerRequest.Duration != 220*time.Microsecond ||
		costs[0].Source != perfv1alpha1.CostFromDaprd || costs[0].KubeletCPUPerRequest != nil {
		t.Fatalf("costs %+v: want the server's from daprd alone, then the client's", costs)
	}
	c := costs[1]
	if c.CPUPerRequest.Duration != 240*time.Microsecond || c.Source != perfv1alpha1.CostFromDaprd || c.KubeletCPUPerRequest == nil ||
		c.KubeletCPUPerRequest.Duration != 252*time.Microsecond || c.Daprd == nil || c.Daprd.KubeletDifferencePercent != "5.0" ||
		c.AtQPS != "500.0" || c.Arrival != "Synchronized" || c.ThrottledPercent != "0.0" {
		t.Errorf("client cost %+v (daprd %+v): want daprd's 240µs, the kubelet's 252µs beside it 5.0%% above, tagged 500.0 rps, Synchronized, 0.0%%", c, c.Daprd)
	}
	if msg := CostMessage(&perfv1alpha1.Result{SidecarCost: costs}); !strings.Contains(msg,
		"clientSidecar 240µs CPU per request (daprd's own counter: 240µs [215.2µs, 264.8µs] over 3 repetitions, 200µs above its idle 20m; the kubelet's cross-check: 252µs, +5.0%)") {
		t.Errorf("cost message %q does not give daprd's figure with the kubelet's beside it", msg)
	}
}

// The cost headline is daprd's own counter, read at each phase's exact edges, not the
// kubelet's, which misses part of a short phase: here 20 s repetitions whose kubelet
// counters, sampled every 10 s, cover 17.5 s of each — 12.5% low, as measured on a real
// cluster. The Succeeded message, compare and regression read the headline.
func TestTheCostHeadlineIsDaprdsOwnCounter(t *testing.T) {
	ms := func(v int64) *int64 { return &v }
	rep := func(i int) result.Run {
		// 1000 rps for 20 s, daprd's server counter 8000 ms over the phase: 400 µs a request.
		return result.Run{Variant: result.Dapr, Rep: i, Seconds: 20, ActualQPS: 1000, Requests: 20_000, Scheduled: 20_000,
			DaprdCPU: &result.DaprdCPU{ServerMs: ms(8000), WallMs: 20_000}}
	}
	sum := &result.Summary{RequestedQPS: 1000, Runs: []result.Run{rep(0), rep(1), rep(2)}}
	// The kubelet's counter over the same runs reads 350m: 12.5% below daprd's 400m.
	cpu := &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{{Role: string(roles.ServerSidecar), CPU: resource.MustParse("350m"),
		ThrottledPeriodsPercent: "0.0", Periods: 600, Throttled: &metav1.Duration{}}}}
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000},
		Dapr: perfv1alpha1.DaprSpec{Sidecar: perfv1alpha1.SidecarSpec{CPULimit: ptr.To(resource.MustParse("1"))}}}}
	res := Build(run, Inputs{Summary: sum, CPU: cpu})
	if len(res.SidecarCost) != 1 {
		t.Fatalf("sidecar cost %+v", res.SidecarCost)
	}
	c := res.SidecarCost[0]
	if c.CPUPerRequest.Duration != 400*time.Microsecond || c.Source != perfv1alpha1.CostFromDaprd {
		t.Errorf("headline %v from %q, want daprd's 400µs", c.CPUPerRequest.Duration, c.Source)
	}
	if c.KubeletCPUPerRequest == nil || c.KubeletCPUPerRequest.Duration != 350*time.Microsecond || c.Daprd.KubeletDifferencePercent != "-12.5" {
		t.Errorf("cross-check %v (%s%%), want the kubelet's 350µs, -12.5%%", c.KubeletCPUPerRequest, c.Daprd.KubeletDifferencePercent)
	}
	// The limit's projection and the headline the status carries are daprd's too.
	if c.LimitProjectedQPS != "2000.0" {
		t.Errorf("projected %s rps, want 0.8 × 1 CPU / 400µs = 2000", c.LimitProjectedQPS)
	}
	if h := StatusHeadline(res); h.CostPerRequest == nil || h.CostPerRequest.ServerSidecar == nil || h.CostPerRequest.ServerSidecar.Duration != 400*time.Microsecond {
		t.Errorf("status headline cost %+v, want daprd's 400µs", h.CostPerRequest)
	}
	if msg := CostMessage(res); !strings.HasPrefix(msg, "Dapr's cost: serverSidecar 400µs CPU per request (daprd's own counter") ||
		!strings.Contains(msg, "the kubelet's cross-check: 350µs, -12.5%") {
		t.Errorf("cost message %q", msg)
	}

	// Without daprd's counter the kubelet's is the headline, and says so.
	for i := range sum.Runs {
		sum.Runs[i].DaprdCPU = nil
	}
	c = Build(run, Inputs{Summary: sum, CPU: cpu}).SidecarCost[0]
	if c.CPUPerRequest.Duration != 350*time.Microsecond || c.Source != perfv1alpha1.CostFromKubelet || c.KubeletCPUPerRequest != nil {
		t.Errorf("kubelet-only cost %+v, want 350µs from the kubelet", c)
	}
}
