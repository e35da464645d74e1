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

package compare

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// flatLatency is v at every headline percentile.
func flatLatency(v time.Duration) *perfv1alpha1.LatencySummary {
	d := &metav1.Duration{Duration: v}
	return &perfv1alpha1.LatencySummary{P50: d, P90: d, P99: d}
}

// flatInterval is v ± half at every headline percentile.
func flatInterval(v, half time.Duration) *perfv1alpha1.LatencyInterval {
	return &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
		Low: *flatLatency(v - half), High: *flatLatency(v + half)}
}

func differenceOf(t *testing.T, diffs []Difference, figure string) Difference {
	t.Helper()
	i := slices.IndexFunc(diffs, func(d Difference) bool { return d.Figure == figure })
	if i < 0 {
		t.Fatalf("no %q in %+v", figure, diffs)
	}
	return diffs[i]
}

// A Workflow run has no baseline: its completion is gated as a run's measured latency is
// without one, its interval over the repetitions widened to cover a rerun as the added
// latency's is; its activity dispatch (no interval) and its failed and unfinished instances
// are shown beside it.
func TestCompareWorkflowResultsGatesTheCompletion(t *testing.T) {
	workflow := func(completion time.Duration, failed int64) *perfv1alpha1.Result {
		return &perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
			Latency: flatLatency(completion), LatencyInterval: flatInterval(completion, ms(1)), ActivityDispatch: flatLatency(ms(4)),
			Workflows: &perfv1alpha1.WorkflowCounts{Started: 600, Completed: 600 - failed, Failed: failed}}}
	}
	diffs := Compare(workflow(ms(100), 0), workflow(ms(105), 2), nil, RerunSpread{})
	if d := differenceOf(t, diffs, "completion p90"); d.Verdict != VerdictSlower || d.Gate != GateSlower || d.Interval == "" {
		t.Errorf("completion p90 on each run's own interval: %+v, want slower, gated slower", d)
	}
	if got := Outcome(diffs, false).Code; got != verdict.ExitRegressed {
		t.Errorf("exit %d, want %d: a slower completion is a regression", got, verdict.ExitRegressed)
	}
	if d := differenceOf(t, diffs, "activity dispatch p50"); d.Verdict != "-" || d.Gate != "" || d.Interval != "" {
		t.Errorf("activity dispatch p50: %+v, want shown without an interval, verdict or gate", d)
	}
	if d := differenceOf(t, diffs, "workflows failed"); d.A != "0" || d.B != "2" || d.Change != "+2" {
		t.Errorf("workflows failed: %+v", d)
	}
	differenceOf(t, diffs, "workflows unfinished")
	// 5% apart, each ±1%: a 3% rerun spread covers that.
	if d := differenceOf(t, Compare(workflow(ms(100), 0), workflow(ms(105), 0), nil, KnownRerunSpread(0.03)), "completion p90"); d.Verdict != VerdictNoDifference {
		t.Errorf("completion p90 covering a rerun: %+v, want no difference shown", d)
	}
	// A result from before the interval: compared, not judged.
	old := workflow(ms(100), 0)
	old.Completion.LatencyInterval = nil
	if d := differenceOf(t, Compare(old, workflow(ms(150), 0), nil, RerunSpread{}), "completion p90"); d.Verdict != VerdictNoInterval || d.Gate != GateInconclusive {
		t.Errorf("completion p90 without A's interval: %+v, want no interval, gate inconclusive", d)
	}
	if len(Compare(&perfv1alpha1.Result{}, workflow(ms(100), 0), nil, RerunSpread{})) != 0 {
		t.Error("a side without completion compared completion figures")
	}
}

// A Scheduler run's trigger lateness is gated as a Workflow run's completion is, with its
// missed and doubled triggers beside it.
func TestCompareSchedulerResultsGatesTheLateness(t *testing.T) {
	scheduler := func(lateness time.Duration, missed int64) *perfv1alpha1.Result {
		return &perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
			Lateness: flatLatency(lateness), LatenessInterval: flatInterval(lateness, ms(0.5)),
			Counts: &perfv1alpha1.TriggerCounts{Registered: 300, Triggered: 300 - missed, Missed: missed}}}
	}
	diffs := Compare(scheduler(ms(20), 1), scheduler(ms(12), 0), nil, RerunSpread{})
	if d := differenceOf(t, diffs, "trigger lateness p99"); d.Verdict != VerdictFaster || d.Gate != GatePassed {
		t.Errorf("trigger lateness p99: %+v, want faster, gate passed", d)
	}
	if d := differenceOf(t, diffs, "triggers missed"); d.Change != "-1" {
		t.Errorf("triggers missed: %+v", d)
	}
	differenceOf(t, diffs, "triggers doubled")
}

// A PubSub run's delivery through Dapr is judged on its own interval now that it has one;
// Dapr's added delivery latency stays the gated figure.
func TestComparePubSubJudgesTheDeliveryOnItsInterval(t *testing.T) {
	pubsub := func(delivery time.Duration) *perfv1alpha1.Result {
		return &perfv1alpha1.Result{Delivery: &perfv1alpha1.DeliveryResult{
			Latency: flatLatency(delivery), LatencyInterval: flatInterval(delivery, ms(0.1)),
			Added: flatLatency(delivery - ms(1)), AddedInterval: flatInterval(delivery-ms(1), ms(0.1))}}
	}
	diffs := Compare(pubsub(ms(3)), pubsub(ms(4)), nil, RerunSpread{})
	if d := differenceOf(t, diffs, "delivery p90"); d.Verdict != VerdictSlower || d.Gate != "" {
		t.Errorf("delivery p90: %+v, want slower, not gated (its added figure is)", d)
	}
	if d := differenceOf(t, diffs, "delivery added p90"); d.Gate != GateSlower {
		t.Errorf("delivery added p90: %+v, want gated slower", d)
	}
}

// Two ActorActivation runs on different actor hosts differ in a setting; a result from
// before the result document's result.actorHost ran on the minimal host.
func TestCompareNamesADifferentActorHost(t *testing.T) {
	actors := func(host perfv1alpha1.ActorHost) perfv1alpha1.ResultDocument {
		return perfv1alpha1.ResultDocument{Scenario: perfv1alpha1.ScenarioActorActivation, Result: &perfv1alpha1.Result{ActorHost: host}}
	}
	if got := SettingsDiffer(actors(perfv1alpha1.ActorHostMinimal), actors(perfv1alpha1.ActorHostGoSDK)); !slices.Contains(got, "actorHost: Minimal → GoSDK") {
		t.Errorf("settings differ: %q, want the actor host", got)
	}
	if got := SettingsDiffer(actors(""), actors(perfv1alpha1.ActorHostMinimal)); len(got) != 0 {
		t.Errorf("an older result against a Minimal one: %q, want no difference", got)
	}
	invocation := perfv1alpha1.ResultDocument{Scenario: perfv1alpha1.ScenarioServiceInvocation, Result: &perfv1alpha1.Result{}}
	if got := SettingsDiffer(invocation, invocation); len(got) != 0 {
		t.Errorf("two invocation runs: %q", got)
	}
}

// A run held on purpose (the known-answer annotation) differs in a setting from one that was
// not: compare never reads the hold as Dapr's change (issue #62 item 1).
func TestCompareNamesAKnownAnswerHold(t *testing.T) {
	run := func(hold time.Duration) perfv1alpha1.ResultDocument {
		res := &perfv1alpha1.Result{}
		if hold > 0 {
			res.KnownAnswerDelay = &metav1.Duration{Duration: hold}
		}
		return perfv1alpha1.ResultDocument{Scenario: perfv1alpha1.ScenarioServiceInvocation, Result: res}
	}
	if got := SettingsDiffer(run(0), run(3*time.Millisecond)); !slices.Contains(got, "knownAnswerDelay: none → 3ms") {
		t.Errorf("settings differ: %q, want the hold named", got)
	}
}
