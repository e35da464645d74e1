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
	var b strings.Builder
	b.WriteString("\ncompletion: from each instance's scheduled start to daprd reporting it complete, on the load tester's one clock (no baseline: a workflow needs Dapr)\n")
	lat, row := latencyTable()
	row("dapr", c.Latency)
	b.WriteString(lat.String())
	if n := c.Workflows; n != nil {
		t := &table{}
		t.add("STARTED", "COMPLETED", "FAILED", "UNFINISHED")
		t.add(fmt.Sprint(n.Started), fmt.Sprint(n.Completed), fmt.Sprint(n.Failed), fmt.Sprint(n.Unfinished))
		b.WriteString(t.String())
	}
	return b.String()
}

// triggerTable renders a Scheduler run's trigger lateness and its registrations; empty for
// other scenarios.
func triggerTable(res *perfv1alpha1.Result) string {
	tr := res.Triggers
	if tr == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\ntrigger lateness: each trigger's receipt minus its registration's slot plus its due time, on the load tester's one clock\n")
	lat, row := latencyTable()
	row("dapr", tr.Lateness)
	b.WriteString(lat.String())
	if n := tr.Counts; n != nil {
		t := &table{}
		t.add("REGISTERED", "TRIGGERED", "MISSED", "DOUBLED")
		t.add(fmt.Sprint(n.Registered), fmt.Sprint(n.Triggered), fmt.Sprint(n.Missed), fmt.Sprint(n.Doubled))
		b.WriteString(t.String())
	}
	return b.String()
}
