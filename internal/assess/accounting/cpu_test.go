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

package accounting

import (
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// sample is a role's counters at t seconds after start: cpu CPU-milliseconds per second,
// periods per second, a share of them throttled.
func sample(role string, start time.Time, t float64, cpuPerSec, periodsPerSec, throttledShare float64) perfv1alpha1.CounterSample {
	return perfv1alpha1.CounterSample{Role: role, At: metav1.NewMicroTime(start.Add(time.Duration(t * float64(time.Second)))),
		CPUMillis: int64(cpuPerSec * t), Periods: int64(periodsPerSec * t), ThrottledPeriods: int64(periodsPerSec * t * throttledShare),
		ThrottledMillis: int64(periodsPerSec * t * throttledShare * 50)}
}

// Counters read every 5 s, differenced within a 20 s baseline phase and a 20 s Dapr phase
// (each trimmed by 2 s): the sidecar idles in the first and works, throttled, in the second.
// Only samples inside a phase count, so neither phase's figure carries the other's load.
func TestAccountCPUDifferencesTheCountersAtEachPhasesEdges(t *testing.T) {
	start := time.Unix(1_000_000, 0)
	var samples []perfv1alpha1.CounterSample
	for ts := -3.0; ts <= 45; ts += 5 {
		// sidecar: 5 mCPU-s/s until 20 s, then 450 mCPU-s/s with 10 periods/s, 30% throttled.
		if ts <= 20 {
			samples = append(samples, sample(string(roles.ServerSidecar), start, ts, 5, 0, 0))
		} else {
			s := sample(string(roles.ServerSidecar), start, ts-20, 450, 10, 0.3)
			s.At = metav1.NewMicroTime(start.Add(time.Duration(ts * float64(time.Second))))
			s.CPUMillis += 100 // the 20 s at 5 mCPU-s/s before
			samples = append(samples, s)
		}
		node := sample(roles.NodeRole("n"), start, ts, 1900, 0, 0)
		node.CapacityMillis = 2000
		samples = append(samples, node)
	}
	phases := []Phase{
		{Variant: "b", Start: start, End: start.Add(20 * time.Second)},
		{Variant: "d", Start: start.Add(20 * time.Second), End: start.Add(40 * time.Second)},
	}
	got := AccountCPU(samples, phases, 2*time.Second)
	d := map[string]perfv1alpha1.ContainerCPU{}
	for _, c := range got["d"].Roles {
		d[c.Role] = c
	}
	sc := d[string(roles.ServerSidecar)]
	// samples at 22, 27, 32, 37 s lie inside [22, 38]: 15 s of counters
	if sc.CPU.MilliValue() != 450 || sc.Seconds != 15 || sc.ThrottledPeriodsPercent != "30.0" || sc.Periods != 150 {
		t.Errorf("sidecar in the Dapr phase = %+v, want 450m over 15 s, 30%% of 150 periods throttled", sc)
	}
	if sc.Throttled == nil || sc.Throttled.Duration != 2250*time.Millisecond {
		t.Errorf("throttled %v, want 45 periods × 50 ms", sc.Throttled)
	}
	if n := d[roles.NodeRole("n")]; n.CPU.MilliValue() != 1900 || n.CapacityPercent != "95.0" {
		t.Errorf("node = %+v, want 1900m, 95%% of 2 cores", n)
	}
	var b perfv1alpha1.ContainerCPU
	for _, c := range got["b"].Roles {
		if c.Role == string(roles.ServerSidecar) {
			b = c
		}
	}
	if b.CPU.MilliValue() != 5 || b.ThrottledPeriodsPercent != "" {
		t.Errorf("sidecar in the baseline phase = %+v, want 5m and no CFS periods", b)
	}
	// A short phase with one reading inside is interpolated between the readings around it
	// (the kubelet refreshes a container's counters only every 10–15 s).
	short := []Phase{{Variant: "d", Start: start.Add(24 * time.Second), End: start.Add(32 * time.Second)}}
	if got := AccountCPU(samples, short, 2*time.Second); len(got["d"].Roles) == 0 || got["d"].Roles[1].CPU.MilliValue() != 450 || got["d"].Roles[1].Seconds != 4 {
		t.Errorf("a 4 s phase with one reading inside: %+v, want 450m over 4 s", got["d"].Roles)
	}
	// A phase the readings do not surround is left out, not guessed.
	late := []Phase{{Variant: "d", Start: start.Add(40 * time.Second), End: start.Add(70 * time.Second)}}
	if got := AccountCPU(samples, late, 2*time.Second); len(got) != 0 {
		t.Errorf("a phase past the last sample: %+v", got)
	}
}

// Two load-tester pods on two nodes, each with a client sidecar using 300m: every
// container's counters are differenced on their own series, so the role is 600m in all and
// each pod 300m — never one pod's counter subtracted from the other's (which once read
// 22,111m), nor one pod's series lost behind the other's.
func TestAccountCPUSumsEachPodsOwnCounters(t *testing.T) {
	start := time.Unix(2_000_000, 0)
	var samples []perfv1alpha1.CounterSample
	for ts := 0.0; ts <= 60; ts += 10 {
		for i, pod := range []string{"tester-0", "tester-1"} {
			s := sample(string(roles.ClientSidecar), start, ts+float64(i)*3, 300, 10, 0.1)
			s.Pod = pod
			s.CPUMillis += int64(i) * 5_000_000 // counters of different containers start far apart
			samples = append(samples, s)
		}
	}
	got := AccountCPU(samples, []Phase{{Variant: "d", Start: start.Add(5 * time.Second), End: start.Add(55 * time.Second)}}, 0)["d"]
	if len(got.Roles) != 1 || got.Roles[0].CPU.MilliValue() != 600 || got.Roles[0].ThrottledPeriodsPercent != "10.0" {
		t.Fatalf("clientSidecar %+v, want 600m in all, 10%% throttled", got.Roles)
	}
	if len(got.Pods) != 2 {
		t.Fatalf("per-pod figures %+v, want one for each of the two pods", got.Pods)
	}
	for _, p := range got.Pods {
		if m := p.CPU.MilliValue(); m < 270 || m > 330 {
			t.Errorf("pod %s: %dm, want 300m ± 10%%", p.Pod, m)
		}
	}
}

// A container restarted inside a phase starts its counters again from zero: the phase
// keeps the CPU of both segments instead of reading 0 and escaping the throttling check.
func TestAccountCPUCarriesACounterResetIntoANewSegment(t *testing.T) {
	start := time.Unix(3_000_000, 0)
	var samples []perfv1alpha1.CounterSample
	for ts := 0.0; ts <= 40; ts += 5 {
		s := sample(string(roles.ServerSidecar), start, ts, 400, 10, 0.5)
		if ts >= 20 { // restarted at 17.5 s: the new container has run ts−17.5 s
			s = sample(string(roles.ServerSidecar), start, ts-17.5, 400, 10, 0.5)
			s.At = metav1.NewMicroTime(start.Add(time.Duration(ts * float64(time.Second))))
		}
		samples = append(samples, s)
	}
	got := AccountCPU(samples, []Phase{{Variant: "d", Start: start, End: start.Add(40 * time.Second)}}, 0)["d"].Roles
	if len(got) != 1 {
		t.Fatalf("figures %+v, want the sidecar's", got)
	}
	// 40 s of readings; the 2.5 s between the last reading before the restart and the
	// restart are lost with the old container: (40 − 2.5)·400 / 40 = 375m.
	if m := got[0].CPU.MilliValue(); m < 360 || m > 400 {
		t.Errorf("sidecar across a restart: %dm, want about 375m", m)
	}
	if pct, err := strconv.ParseFloat(got[0].ThrottledPeriodsPercent, 64); err != nil || pct < 49.5 || pct > 50.5 {
		t.Errorf("throttled %q%%, want 50 across the restart", got[0].ThrottledPeriodsPercent)
	}
}

// Two sidecar variants measured in turn, each with its own target: the first's sidecar works
// throttled during its phase and idles during the second's, the second's the other way
// round; the load tester's sidecar, shared, works in both. Each variant's figures hold its
// own target over its own phase, never the other's idle one, and the shared sidecar over
// each phase.
func TestAccountCPUHoldsEachVariantsTargetToItsOwnPhases(t *testing.T) {
	start := time.Unix(3_000_000, 0)
	first, second := string(roles.OfVariant(roles.ServerSidecar, "d")), string(roles.OfVariant(roles.ServerSidecar, "d1"))
	var samples []perfv1alpha1.CounterSample
	for ts := 0.0; ts <= 40; ts += 5 {
		// busy (400 mCPU-s/s, 20% throttled) in its own 20 s, idle (2 mCPU-s/s) in the other's
		a := sample(first, start, min(ts, 20), 400, 10, 0.2)
		a.CPUMillis += int64(max(ts-20, 0) * 2)
		a.At = metav1.NewMicroTime(start.Add(time.Duration(ts * float64(time.Second))))
		b := sample(second, start, max(ts-20, 0), 300, 10, 0.5)
		b.CPUMillis += int64(min(ts, 20) * 2)
		b.At = a.At
		samples = append(samples, a, b, sample(string(roles.ClientSidecar), start, ts, 250, 0, 0))
	}
	phases := []Phase{
		{Variant: "d", Start: start, End: start.Add(20 * time.Second)},
		{Variant: "d1", Start: start.Add(20 * time.Second), End: start.Add(40 * time.Second)},
	}
	got := AccountCPU(samples, phases, 0)
	for variant, want := range map[string]map[string]string{
		"d":  {first: "400m 20.0", string(roles.ClientSidecar): "250m "},
		"d1": {second: "300m 50.0", string(roles.ClientSidecar): "250m "},
	} {
		have := map[string]string{}
		for _, c := range got[variant].Roles {
			have[c.Role] = c.CPU.String() + " " + c.ThrottledPeriodsPercent
		}
		if len(have) != len(want) {
			t.Errorf("%s: roles %v, want only %v (no other variant's idle target)", variant, have, want)
		}
		for role, w := range want {
			if have[role] != w {
				t.Errorf("%s: %s = %q, want %q", variant, role, have[role], w)
			}
		}
	}
}
