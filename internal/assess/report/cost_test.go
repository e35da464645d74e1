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
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/usage"
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
	samples := counterSeries(string(usage.ServerSidecar), start, idle, free, idle, held, idle, held, idle)
	phase := func(from, secs int) usage.Phase {
		return usage.Phase{Variant: string(result.Dapr), Start: start.Add(time.Duration(from) * time.Second), End: start.Add(time.Duration(from+secs) * time.Second)}
	}
	byVariant := usage.AccountCPU(samples, []usage.Phase{phase(10, 30), phase(50, 30), phase(90, 30)}, 0)
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
	sustains, _ := strconv.ParseFloat(res.SidecarCost[0].LimitSustainsQPS, 64)
	if wantQPS := 0.5 / (want / 1e6); math.Abs(sustains-wantQPS)/wantQPS > 0.01 {
		t.Errorf("the 500m limit sustains %v rps, want %.0f (±1%%)", sustains, wantQPS)
	}
	if !res.LimitBound {
		t.Errorf("throttled in 40%% of the measured periods: limit-bound")
	}

	// Failed requests cost CPU but are not what a user pays for: they count out.
	sum.Runs[0].Errors = 3000
	res = Build(run, Inputs{Summary: sum, CPU: cpu})
	want = 1.45 / (2600 - 100) * 1e6
	if got := float64(res.SidecarCost[0].CPUPerRequest.Nanoseconds()) / 1e3; math.Abs(got-want)/want > 0.01 {
		t.Errorf("with 3,000 failed requests: %.1f µs, want %.1f µs", got, want)
	}
}
