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
)

// completionTable renders a Workflow run's completion latency with its interval, its
// activities' dispatch and its instances; empty for other scenarios.
func completionTable(res *perfv1alpha1.Result) string {
	c := res.Completion
	if c == nil {
		return ""
	}
	var counts []int64
	if n := c.Workflows; n != nil {
		counts = []int64{n.Started, n.Completed, n.Failed, n.Unfinished}
	}
	return outcomeTable("completion: from each instance's scheduled start to daprd reporting it complete, on the load tester's one clock (no baseline: a workflow needs Dapr)",
		"the completion's", completionRows(c), []string{"STARTED", "COMPLETED", "FAILED", "UNFINISHED"}, counts)
}

// triggerTable renders a Scheduler run's trigger lateness with its interval and its
// registrations; empty for other scenarios.
func triggerTable(res *perfv1alpha1.Result) string {
	tr := res.Triggers
	if tr == nil {
		return ""
	}
	var counts []int64
	if n := tr.Counts; n != nil {
		counts = []int64{n.Registered, n.Triggered, n.Missed, n.Doubled}
	}
	return outcomeTable("trigger lateness: each trigger's receipt minus its registration's slot plus its due time, on the load tester's one clock",
		"the lateness's", []latencyRow{{"dapr", tr.Lateness, tr.LatenessInterval}}, []string{"REGISTERED", "TRIGGERED", "MISSED", "DOUBLED"}, counts)
}

// latencyRow is one latency of a scenario's own table, with its interval when it has one.
type latencyRow struct {
	name string
	l    *perfv1alpha1.LatencySummary
	in   *perfv1alpha1.LatencyInterval
}

// completionRows are a Workflow run's completion and, beneath it, how long the engine took
// to hand each activity to the worker (no interval: one histogram over the repetitions).
func completionRows(c *perfv1alpha1.CompletionResult) []latencyRow {
	return []latencyRow{{"dapr", c.Latency, c.LatencyInterval}, {"activity dispatch", c.ActivityDispatch, nil}}
}

// outcomeTable is an asynchronous outcome's latency (the Dapr path's: it has no baseline),
// each row's interval beneath it, under its title; a note on the first row's interval (whose
// it is); and its counts under their names (none: no counts).
func outcomeTable(title, whose string, rows []latencyRow, names []string, counts []int64) string {
	var b strings.Builder
	b.WriteString("\n" + title + "\n")
	t, row := latencyTable()
	for _, r := range rows {
		row(r.name, r.l)
		intervalRows(row, r.in)
	}
	b.WriteString(t.String())
	b.WriteString(intervalNote(whose, rows[0].in))
	if counts != nil {
		c := &table{}
		c.add(names...)
		values := make([]string, len(counts))
		for i, n := range counts {
			values[i] = fmt.Sprint(n)
		}
		c.add(values...)
		b.WriteString(c.String())
	}
	return b.String()
}
