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
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// The HTML report's latency tables: every figure of a path, its interval beneath it.

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

// intervalDetail writes each figure's interval: "95%: low – high", ≈ for an approximate one.
func intervalDetail(in *perfv1alpha1.LatencyInterval) func(perfv1alpha1.LatencyFigure) string {
	return intervalDetailWithLow(in, textfmt.Dur)
}

// latencyIntervalDetail is intervalDetail for a latency, added or a path's own (a delivery,
// a completion), whose low end below zero says only that the run does not resolve the figure
// (perfv1alpha1.UnresolvedLow; intervalNotes says so), not a negative number of
// milliseconds. A difference, which can be negative (between variants, an attribution's
// part), keeps its sign: it uses intervalDetail.
func latencyIntervalDetail(in *perfv1alpha1.LatencyInterval) func(perfv1alpha1.LatencyFigure) string {
	return intervalDetailWithLow(in, func(d *metav1.Duration) string { return perfv1alpha1.LowEnd(d, textfmt.Dur) })
}

func intervalDetailWithLow(in *perfv1alpha1.LatencyInterval, low func(*metav1.Duration) string) func(perfv1alpha1.LatencyFigure) string {
	if in == nil {
		return nil
	}
	return func(f perfv1alpha1.LatencyFigure) string {
		lo, hi := f.Of(&in.Low), f.Of(&in.High)
		if lo == nil || hi == nil {
			return ""
		}
		mark := ""
		if slices.Contains(in.Approximate, f.Name) {
			mark = "≈"
		}
		return fmt.Sprintf("%s%d%%: %s – %s", mark, in.ConfidencePercent, low(lo), textfmt.Dur(hi))
	}
}
