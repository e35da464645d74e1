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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// attributionNote says how the parts of a four-path run's split are made.
const attributionNote = "client = client sidecar only − direct; server = server sidecar only − direct; " +
	"interaction = both − client only − server only + direct. Only the means add up to the added latency; " +
	"at a percentile, client and server are each one-sidecar path's latency over direct, and no interaction is claimed " +
	"(the percentiles of a sum of delays are not the sums of their percentiles)"

// attributionRow is one line of the split: a path's latency or a part of the added latency.
type attributionRow struct {
	name     string
	latency  *perfv1alpha1.LatencySummary
	interval *perfv1alpha1.LatencyInterval
}

// attributionRows lists the four paths, then the three parts.
func attributionRows(a *perfv1alpha1.Attribution) []attributionRow {
	var rows []attributionRow
	for _, p := range a.Paths {
		rows = append(rows, attributionRow{"path " + p.Path, p.Latency, p.Interval})
	}
	for _, part := range []struct {
		name string
		l    *perfv1alpha1.AttributedLatency
	}{{"client sidecar", a.ClientSidecar}, {"server sidecar", a.ServerSidecar}, {"interaction", a.Interaction}} {
		if part.l != nil {
			rows = append(rows, attributionRow{part.name, part.l.Latency, part.l.Interval})
		}
	}
	return rows
}

// withBounds is a figure and its interval, e.g. "310µs [250µs, 370µs]".
func withBounds(l *perfv1alpha1.LatencySummary, in *perfv1alpha1.LatencyInterval, f perfv1alpha1.LatencyFigure) string {
	if l == nil || f.Of(l) == nil {
		return "-"
	}
	s := textfmt.Dur(f.Of(l))
	if in != nil && f.Of(&in.Low) != nil && f.Of(&in.High) != nil {
		s += fmt.Sprintf(" [%s, %s]", textfmt.Dur(f.Of(&in.Low)), textfmt.Dur(f.Of(&in.High)))
	}
	return s
}

// attributionTable renders a four-path run's paths and the split of its added latency.
func attributionTable(res *perfv1alpha1.Result) string {
	if res.Attribution == nil {
		return ""
	}
	t := &textfmt.Table{}
	t.Add("PATH/PART", "MEAN [95%]", "P50 [95%]", "P90 [95%]", "P99 [95%]")
	for _, r := range attributionRows(res.Attribution) {
		t.Add(r.name, withBounds(r.latency, r.interval, perfv1alpha1.FigureAvg), withBounds(r.latency, r.interval, perfv1alpha1.FigureP50),
			withBounds(r.latency, r.interval, perfv1alpha1.FigureP90), withBounds(r.latency, r.interval, perfv1alpha1.FigureP99))
	}
	return "\nwhere the added latency goes (four paths)\n" + t.String() + attributionNote + "\n"
}

// attributionSection is the HTML report's table of the split.
func attributionSection(res *perfv1alpha1.Result) htmlSection {
	s := htmlSection{ID: "attribution", Title: "Where the added latency goes"}
	if res.Attribution == nil {
		return s
	}
	t := htmlTable{ID: "attribution-figures", Header: []string{"Path or part", "mean", "p50", "p90", "p99"}}
	for _, r := range attributionRows(res.Attribution) {
		cells := []htmlCell{{Text: r.name}}
		for _, f := range []perfv1alpha1.LatencyFigure{perfv1alpha1.FigureAvg, perfv1alpha1.FigureP50, perfv1alpha1.FigureP90, perfv1alpha1.FigureP99} {
			l := pickOrEmpty(r.latency)
			c := htmlCell{Text: textfmt.Dur(f.Of(&l))}
			if d := intervalDetail(r.interval); d != nil && f.Of(&l) != nil {
				c.Detail = d(f)
			}
			cells = append(cells, c)
		}
		t.add(cells...)
	}
	s.table(t)
	s.Notes = append(s.Notes, attributionNote+".")
	return s
}
