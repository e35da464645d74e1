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
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// faultyTimeline is 20 seconds of 100 requests from start: 1 ms each, but from 8 s to 10 s
// half fail and the rest take 100 ms; slowAfter more seconds at 100 ms follow the fault.
func faultyTimeline(t *testing.T, rep int, start time.Time, slowAfter int) result.Timeline {
	t.Helper()
	tl := result.Timeline{Variant: result.Dapr, Rep: rep, StartUnixNano: start.UnixNano()}
	for k := range 20 {
		h, failed, us := result.NewHistogram(), int64(0), int64(1000+k%3*10)
		switch {
		case k == 8 || k == 9:
			failed, us = 50, 100_000
		case k >= 10 && k < 10+slowAfter:
			us = 100_000
		}
		for range 100 - failed {
			_ = h.RecordValue(us)
		}
		enc, err := result.EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		tl.Seconds = append(tl.Seconds, result.Second{Latency: enc, Failed: failed})
	}
	return tl
}

// status.result.faults reads the load tester's timelines: the fault's windows summed over
// both repetitions (half of the 400 requests of its seconds failed), each repetition's
// recovery (1 s and 3 s: mean 2 s, t interval ±12.706 s, its low end held at 0; the slowest
// 3 s), and the app's
// retries per request sent (1.1 and 1.3).
func TestTheResultSaysWhatEachFaultCost(t *testing.T) {
	half := int32(50)
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100},
		Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultTargetErrors, At: metav1.Duration{Duration: 8 * time.Second}, Duration: metav1.Duration{Duration: 2 * time.Second}, ErrorPercent: &half}}}}
	t0, t1 := time.Unix(1000, 0), time.Unix(2000, 0)
	applied := func(rep int, start time.Time, seen int64) result.AppliedFault {
		return result.AppliedFault{Variant: result.Dapr, Rep: rep, StartUnixNano: start.Add(8 * time.Second).UnixNano(),
			EndUnixNano: start.Add(10 * time.Second).UnixNano(), AppSeen: seen, Sent: 2000}
	}
	got, err := faultOutcomes(run, Faults{Timelines: []result.Timeline{faultyTimeline(t, 0, t0, 1), faultyTimeline(t, 1, t1, 3)},
		Applied: []result.AppliedFault{applied(0, t0, 2200), applied(1, t1, 2600)}})
	if err != nil || len(got) != 1 {
		t.Fatalf("outcomes %+v, %v: want the one fault's on the dapr path", got, err)
	}
	o := got[0]
	if o.Kind != perfv1alpha1.FaultTargetErrors || o.Path != "dapr" || o.Applied != 2 || o.Recovered != 2 || o.NotRecovered != 0 {
		t.Errorf("outcome %+v", o)
	}
	if d := o.During; d.Seconds != 4 || d.Requests != 400 || d.Errors != 200 || d.ErrorPercent != "50.00" || d.P50.Duration < 100*time.Millisecond || d.P50.Duration > 100100*time.Microsecond {
		t.Errorf("during %+v, want 4 seconds, 200 of 400 failed, the rest at 100ms (within the histogram's 0.1%%)", d)
	}
	if b := o.Before; b.Seconds != 16 || b.Errors != 0 || b.ErrorPercent != "0.00" || b.P99.Duration > 1100*time.Microsecond {
		t.Errorf("before %+v, want 16 quiet seconds", b)
	}
	if o.Recovery == nil || o.Recovery.Duration != 2*time.Second || o.RecoveryInterval == nil ||
		o.RecoveryInterval.Low.Duration != 0 || o.RecoveryInterval.High.Duration.Round(time.Millisecond) != 14706*time.Millisecond {
		t.Errorf("recovery %v in %+v, want 2s in [0s, 14.706s]", o.Recovery, o.RecoveryInterval)
	}
	if o.SlowestRecovery == nil || o.SlowestRecovery.Duration != 3*time.Second {
		t.Errorf("slowest recovery %v, want the second repetition's 3s (what thresholds.maxRecovery reads)", o.SlowestRecovery)
	}
	if o.Amplification != "1.200" || o.AmplificationLow == "" {
		t.Errorf("amplification %q [%q, %q], want 1.200 with its interval", o.Amplification, o.AmplificationLow, o.AmplificationHigh)
	}
	if none, err := faultOutcomes(run, Faults{}); none != nil || err != nil {
		t.Errorf("a run that applied no fault: %+v %v", none, err)
	}
}

// A PodKill's record: each phase's pod deleted, the pod made in its place and, when it was
// ready by the fault's end, how soon after the order (the span the load tester held the
// fault); and the pods it deleted and made are its own, not disturbances of the
// measurement: by name, or a pod of the same ReplicaSet created while the kill held.
func TestAPodKillRecordsThePodsItDeletedAndWhatReplacedThem(t *testing.T) {
	target := perfv1alpha1.FaultRoleTarget
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100},
		Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: &target, At: metav1.Duration{Duration: 8 * time.Second}, Duration: metav1.Duration{Duration: 5 * time.Second}}}}}
	t0, t1 := time.Unix(1000, 0), time.Unix(2000, 0)
	const a, b, c, d = "k-target-7d9f-aaaaa", "k-target-7d9f-bbbbb", "k-target-7d9f-ccccc", "k-target-7d9f-ddddd"
	applied := []result.AppliedFault{
		{Variant: result.Dapr, Rep: 1, StartUnixNano: t1.Add(8 * time.Second).UnixNano(), EndUnixNano: t1.Add(13 * time.Second).UnixNano(), AppSeen: -1, Sent: 2000, Pod: b, Replacement: c,
			MeasuredQPS: 666.66}, // as a kill of a load tester says: the phase holds two of three pods' requests
		{Variant: result.Dapr, Rep: 0, StartUnixNano: t0.Add(8 * time.Second).UnixNano(), EndUnixNano: t0.Add(10 * time.Second).UnixNano(), AppSeen: -1, Sent: 2000, Pod: a, Replacement: b, Ready: true},
	}
	got, err := faultOutcomes(run, Faults{Timelines: []result.Timeline{faultyTimeline(t, 0, t0, 1), faultyTimeline(t, 1, t1, 3)}, Applied: applied})
	if err != nil || len(got) != 1 {
		t.Fatalf("outcomes %+v, %v", got, err)
	}
	k := got[0].Kills
	if len(k) != 2 || k[0] != (perfv1alpha1.PodKillRecord{Repetition: 1, Deleted: a, Replacement: b, ReadyAfter: k[0].ReadyAfter}) || k[0].ReadyAfter == nil ||
		k[0].ReadyAfter.Duration != 2*time.Second || k[1] != (perfv1alpha1.PodKillRecord{Repetition: 2, Deleted: b, Replacement: c, MeasuredQPS: "666.7"}) {
		t.Errorf("kills %+v: want %s replaced by %s ready after 2s, then %s by %s not ready by the fault's end, the phase measuring 666.7 qps", k, a, b, b, c)
	}
	if got[0].Amplification != "" {
		t.Errorf("amplification %q, want none: the load tester read no app count (-1)", got[0].Amplification)
	}

	at := func(base time.Time, s int) metav1.Time {
		return metav1.NewTime(base.Add(time.Duration(s) * time.Second))
	}
	ds := []perfv1alpha1.Disturbance{
		{Kind: perfv1alpha1.DisturbanceCreated, Role: "target", Pod: b, Time: at(t0, 8)},
		{Kind: perfv1alpha1.DisturbanceCreated, Role: "target", Pod: c, Time: at(t1, 8)},
		{Kind: perfv1alpha1.DisturbanceCreated, Role: "target", Pod: d, Time: at(t1, 12)},                     // the same ReplicaSet, while the kill held
		{Kind: perfv1alpha1.DisturbanceCreated, Role: "target", Pod: "k-target-7d9f-eeeee", Time: at(t1, 16)}, // after it
		{Kind: perfv1alpha1.DisturbanceRestarted, Role: "target", Pod: c, Container: "daprd", Time: at(t1, 11)},
		{Kind: perfv1alpha1.DisturbanceDeleted, Role: "controlPlane/dapr-placement-server", Pod: "dapr-placement-server-0", Time: at(t1, 9)},
	}
	FaultMade(ds, applied, run.Spec.Faults)
	for i, want := range []bool{true, true, true, false, false, false} {
		if (ds[i].Fault != nil) != want {
			t.Errorf("disturbance %+v: the kill's %v, want %v", ds[i], ds[i].Fault != nil, want)
		}
	}
	if msg := DisturbanceMessage(ds); strings.Contains(msg, b) || !strings.Contains(msg, "k-target-7d9f-eeeee") || !strings.Contains(msg, "restarted") ||
		!strings.Contains(msg, "dapr-placement-server-0") {
		t.Errorf("message %q: want the later pod, the restart and the control plane's deletion, not the kill's own pods", msg)
	}
}

// A scheduler outage on a Workflow run: its phases' instances (counted as messages) read as
// instances started, completed, failed and stuck, with the spread of each phase's stuck (10
// and 30: mean 20, t interval ±127.06, its low end held at 0) and the daprd's CPU before
// and during it; every scheduler pod it
// deleted, and each replacement of the same name, is the fault's, not a disturbance; the
// placement's deletion beside it is one.
func TestASchedulerOutageSaysWhatItLeftStuck(t *testing.T) {
	scheduler := perfv1alpha1.FaultRoleScheduler
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioWorkflow, Load: perfv1alpha1.LoadSpec{QPS: 100},
		Faults: []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: &scheduler, At: metav1.Duration{Duration: 8 * time.Second}, Duration: metav1.Duration{Duration: 5 * time.Second}}}}}
	t0, t1 := time.Unix(1000, 0), time.Unix(2000, 0)
	const pods = "dapr-scheduler-server-0, dapr-scheduler-server-1"
	ms := func(n int64) *int64 { return &n }
	applied := func(rep int, start time.Time, stuck, cpuMs int64) result.AppliedFault {
		return result.AppliedFault{Variant: result.Dapr, Rep: rep, StartUnixNano: start.Add(8 * time.Second).UnixNano(), EndUnixNano: start.Add(12 * time.Second).UnixNano(),
			AppSeen: -1, Sent: 2000, Pod: pods, Replacement: pods, Ready: true,
			Messages:  &result.Messages{Published: 2000, Delivered: 2000 - stuck, Lost: stuck, Failed: 2},
			CPUBefore: &result.DaprdCPU{ClientMs: ms(800), ClientPods: 1, WallMs: 8000}, CPUDuring: &result.DaprdCPU{ClientMs: ms(cpuMs), ClientPods: 1, WallMs: 4000}}
	}
	as := []result.AppliedFault{applied(0, t0, 10, 3200), applied(1, t1, 30, 2400)}
	got, err := faultOutcomes(run, Faults{Timelines: []result.Timeline{faultyTimeline(t, 0, t0, 1), faultyTimeline(t, 1, t1, 3)}, Applied: as})
	if err != nil || len(got) != 1 {
		t.Fatalf("outcomes %+v, %v", got, err)
	}
	want := perfv1alpha1.FaultInstances{Started: 4000, Completed: 3956, Failed: 4, Stuck: 40, StuckPerPhase: "20.0", StuckPerPhaseLow: "0.0", StuckPerPhaseHigh: "147.1"}
	if in := got[0].Instances; in == nil || *in != want || got[0].Messages != nil {
		t.Errorf("instances %+v (messages %+v), want %+v and no messages", in, got[0].Messages, want)
	}
	// The load tester's daprd: 100m before; 800m and 600m during, mean 700m, t interval
	// ±1270.6m (its low end held at 0); the target's daprd was not read.
	if c := got[0].DaprdCPU; len(c) != 1 || c[0].Sidecar != "clientSidecar" || c[0].Before.String() != "100m" || c[0].During.String() != "700m" ||
		c[0].DuringLow == nil || c[0].DuringLow.String() != "0" || c[0].DuringHigh.String() != "1971m" {
		t.Errorf("daprd CPU %+v, want the client sidecar's 100m before, 700m [0, 1971m] during", c)
	}
	if k := got[0].Kills; len(k) != 2 || k[0].Deleted != pods || k[0].Replacement != pods || k[0].ReadyAfter == nil || k[0].ReadyAfter.Duration != 4*time.Second {
		t.Errorf("kills %+v, want both scheduler pods deleted and back 4s after the order", k)
	}
	ds := []perfv1alpha1.Disturbance{
		{Kind: perfv1alpha1.DisturbanceDeleted, Role: "controlPlane/dapr-scheduler-server", Pod: "dapr-scheduler-server-1", Time: metav1.NewTime(t0.Add(8 * time.Second))},
		{Kind: perfv1alpha1.DisturbanceCreated, Role: "controlPlane/dapr-scheduler-server", Pod: "dapr-scheduler-server-0", Time: metav1.NewTime(t1.Add(10 * time.Second))},
		{Kind: perfv1alpha1.DisturbanceDeleted, Role: "controlPlane/dapr-placement-server", Pod: "dapr-placement-server-0", Time: metav1.NewTime(t1.Add(9 * time.Second))},
		// The same name, long after the outage: the pod's own trouble, not the kill's.
		{Kind: perfv1alpha1.DisturbanceCreated, Role: "controlPlane/dapr-scheduler-server", Pod: "dapr-scheduler-server-1", Time: metav1.NewTime(t1.Add(30 * time.Second))},
	}
	FaultMade(ds, as, run.Spec.Faults)
	for i, want := range []bool{true, true, false, false} {
		if (ds[i].Fault != nil) != want {
			t.Errorf("disturbance %+v: the outage's %v, want %v", ds[i], ds[i].Fault != nil, want)
		}
	}
}

// A load tester's Job makes its replacement once the evicted pod has ended, after the
// kill's span: the first pod of the killed pod's index created after the kill is the
// kill's; one of another index, made before the kill, or a second one after it (a drain's)
// is a disturbance. A Target kill keeps to its span.
func TestALoadTestersReplacementMadeAfterTheKillIsTheKills(t *testing.T) {
	tester, target := perfv1alpha1.FaultRoleLoadTester, perfv1alpha1.FaultRoleTarget
	t0 := time.Unix(1000, 0)
	at := func(s int) metav1.Time { return metav1.NewTime(t0.Add(time.Duration(s) * time.Second)) }
	applied := []result.AppliedFault{{Variant: result.Dapr, StartUnixNano: t0.Add(5 * time.Second).UnixNano(), EndUnixNano: t0.Add(10 * time.Second).UnixNano(),
		AppSeen: -1, Pod: "r-load-1-1-aaaaa"}}
	for _, tc := range []struct {
		role perfv1alpha1.FaultRole
		want []bool
	}{{tester, []bool{true, true, false, false, false}}, {target, []bool{true, false, false, false, false}}} {
		ds := []perfv1alpha1.Disturbance{
			{Kind: perfv1alpha1.DisturbanceDeleted, Role: "loadtester", Pod: "r-load-1-1-aaaaa", Time: at(5)},
			{Kind: perfv1alpha1.DisturbanceCreated, Role: "loadtester", Pod: "r-load-1-1-bbbbb", Time: at(18)}, // after the span
			{Kind: perfv1alpha1.DisturbanceCreated, Role: "loadtester", Pod: "r-load-1-2-ccccc", Time: at(18)}, // another index
			{Kind: perfv1alpha1.DisturbanceCreated, Role: "loadtester", Pod: "r-load-1-1-ddddd", Time: at(2)},  // before the kill
			{Kind: perfv1alpha1.DisturbanceCreated, Role: "loadtester", Pod: "r-load-1-1-eeeee", Time: at(40)}, // the replacement's replacement
		}
		FaultMade(ds, applied, []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: &tc.role}})
		for i, want := range tc.want {
			if (ds[i].Fault != nil) != want {
				t.Errorf("%s kill, disturbance %+v: the kill's %v, want %v", tc.role, ds[i], ds[i].Fault != nil, want)
			}
		}
	}
}

// A run whose LoadTester kill lost a pod's requests in its phases says so in its headline
// and its schedule message, which would otherwise claim the whole rate; a run without one
// does not.
func TestTheHeadlineSaysAKilledLoadTestersRequestsAreNotCounted(t *testing.T) {
	lag := &perfv1alpha1.LatencySummary{P99: &metav1.Duration{Duration: 2 * time.Millisecond}}
	latency := &perfv1alpha1.LatencySummary{P50: &metav1.Duration{Duration: time.Millisecond}, P90: &metav1.Duration{Duration: time.Millisecond}, P99: &metav1.Duration{Duration: time.Millisecond}}
	res := &perfv1alpha1.Result{RequestedQPS: 100, ActualQPS: "50.0", Requests: 1300, Latency: latency, SendLag: lag,
		Faults: []perfv1alpha1.FaultOutcome{{Kind: perfv1alpha1.FaultPodKill, Kills: []perfv1alpha1.PodKillRecord{{Repetition: 1, Deleted: "r-load-1-1-a", MeasuredQPS: "50.0"}}}}}
	const words = "a killed load-tester pod's requests are not counted in the phases it was killed in, which measured the other pods' 50.0 qps"
	if msg := Headline(res); !strings.Contains(msg, "1300 requests at 50.0/100 qps") || !strings.Contains(msg, words) {
		t.Errorf("headline %q: want the rate and why it is half", msg)
	}
	if msg := ScheduleMessage(res); strings.Contains(msg, "carried 100 qps") || !strings.Contains(msg, words) {
		t.Errorf("schedule message %q: want no claim of the whole rate, and why", msg)
	}
	res.Faults[0].Kills[0].MeasuredQPS = ""
	if msg := Headline(res) + ScheduleMessage(res); strings.Contains(msg, "not counted") || !strings.Contains(msg, "every path carried 100 qps on schedule") {
		t.Errorf("a kill that lost no share: %q", msg)
	}
}
