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
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
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
