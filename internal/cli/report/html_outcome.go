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

// outcomeSection is the run's own outcome as a section of the HTML report: what it times, its
// latency with each row's interval beneath its figures and said what it holds, and its
// counts; empty (and left out) for a scenario without one.
func outcomeSection(res *perfv1alpha1.Result) htmlSection {
	o := res.Outcome()
	if o == nil {
		return htmlSection{ID: "outcome"}
	}
	r := o.Kind.Report
	sec := htmlSection{ID: r.Section, Title: r.Title, Notes: []string{r.Note}}
	sec.table(latencyFiguresTable(r.Section+"-figures", outcomeRows(o, "baseline ("+r.BaselineName+")", "added by Dapr")))
	sec.Notes = append(sec.Notes, intervalNotes(capitalized(r.Whose), outcomeInterval(o))...)
	if header, rows := outcomeCounts(res, o); header != nil {
		counts := htmlTable{ID: r.Section + "-counts", Caption: r.CountsCaption}
		for _, h := range header {
			counts.Header = append(counts.Header, capitalized(h))
		}
		for _, row := range rows {
			counts.addText(row...)
		}
		sec.table(counts)
	}
	return sec
}

// capitalized is s with its first letter upper case.
func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
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
