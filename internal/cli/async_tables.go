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

package cli

import (
	"fmt"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// outcome is an asynchronous scenario's own figures that have no baseline (a Workflow run's
// completion, a Scheduler run's trigger lateness), as the text and HTML reports show them.
type outcome struct {
	id, title string // the HTML section's
	// what says what the latency times: the text table's title and the HTML section's note.
	what, note string
	// whose interval the notes speak of: "completion's".
	whose string
	// rows are the latencies, the first one the outcome's own: its interval is the one noted.
	rows []latencyRow
	// names and counts of what was counted; nil counts: none.
	caption string
	names   []string
	counts  []int64
}

// latencyRow is one latency of a scenario's own table, with its interval when it has one.
type latencyRow struct {
	name string
	l    *perfv1alpha1.LatencySummary
	in   *perfv1alpha1.LatencyInterval
}

// completionOutcome is a Workflow run's completion, its activities' dispatch beneath it (no
// interval: one histogram over the repetitions) and its instances; ok is false for other
// scenarios.
func completionOutcome(res *perfv1alpha1.Result) (o outcome, ok bool) {
	c := res.Completion
	if c == nil {
		return outcome{}, false
	}
	o = outcome{id: "completion", title: "Completion",
		what: "completion: from each instance's scheduled start to daprd reporting it complete, on the load tester's one clock (no baseline: a workflow needs Dapr)",
		note: "Each instance timed from the slot its start was due in to daprd reporting it ended, on the load tester's one clock; " +
			"one not ended in time is in at the least it waited. The latency table above is the start call's own. " +
			"Activity dispatch: each activity of the completed instances, from its workflow scheduling it to the worker running it. " +
			"No baseline: a workflow needs Dapr; compare two runs for a change's cost.",
		whose:   "completion's",
		rows:    []latencyRow{{"dapr", c.Latency, c.LatencyInterval}, {"activity dispatch", c.ActivityDispatch, nil}},
		caption: "Instances started in the measured phases", names: []string{"STARTED", "COMPLETED", "FAILED", "UNFINISHED"}}
	if n := c.Workflows; n != nil {
		o.counts = []int64{n.Started, n.Completed, n.Failed, n.Unfinished}
	}
	return o, true
}

// triggersOutcome is a Scheduler run's trigger lateness and its registrations; ok is false
// for other scenarios.
func triggersOutcome(res *perfv1alpha1.Result) (o outcome, ok bool) {
	tr := res.Triggers
	if tr == nil {
		return outcome{}, false
	}
	o = outcome{id: "triggers", title: "Triggers",
		what: "trigger lateness: each trigger's receipt minus its registration's slot plus its due time, on the load tester's one clock",
		note: "Each trigger's lateness: its receipt by the load tester minus its registration's slot plus its due time, on the load tester's one clock " +
			"(daprd counts the due time from its own receipt, so the registration call's time is in it); a registration not triggered in time is in at the least it waited. " +
			"The latency table above is the registration call's own. No baseline: jobs, reminders and timers only exist behind a sidecar.",
		whose:   "lateness's",
		rows:    []latencyRow{{"dapr", tr.Lateness, tr.LatenessInterval}},
		caption: "Registrations of the measured phases", names: []string{"REGISTERED", "TRIGGERED", "MISSED", "DOUBLED"}}
	if n := tr.Counts; n != nil {
		o.counts = []int64{n.Registered, n.Triggered, n.Missed, n.Doubled}
	}
	return o, true
}

// completionTable renders a Workflow run's completion; empty for other scenarios.
func completionTable(res *perfv1alpha1.Result) string {
	o, ok := completionOutcome(res)
	if !ok {
		return ""
	}
	return o.text()
}

// triggerTable renders a Scheduler run's trigger lateness; empty for other scenarios.
func triggerTable(res *perfv1alpha1.Result) string {
	o, ok := triggersOutcome(res)
	if !ok {
		return ""
	}
	return o.text()
}

// text is the outcome's latency (the Dapr path's: it has no baseline), each row's interval
// beneath it, under its title; a note on the first row's interval; and its counts.
func (o outcome) text() string {
	var b strings.Builder
	b.WriteString("\n" + o.what + "\n")
	t, row := latencyTable()
	for _, r := range o.rows {
		row(r.name, r.l)
		intervalRows(t, r.in)
	}
	b.WriteString(t.String())
	b.WriteString(intervalNote("the "+o.whose, o.rows[0].in))
	if o.counts != nil {
		c := &textfmt.Table{}
		c.Add(o.names...)
		values := make([]string, len(o.counts))
		for i, n := range o.counts {
			values[i] = fmt.Sprint(n)
		}
		c.Add(values...)
		b.WriteString(c.String())
	}
	return b.String()
}
