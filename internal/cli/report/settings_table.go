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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// settingRow is one point of a sweep of settings as the per-setting table shows it, for
// the terminal's table and the HTML report's.
type settingRow struct {
	Setting, At, Phase string
	// Note is a failed point's reason; Message its whole message.
	Note, Message string
	// Added are the added p50, p90 and p99, each with the ends of its 95% interval.
	Added []intervalFigure
	CPU   string
}

type intervalFigure struct{ Value, Low, High *metav1.Duration }

// String is "400µs [350µs, 450µs]", or the value alone when the point has no interval.
func (f intervalFigure) String() string {
	if f.Value == nil || f.Low == nil || f.High == nil {
		return textfmt.Dur(f.Value)
	}
	return textfmt.Dur(f.Value) + " [" + textfmt.Dur(f.Low) + ", " + textfmt.Dur(f.High) + "]"
}

// settingRows are the points that carry a setting, in the order of the spec's settings
// (the sweep's points list them outermost); none for a sweep without settings.
func settingRows(sw sweep.Measured) []settingRow {
	var rows []settingRow
	for _, p := range sw.Points {
		if p.Setting == "" {
			continue
		}
		row := settingRow{Setting: p.Setting, At: plots.At(p, sw.Spec.Points), Phase: textfmt.OrDash(string(p.Phase)), CPU: textfmt.Qty(p.SidecarCPUPer1kQPS)}
		for _, f := range perfv1alpha1.HeadlinePercentiles {
			row.Added = append(row.Added, intervalFigure{f.OfPoint(p.Added), f.OfPoint(p.AddedLow), f.OfPoint(p.AddedHigh)})
		}
		if p.Phase == perfv1alpha1.PhaseFailed {
			row.Note, row.Message = failureReason(p.Message), p.Message
		}
		rows = append(rows, row)
	}
	return rows
}

// failureReason is a point's message's leading reason ("MTLSMismatch"), else its message:
// the terminal's row stays short, the point's full message is in the points table.
func failureReason(msg string) string {
	if reason, _, ok := strings.Cut(msg, ":"); ok && reason != "" && !strings.ContainsAny(reason, " \t") {
		return reason
	}
	return textfmt.OrDash(msg)
}

// settingsTable is the terminal's per-setting table; empty for a sweep without settings.
func settingsTable(sw sweep.Measured) string {
	rows := settingRows(sw)
	if len(rows) == 0 {
		return ""
	}
	withAt := false
	for _, r := range rows {
		withAt = withAt || r.At != ""
	}
	t := &textfmt.Table{}
	header := []string{"SETTING", "AT", "PHASE", "ADDED P50 [95%]", "ADDED P90 [95%]", "ADDED P99 [95%]", "SIDECAR CPU/1K", "NOTE"}
	if !withAt {
		header = append(header[:1:1], header[2:]...)
	}
	t.Add(header...)
	for _, r := range rows {
		cells := []string{r.Setting, r.At, r.Phase, r.Added[0].String(), r.Added[1].String(), r.Added[2].String(), r.CPU, textfmt.OrDash(r.Note)}
		if !withAt {
			cells = append(cells[:1:1], cells[2:]...)
		}
		t.Add(cells...)
	}
	return "\nper setting (ADDED: latency Dapr adds, with its 95% interval; SIDECAR CPU/1K: the server sidecar's CPU per 1000 rps)\n" + t.String()
}

// settingsSection is the HTML report's per-setting table, each added figure with its 95%
// interval beneath it and a failed point's full message; ok is false without settings.
func settingsSection(sw sweep.Measured) (htmlSection, bool) {
	rows := settingRows(sw)
	if len(rows) == 0 {
		return htmlSection{}, false
	}
	s := htmlSection{ID: "settings", Title: "Per setting"}
	t := htmlTable{ID: "setting-figures", Header: []string{"Setting", "At", "Phase", "Added p50", "Added p90", "Added p99", "Sidecar CPU / 1000 rps", "Note"}}
	for _, r := range rows {
		cells := []htmlCell{{Text: r.Setting}, {Text: textfmt.OrDash(r.At)}, {Text: r.Phase}}
		for _, f := range r.Added {
			c := htmlCell{Text: textfmt.Dur(f.Value)}
			if f.Value != nil && f.Low != nil && f.High != nil {
				c.Detail = "95%: " + textfmt.Dur(f.Low) + " – " + textfmt.Dur(f.High)
			}
			cells = append(cells, c)
		}
		note := htmlCell{Text: textfmt.OrDash(r.Note)}
		if r.Message != r.Note {
			note.Detail = r.Message
		}
		cells = append(cells, htmlCell{Text: r.CPU}, note)
		t.add(cells...)
	}
	s.table(t)
	s.Notes = append(s.Notes, "Added: the latency Dapr adds over the sidecar-free baseline, with its 95% interval. "+
		"mTLS is the control plane's setting: a point asking for the value the cluster does not have is not measured (MTLSMismatch).")
	return s, true
}
