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

// The HTML report's sections of an asynchronous scenario's own figures: PubSub's delivery,
// Workflow's completion, Scheduler's trigger lateness. Each is empty (and left out) for a run
// of another scenario.

// deliverySection is a PubSub run's delivery latency and messages.
func deliverySection(res *perfv1alpha1.Result) htmlSection {
	sec := htmlSection{ID: "delivery", Title: "Delivery"}
	d := res.Delivery
	if d == nil {
		return sec
	}
	sec.Notes = append(sec.Notes, "Each message timed from the slot its publish was due in to the subscriber's handler, on the load tester's one clock "+
		"(publisher and subscriber are one process). The latency table above is the publish call's own.")
	sec.table(latencyFiguresTable("delivery-figures", []latencyRow{{"dapr", d.Latency, d.LatencyInterval},
		{"baseline (the broker's own client)", d.Baseline, nil}, {"added by Dapr", d.Added, d.AddedInterval}}))
	in := d.LatencyInterval
	if in == nil {
		in = d.AddedInterval
	}
	sec.Notes = append(sec.Notes, intervalNotes("Each delivery", in)...)
	msgs := htmlTable{ID: "messages", Caption: "Messages over the measured phases", Header: messageHeader}
	for _, p := range messagePaths(d) {
		msgs.addText(messageRow(p.name, p.n)...)
	}
	sec.table(msgs)
	return sec
}

// completionSection is a Workflow run's completion latency, its activities' dispatch and its
// instances.
func completionSection(res *perfv1alpha1.Result) htmlSection {
	o, ok := completionOutcome(res)
	if !ok {
		return htmlSection{ID: "completion", Title: "Completion"}
	}
	return o.section()
}

// triggersSection is a Scheduler run's trigger lateness and its registrations.
func triggersSection(res *perfv1alpha1.Result) htmlSection {
	o, ok := triggersOutcome(res)
	if !ok {
		return htmlSection{ID: "triggers", Title: "Triggers"}
	}
	return o.section()
}

// section is the outcome as a section of the HTML report: what it times, its latency with
// each row's interval beneath its figures and said what it holds, and its counts.
func (o outcome) section() htmlSection {
	sec := htmlSection{ID: o.id, Title: o.title, Notes: []string{o.note}}
	sec.table(latencyFiguresTable(o.id+"-figures", o.rows))
	sec.Notes = append(sec.Notes, intervalNotes("The "+o.whose, o.rows[0].in)...)
	if o.counts != nil {
		counts := htmlTable{ID: o.id + "-counts", Caption: o.caption}
		var cells []string
		for i, n := range o.counts {
			counts.Header = append(counts.Header, strings.ToUpper(o.names[i][:1])+strings.ToLower(o.names[i][1:]))
			cells = append(cells, fmt.Sprint(n))
		}
		counts.addText(cells...)
		sec.table(counts)
	}
	return sec
}

// latencyFiguresTable is latency rows with every figure, each row's interval beneath its
// figures (a low end below zero as perfv1alpha1.UnresolvedLow, as the text tables write it).
func latencyFiguresTable(id string, rows []latencyRow) htmlTable {
	t := htmlTable{ID: id, Header: []string{"Path"}}
	for _, f := range perfv1alpha1.LatencyFigures {
		t.Header = append(t.Header, f.Name)
	}
	for _, r := range rows {
		if r.l == nil {
			continue
		}
		detail := latencyIntervalDetail(r.in)
		cells := []htmlCell{{Text: r.name}}
		for _, f := range perfv1alpha1.LatencyFigures {
			c := htmlCell{Text: textfmt.Dur(f.Of(r.l))}
			if detail != nil && f.Of(r.l) != nil {
				c.Detail = detail(f)
			}
			cells = append(cells, c)
		}
		t.add(cells...)
	}
	return t
}

// intervalNotes say what the interval of a figure (whose: "The added latency's") holds and
// which of its figures are approximate; none without an interval.
func intervalNotes(whose string, in *perfv1alpha1.LatencyInterval) []string {
	if in == nil {
		return nil
	}
	var notes []string
	if in.Basis == perfv1alpha1.IntervalWithinRunOnly {
		notes = append(notes, fmt.Sprintf("%s %d%% interval is within-run only (one repetition): a rerun may differ by more.", whose, in.ConfidencePercent))
	} else {
		notes = append(notes, fmt.Sprintf("%s %d%% interval holds across the %d repetitions' spread: this run's, not a rerun's (reruns drift further).", whose, in.ConfidencePercent, in.Repetitions))
	}
	if len(in.Approximate) > 0 {
		notes = append(notes, fmt.Sprintf("Approximate (≈): the %s intervals; an episodic tail needs more repetitions than %d for its interval to hold at %d%%.",
			strings.Join(in.Approximate, ", "), in.Repetitions, in.ConfidencePercent))
	}
	if u := in.Unresolved(); len(u) > 0 {
		notes = append(notes, fmt.Sprintf("Unresolved: the %s intervals reach below zero, so this run does not tell whether anything is added there; more repetitions or a longer run narrow them.",
			strings.Join(u, ", ")))
	}
	return notes
}
