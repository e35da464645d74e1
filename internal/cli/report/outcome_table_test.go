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
	"slices"
	"strings"
	"testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// A Workflow run's report shows its completion latency and instances, a Scheduler run's its
// trigger lateness and registrations; other runs show neither.
func TestWorkflowAndSchedulerReportsShowTheirOwnFigures(t *testing.T) {
	wf := &perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
		Latency:   &perfv1alpha1.LatencySummary{P50: clitest.Ms(57.8), P99: clitest.Ms(96.8)},
		Workflows: &perfv1alpha1.WorkflowCounts{Started: 200, Completed: 197, Failed: 1, Unfinished: 2},
	}}
	sched := &perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
		Lateness: &perfv1alpha1.LatencySummary{P50: clitest.Ms(12)},
		Counts:   &perfv1alpha1.TriggerCounts{Registered: 300, Triggered: 299, Missed: 1, Doubled: 4},
	}}
	for _, c := range []struct {
		out  string
		want []string
	}{
		{outcomeTable(wf), []string{"completion: from each instance's scheduled start", "dapr   57.8ms", "200       197         1        2"}},
		{outcomeTable(sched), []string{"trigger lateness: each trigger's receipt", "dapr   12ms", "300          299         1        4"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("the table lacks %q:\n%s", w, c.out)
			}
		}
	}
	if outcomeTable(&perfv1alpha1.Result{}) != "" || strings.Contains(outcomeTable(wf), "trigger lateness") || strings.Contains(outcomeTable(wf), "REGISTERED") {
		t.Error("a run without the figures shows their table")
	}
}

// The completion and the lateness carry their intervals over the repetitions, beneath them
// and said what they hold; a Workflow run's activity dispatch is a row of its own.
func TestWorkflowAndSchedulerTablesShowTheirIntervalsAndActivityDispatch(t *testing.T) {
	in := func(lo, hi float64) *perfv1alpha1.LatencyInterval {
		return &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low: perfv1alpha1.LatencySummary{P50: clitest.Ms(lo)}, High: perfv1alpha1.LatencySummary{P50: clitest.Ms(hi)}}
	}
	wf := &perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
		Latency: &perfv1alpha1.LatencySummary{P50: clitest.Ms(57.8)}, LatencyInterval: in(55, 61),
		ActivityDispatch: &perfv1alpha1.LatencySummary{P50: clitest.Ms(4.2)}}}
	sched := &perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
		Lateness: &perfv1alpha1.LatencySummary{P50: clitest.Ms(12)}, LatenessInterval: in(11, 13.5)}}
	for _, c := range []struct {
		out  string
		want []string
	}{
		{outcomeTable(wf), []string{"  95% low           55ms", "  95% high          61ms", "activity dispatch   4.2ms",
			"the completion's interval holds across the 3 repetitions' spread"}},
		{outcomeTable(sched), []string{"  95% low    11ms", "  95% high   13.5ms", "the lateness's interval holds across the 3 repetitions' spread"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("the table lacks %q:\n%s", w, c.out)
			}
		}
	}
}

// report.html gets a Completion section for a Workflow run and a Triggers section for a
// Scheduler run: the latency with its interval beneath each figure, activity dispatch, and
// the counts; neither for another run.
func TestReportHTMLHasCompletionAndTriggersSections(t *testing.T) {
	in := &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalWithinRunOnly, Repetitions: 1,
		Low: perfv1alpha1.LatencySummary{P50: clitest.Ms(55)}, High: perfv1alpha1.LatencySummary{P50: clitest.Ms(61)}}
	wf := outcomeSection(&perfv1alpha1.Result{Completion: &perfv1alpha1.CompletionResult{
		Latency: &perfv1alpha1.LatencySummary{P50: clitest.Ms(57.8)}, LatencyInterval: in,
		ActivityDispatch: &perfv1alpha1.LatencySummary{P50: clitest.Ms(4.2)},
		Workflows:        &perfv1alpha1.WorkflowCounts{Started: 200, Completed: 197, Failed: 1, Unfinished: 2}}})
	if len(wf.Tables) != 2 || wf.Tables[0].ID != "completion-figures" || len(wf.Tables[0].Rows) != 2 || wf.Tables[1].ID != "completion-counts" {
		t.Fatalf("completion section %+v: want the figures (completion, activity dispatch) and the instances", wf)
	}
	if got := wf.Tables[0].Rows[0][1]; got.Text != "57.8ms" || got.Detail != "95%: 55ms – 61ms" {
		t.Errorf("completion p50 cell %+v, want its interval beneath it", got)
	}
	if got := wf.Tables[0].Rows[1][0].Text; got != "activity dispatch" {
		t.Errorf("second row %q, want activity dispatch", got)
	}
	if got := wf.Tables[1].Rows[0]; got[2].Text != "1" || got[3].Text != "2" {
		t.Errorf("instances %+v", got)
	}
	if !slices.ContainsFunc(wf.Notes, func(n string) bool { return strings.Contains(n, "The completion's 95% interval is within-run only") }) {
		t.Errorf("notes %q lack the interval's basis", wf.Notes)
	}
	tr := outcomeSection(&perfv1alpha1.Result{Triggers: &perfv1alpha1.TriggerResult{
		Lateness: &perfv1alpha1.LatencySummary{P50: clitest.Ms(12)}, LatenessInterval: in,
		Counts: &perfv1alpha1.TriggerCounts{Registered: 300, Triggered: 299, Missed: 1, Doubled: 4}}})
	if len(tr.Tables) != 2 || tr.Tables[0].ID != "triggers-figures" || tr.Tables[0].Rows[0][1].Detail == "" || tr.Tables[1].Rows[0][3].Text != "4" {
		t.Errorf("triggers section %+v: want the lateness with its interval and the registrations", tr)
	}
	if s := outcomeSection(&perfv1alpha1.Result{}); len(s.Tables)+len(s.Notes) != 0 {
		t.Errorf("a run without an outcome gets a section %+v", s)
	}
}
