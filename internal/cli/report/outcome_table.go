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
	"fmt"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// An asynchronous scenario's own outcome (PubSub's delivery, Workflow's completion,
// Scheduler's trigger lateness) is shown by one table in text and one section in HTML, both
// read from the result's outcome view: a new kind of outcome needs nothing here unless it
// counts more than the view holds (outcomeCountsOf).

// latencyRow is one latency of an outcome's table, with its interval when it has one.
type latencyRow struct {
	name string
	l    *perfv1alpha1.LatencySummary
	in   *perfv1alpha1.LatencyInterval
}

// outcomeRows are the outcome's latencies: through Dapr, the baseline and what Dapr adds
// (baseline names the baseline path), then the figure shown beside them.
func outcomeRows(o *perfv1alpha1.Outcome, baseline, added string) []latencyRow {
	rows := []latencyRow{{"dapr", o.Latency, o.LatencyInterval}}
	if o.Kind.HasBaseline {
		rows = append(rows, latencyRow{baseline, o.Baseline, nil}, latencyRow{added, o.Added, o.AddedInterval})
	}
	if o.Kind.BesideName != "" {
		rows = append(rows, latencyRow{o.Kind.BesideName, o.Beside, nil})
	}
	return rows
}

// outcomeInterval is the interval the outcome's note speaks of: through Dapr's, else the
// added latency's.
func outcomeInterval(o *perfv1alpha1.Outcome) *perfv1alpha1.LatencyInterval {
	if o.LatencyInterval != nil {
		return o.LatencyInterval
	}
	return o.AddedInterval
}

// outcomeCounts are the outcome's counts as a header and rows: by the kind's own table
// (outcomeCountsOf), or else the view's one row (sent, done, then each fault), none when the
// view holds no counts.
func outcomeCounts(res *perfv1alpha1.Result, o *perfv1alpha1.Outcome) (header []string, rows [][]string) {
	if of := outcomeCountsOf[o.Kind.Figure]; of != nil {
		return of(res)
	}
	if o.Counts == nil {
		return nil, nil
	}
	header = []string{o.Kind.SentWord, o.Kind.DoneWord}
	row := []string{fmt.Sprint(o.Counts.Sent), fmt.Sprint(o.Counts.Done)}
	for i, f := range o.Kind.FaultNames {
		header = append(header, f.Name)
		row = append(row, fmt.Sprint(o.Counts.Faults[i]))
	}
	return header, [][]string{row}
}

// outcomeCountsOf holds the kinds that count more than the view does, with their own table:
// PubSub's messages per path, late and duplicated among them.
var outcomeCountsOf = map[perfv1alpha1.OutcomeFigure]func(*perfv1alpha1.Result) (header []string, rows [][]string){
	perfv1alpha1.OutcomeDelivery: messageCounts,
}

// outcomeTable renders the run's own outcome: what its latency times, the latency (each
// row's interval beneath it), a note on the interval, and its counts; empty for a scenario
// without one.
func outcomeTable(res *perfv1alpha1.Result) string {
	o := res.Outcome()
	if o == nil {
		return ""
	}
	k := o.Kind
	var b strings.Builder
	b.WriteString("\n" + k.Report.Times + "\n")
	t, row := latencyTable()
	for _, r := range outcomeRows(o, "baseline", "added") {
		row(r.name, r.l)
		intervalRows(t, r.in)
	}
	b.WriteString(t.String())
	b.WriteString(intervalNote(k.Report.Whose, outcomeInterval(o)))
	if header, rows := outcomeCounts(res, o); header != nil {
		c := &textfmt.Table{}
		c.Add(upper(header)...)
		for _, r := range rows {
			c.Add(r...)
		}
		b.WriteString(c.String())
	}
	if k.HasBaseline && o.Added == nil && o.Latency != nil && o.Baseline != nil {
		fmt.Fprintf(&b, "no added %s latency is claimed: %s were %s, or the run's added latency is not claimed\n", k.Name, k.Items, k.MissingName())
	}
	return b.String()
}

func upper(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.ToUpper(w)
	}
	return out
}
