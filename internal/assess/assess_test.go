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

package assess

import (
	"errors"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

var start = time.Unix(5_000_000, 0)

// twoPaths is a summary of one 30 s baseline run then one 30 s Dapr run at 1000 rps.
func twoPaths() *result.Summary {
	run := func(v result.Variant, at int64, p90 int64) result.Run {
		return result.Run{Variant: v, StartUnix: start.Unix() + at, Seconds: 30, ActualQPS: 1000, Requests: 30_000, Scheduled: 30_000,
			TesterLagP99Us: 100, Percentiles: []result.Percentile{{P: 50, Us: p90 / 2}, {P: 90, Us: p90}, {P: 99, Us: 2 * p90}}}
	}
	return &result.Summary{RequestedQPS: 1000, GapUs: 16_000, Runs: []result.Run{run(result.Baseline, 0, 800), run(result.Dapr, 40, 1600)},
		Merged: []result.Merged{{Variant: result.Dapr, Percentiles: []result.Percentile{{P: 50, Us: 800}, {P: 90, Us: 1600}, {P: 99, Us: 3200}}}}}
}

func newRun(mutate ...func(*perfv1alpha1.PerfRunSpec)) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "r", Generation: 2},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000, Repetitions: 1}}}
	for _, m := range mutate {
		m(&run.Spec)
	}
	return run
}

// counters is the server sidecar's counters read every 5 s over the two runs: idle in the
// baseline, at cpuMilli and throttled in the given share of its periods through Dapr.
func counters(cpuMilli int64, throttled float64) *perfv1alpha1.LiveUsage {
	live := &perfv1alpha1.LiveUsage{}
	var cpu, periods, stalled float64
	for at := 0; at <= 75; at += 5 {
		live.Counters = append(live.Counters, perfv1alpha1.CounterSample{Role: "serverSidecar", At: metav1.NewMicroTime(start.Add(time.Duration(at) * time.Second)),
			CPUMillis: int64(cpu), Periods: int64(periods), ThrottledPeriods: int64(stalled), ThrottledMillis: int64(stalled * 50)})
		rate, share := float64(2), 0.0
		if at >= 40 && at < 70 {
			rate, share = float64(cpuMilli), throttled
		}
		cpu += 5 * rate
		periods += 50
		stalled += 50 * share
	}
	return live
}

func conditionIn(a Assessment, t string) *metav1.Condition {
	return meta.FindStatusCondition(a.Conditions, t)
}

func TestEvaluateJudgesAFinishedLoad(t *testing.T) {
	completed := &corev1.ContainerStateTerminated{Reason: "Completed"}
	for _, tc := range []struct {
		name   string
		run    *perfv1alpha1.PerfRun
		ev     Evidence
		check  func(t *testing.T, a Assessment)
		reason string
		failed bool
	}{{
		name: "no counters by the operator's choice: CPULimitBound says so, the result stands",
		run:  newRun(),
		ev:   Evidence{Load: Load{Terminated: completed, Summary: twoPaths()}, CountersOff: "the operator reads no kubelet counters"},
		check: func(t *testing.T, a Assessment) {
			c := conditionIn(a, perfv1alpha1.ConditionCPULimitBound)
			if c == nil || c.Status != metav1.ConditionUnknown || c.Reason != perfv1alpha1.ReasonCountersNotRead || c.Message != "the operator reads no kubelet counters" {
				t.Errorf("CPULimitBound %+v, want Unknown CountersNotRead with the reason", c)
			}
			if a.Result == nil || a.Result.CPU != nil {
				t.Errorf("result %+v: the figures, without CPU accounting", a.Result)
			}
		},
		reason: perfv1alpha1.ReasonSucceeded,
	}, {
		name: "a result within its gate, the sidecar throttled",
		run: newRun(func(s *perfv1alpha1.PerfRunSpec) {
			s.Thresholds = &perfv1alpha1.Thresholds{MaxP90: &metav1.Duration{Duration: 5 * time.Millisecond}}
		}),
		ev: Evidence{Load: Load{Terminated: completed, Summary: twoPaths()}, Live: counters(480, 0.6), CountersSource: "fake"},
		check: func(t *testing.T, a Assessment) {
			if a.Result == nil || a.Result.Latency.P90.Duration != 1600*time.Microsecond || !a.Result.LimitBound {
				t.Fatalf("result %+v: the summary's figures, limit-bound", a.Result)
			}
			if c := conditionIn(a, perfv1alpha1.ConditionCPULimitBound); c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != 2 {
				t.Errorf("CPULimitBound %+v, want True for generation 2", c)
			}
			if c := conditionIn(a, perfv1alpha1.ConditionThresholdsMet); c == nil || c.Status != metav1.ConditionTrue {
				t.Errorf("ThresholdsMet %+v", c)
			}
			if c := conditionIn(a, perfv1alpha1.ConditionSaturated); c == nil || c.Status != metav1.ConditionFalse {
				t.Errorf("Saturated %+v", c)
			}
			if conditionIn(a, perfv1alpha1.ConditionResourceUsageAvailable) != nil || conditionIn(a, perfv1alpha1.ConditionRegressed) != nil {
				t.Errorf("conditions of evidence not gathered: %+v", a.Conditions)
			}
			if !strings.Contains(a.Verdict.Message, "bounded by the CPU limit: serverSidecar") {
				t.Errorf("verdict %q", a.Verdict.Message)
			}
		},
		reason: perfv1alpha1.ReasonSucceeded,
	}, {
		name: "an unreadable summary: no result, disturbances still judged",
		run:  newRun(),
		ev:   Evidence{Load: Load{Terminated: completed, Message: "garbage", DecodeErr: errors.New("invalid character")}},
		check: func(t *testing.T, a Assessment) {
			if a.Result != nil {
				t.Errorf("a result from an unreadable summary: %+v", a.Result)
			}
			if c := conditionIn(a, perfv1alpha1.ConditionDisturbed); c == nil || c.Status != metav1.ConditionFalse {
				t.Errorf("Disturbed %+v", c)
			}
		},
		reason: perfv1alpha1.ReasonInvalidResult, failed: true,
	}, {
		name: "a failed Job keeps its partial result",
		run:  newRun(),
		ev: Evidence{Load: Load{JobFailed: &batchv1.JobCondition{Type: batchv1.JobFailed, Reason: batchv1.JobReasonBackoffLimitExceeded},
			Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}, Summary: twoPaths()}},
		check: func(t *testing.T, a Assessment) {
			if a.Result == nil || conditionIn(a, perfv1alpha1.ConditionSaturated) != nil {
				t.Errorf("result %v, saturated %+v: the partial result is kept, and not judged", a.Result != nil, conditionIn(a, perfv1alpha1.ConditionSaturated))
			}
		},
		reason: perfv1alpha1.ReasonLoadTesterFailed, failed: true,
	}, {
		name: "a pod restarted inside the Dapr run",
		run:  newRun(),
		ev: Evidence{Load: Load{Terminated: completed, Summary: twoPaths()}, Disturbances: []perfv1alpha1.Disturbance{{
			Kind: perfv1alpha1.DisturbanceRestarted, Role: "target", Pod: "p", Container: "daprd", Time: metav1.NewTime(start.Add(50 * time.Second))}}},
		check: func(t *testing.T, a Assessment) {
			if c := conditionIn(a, perfv1alpha1.ConditionDisturbed); c == nil || c.Status != metav1.ConditionTrue {
				t.Fatalf("Disturbed %+v", c)
			}
			if a.Disturbances[0].Phase == "" || !strings.Contains(a.Verdict.Message, "disturbed while measured") {
				t.Errorf("placed %+v, verdict %q", a.Disturbances[0].Phase, a.Verdict.Message)
			}
		},
		reason: perfv1alpha1.ReasonSucceeded,
	}, {
		name: "a scheduled run held on purpose (known answer)",
		run: func() *perfv1alpha1.PerfRun {
			r := newRun()
			r.Annotations = map[string]string{perfv1alpha1.AnnotationKnownAnswerDelay: "3ms"}
			return r
		}(),
		ev: Evidence{Load: Load{Terminated: completed, Summary: twoPaths()}, History: &History{Schedule: "nightly", Reference: 9, Need: 5}},
		check: func(t *testing.T, a Assessment) {
			c := conditionIn(a, perfv1alpha1.ConditionRegressed)
			if c == nil || c.Reason != perfv1alpha1.ReasonKnownAnswer || !strings.Contains(c.Message, "held 3ms on purpose") {
				t.Errorf("Regressed %+v", c)
			}
			if a.Result == nil || a.Result.KnownAnswerDelay == nil || a.Result.KnownAnswerDelay.Duration != 3*time.Millisecond ||
				!strings.Contains(a.Verdict.Message, "a known answer, not Dapr's cost") {
				t.Errorf("the hold is not in the result or its message: %+v, %q", a.Result, a.Verdict.Message)
			}
		},
		reason: perfv1alpha1.ReasonSucceeded,
	}, {
		name: "a scheduled run without enough history",
		run:  newRun(),
		ev:   Evidence{Load: Load{Terminated: completed, Summary: twoPaths()}, History: &History{Schedule: "nightly", AcceptedBaseline: "nightly-3", Reference: 2, Need: 5}},
		check: func(t *testing.T, a Assessment) {
			c := conditionIn(a, perfv1alpha1.ConditionRegressed)
			if c == nil || c.Reason != perfv1alpha1.ReasonNoReference || !strings.Contains(c.Message, "2 earlier successful") {
				t.Errorf("Regressed %+v", c)
			}
			if a.RegressionBaseline == nil || *a.RegressionBaseline != "nightly-3" {
				t.Errorf("regression baseline %v", a.RegressionBaseline)
			}
		},
		reason: perfv1alpha1.ReasonSucceeded,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]perfv1alpha1.Disturbance(nil), tc.ev.Disturbances...)
			a := Evaluate(tc.run, tc.ev)
			if a.Verdict.Failed != tc.failed || a.Verdict.Reason != tc.reason {
				t.Fatalf("verdict %+v, want failed=%v %s", a.Verdict, tc.failed, tc.reason)
			}
			for i := range before {
				if tc.ev.Disturbances[i].Phase != "" {
					t.Errorf("Evaluate changed its evidence: %+v", tc.ev.Disturbances[i])
				}
			}
			tc.check(t, a)
		})
	}
}

// A thresholds-only edit is judged again on the stored result: its saturation and
// disturbances stand, the thresholds are new.
func TestRejudgeJudgesTheStoredResultAgainstNewThresholds(t *testing.T) {
	run := newRun(func(s *perfv1alpha1.PerfRunSpec) {
		s.Thresholds = &perfv1alpha1.Thresholds{MaxP90: &metav1.Duration{Duration: time.Millisecond}, FailRun: true}
	})
	res := Evaluate(newRun(), Evidence{Load: Load{Terminated: &corev1.ContainerStateTerminated{}, Summary: twoPaths()}}).Result
	run.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionDisturbed, Status: metav1.ConditionTrue, Message: "target restarted", ObservedGeneration: 2}}
	a := Rejudge(run, res)
	if !a.Verdict.Failed || a.Verdict.Reason != perfv1alpha1.ReasonThresholdsViolated || !strings.HasSuffix(a.Verdict.Message, "; target restarted") {
		t.Errorf("verdict %+v: violated against the new gate, the disturbance still said", a.Verdict)
	}
	if c := conditionIn(a, perfv1alpha1.ConditionThresholdsMet); c == nil || c.Status != metav1.ConditionFalse {
		t.Errorf("ThresholdsMet %+v", c)
	}
}

// A later variant's thresholds are judged with spec.thresholds into ThresholdsMet, even when
// spec.thresholds sets none, and a violation names the variant and its figure.
func TestAVariantsThresholdsAreJudgedIntoThresholdsMet(t *testing.T) {
	run := newRun(func(s *perfv1alpha1.PerfRunSpec) {
		s.Variants = []perfv1alpha1.SidecarVariant{{Name: "base"}, {Name: "fast", Thresholds: &perfv1alpha1.VariantThresholds{
			MaxSlowdownP90: &metav1.Duration{Duration: 200 * time.Microsecond}}}}
	})
	us := func(v int64) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(v) * time.Microsecond} }
	res := &perfv1alpha1.Result{Variants: []perfv1alpha1.VariantResult{{Name: "base"}, {Name: "fast",
		Difference: &perfv1alpha1.LatencySummary{P90: us(310)},
		DifferenceInterval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low: perfv1alpha1.LatencySummary{P90: us(250)}, High: perfv1alpha1.LatencySummary{P90: us(370)}}}}}
	a := Rejudge(run, res)
	c := conditionIn(a, perfv1alpha1.ConditionThresholdsMet)
	if c == nil || c.Status != metav1.ConditionFalse || c.Reason != perfv1alpha1.ReasonThresholdsViolated ||
		c.Message != "variant fast p90 slowdown 310µs (95% interval 250µs..370µs) (limit <= 200µs): VIOLATED" {
		t.Fatalf("ThresholdsMet %+v", c)
	}
	if a.Verdict.Failed {
		t.Errorf("verdict %+v: without spec.thresholds.failRun a violation does not fail the run", a.Verdict)
	}
	run.Spec.Thresholds = &perfv1alpha1.Thresholds{FailRun: true}
	if a := Rejudge(run, res); !a.Verdict.Failed || a.Verdict.Reason != perfv1alpha1.ReasonThresholdsViolated ||
		!strings.Contains(a.Verdict.Message, "variant fast p90 slowdown 310µs") {
		t.Errorf("verdict %+v: failRun fails the run for a variant's violation", a.Verdict)
	}
}

// Two sidecar variants measured in turn, the second's target throttled in its own runs: its
// figures are its own runs' (not the first's, where it idles), and CPULimitBound finds it.
// Judged over the first variant's runs only, as before, it read idle and not bound.
func TestEvaluateJudgesEachVariantsTargetOverItsOwnRuns(t *testing.T) {
	run := newRun(func(s *perfv1alpha1.PerfRunSpec) {
		s.Variants = []perfv1alpha1.SidecarVariant{{Name: "roomy"}, {Name: "tight"}}
	})
	sum := twoPaths()
	d1 := result.DaprVariant(1)
	sum.Runs = append(sum.Runs, result.Run{Variant: d1, StartUnix: start.Unix() + 80, Seconds: 30, ActualQPS: 1000, Requests: 30_000,
		Scheduled: 30_000, TesterLagP99Us: 100, Percentiles: []result.Percentile{{P: 50, Us: 900}, {P: 90, Us: 1800}, {P: 99, Us: 3600}}})
	sum.Merged = append(sum.Merged, result.Merged{Variant: d1, Percentiles: []result.Percentile{{P: 50, Us: 900}, {P: 90, Us: 1800}, {P: 99, Us: 3600}}})
	// Each target busy in its own variant's runs (d 40–70 s, d1 80–110 s), idle otherwise;
	// the first's unthrottled, the second's throttled in 60% of its periods; the load
	// tester's sidecar, which both share, throttled in the second's runs only.
	live := &perfv1alpha1.LiveUsage{}
	for _, target := range []struct {
		role       string
		from, to   int
		cpu, share float64
	}{{"serverSidecar@d", 40, 70, 300, 0}, {"serverSidecar@d1", 80, 110, 480, 0.6}, {"clientSidecar", 80, 110, 450, 0.3}} {
		var cpu, periods, stalled float64
		for at := 0; at <= 120; at += 5 {
			live.Counters = append(live.Counters, perfv1alpha1.CounterSample{Role: target.role, At: metav1.NewMicroTime(start.Add(time.Duration(at) * time.Second)),
				CPUMillis: int64(cpu), Periods: int64(periods), ThrottledPeriods: int64(stalled), ThrottledMillis: int64(stalled * 50)})
			rate, share := 2.0, 0.0
			if at >= target.from && at < target.to {
				rate, share = target.cpu, target.share
			}
			cpu, periods, stalled = cpu+5*rate, periods+50, stalled+50*share
		}
	}
	a := Evaluate(run, Evidence{Load: Load{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}, Summary: sum}, Live: live, CountersSource: "fake"})
	if a.Result == nil || a.Result.CPU == nil {
		t.Fatalf("result %+v: with CPU accounting", a.Result)
	}
	for _, c := range a.Result.CPU.Measured {
		if c.Role == "serverSidecar@d1" {
			t.Errorf("the second variant's idle target among the first's figures: %+v", c)
		}
	}
	v := a.Result.CPU.Variants
	if len(v) != 1 || v[0].Name != "tight" || len(v[0].Measured) != 2 {
		t.Fatalf("variants' CPU %+v, want tight's target and the shared sidecar over its own runs", v)
	}
	if c := v[0].Measured[0]; c.Role != "clientSidecar@d1" || c.CPU.MilliValue() != 450 || c.ThrottledPeriodsPercent != "30.0" {
		t.Errorf("the shared sidecar over tight's runs: %+v, want clientSidecar@d1 at 450m, 30%% throttled", c)
	}
	if c := v[0].Measured[1]; c.Role != "serverSidecar@d1" || c.CPU.MilliValue() != 480 || c.ThrottledPeriodsPercent != "60.0" {
		t.Errorf("tight's target: %+v, want serverSidecar@d1 at 480m, 60%% throttled", c)
	}
	c := conditionIn(a, perfv1alpha1.ConditionCPULimitBound)
	if c == nil || c.Status != metav1.ConditionTrue || !strings.Contains(c.Message, "serverSidecar@d1 60.0%") || !strings.Contains(c.Message, "clientSidecar@d1 30.0%") {
		t.Errorf("CPULimitBound %+v, want True naming the second variant's target and the shared sidecar in its runs", c)
	}
	// limitBound qualifies added, the first variant's, which no limit bound.
	if a.Result.LimitBound {
		t.Errorf("the result is marked limit-bound by another variant's limit")
	}
}
