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

// completionTable renders a Workflow run's completion latency and its instances; empty for
// other scenarios.
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
		c.Latency, []string{"STARTED", "COMPLETED", "FAILED", "UNFINISHED"}, counts)
}

// triggerTable renders a Scheduler run's trigger lateness and its registrations; empty for
// other scenarios.
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
		tr.Lateness, []string{"REGISTERED", "TRIGGERED", "MISSED", "DOUBLED"}, counts)
}

// outcomeTable is an asynchronous outcome's latency (the Dapr path's: it has no baseline)
// under its title, and its counts under their names (none: no counts).
func outcomeTable(title string, lat *perfv1alpha1.LatencySummary, names []string, counts []int64) string {
	var b strings.Builder
	b.WriteString("\n" + title + "\n")
	t, row := latencyTable()
	row("dapr", lat)
	b.WriteString(t.String())
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
