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

// Package report is a run's, a sweep's or a schedule's history as people read them: the
// tables the terminal prints, report.html with its charts inline (Write, into a folder), a
// profiled run's top functions and flame graphs (Profiles, which reads the profiles'
// ConfigMaps), and the Markdown summary a CI step shows. Everything in it is rendered from
// objects anyone who may edit them wrote, so every string is escaped for where it lands
// (textfmt).
package report

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// Run is a run's tables, Dapr's published figures beside them when it ran a preset's
// setting, and its charts: the latency distribution when its document holds histograms,
// with a note on paths left out, and each fault's error share through a phase, by window and
// second by second with the latency beside it.
func Run(run document.Run) (text string, charts []plots.Chart) {
	text = runTables(run) + publishedTable(run)
	chart, ok, note := distributionChart(run)
	if ok {
		charts = append(charts, chart)
	}
	charts = append(charts, faultWindowCharts(&run.Spec, run.Result())...)
	charts = append(charts, faultSecondCharts(&run.Spec, run.Result())...)
	// A path's name is its author's: "x-latency"'s window chart and "x"'s latency chart
	// would share a file.
	taken := map[string]int{}
	for i := range charts {
		charts[i].Name = uniqueName(taken, charts[i].Name)
	}
	if note != "" {
		text += "\n" + note + "\n"
	}
	return text, charts
}

// Sweep is a sweep's table of points and its charts.
func Sweep(sw sweep.Measured) (text string, charts []plots.Chart) {
	return sweepTable(sw), plots.ForSweep(sw)
}

// Part is what a report adds beside its tables and charts: a section of report.html and
// the files it wrote into the report's folder.
type Part struct {
	Section htmlSection
	Files   []string
}

// Write writes the charts that have data and report.html into dir, with the parts' sections
// after the charts, and returns every file written: the parts' first, report.html last. obj
// is the document.Run or sweep.Measured the report is of; nil for a schedule's history.
func Write(dir, title string, obj client.Object, text string, charts []plots.Chart, parts ...Part) ([]string, error) {
	var files []string
	var sections []htmlSection
	for _, p := range parts {
		files, sections = append(files, p.Files...), append(sections, p.Section)
	}
	written, err := writeReport(dir, title, obj, text, charts, sections...)
	return append(files, written...), err
}

// RunPage is a run's report.html alone, without charts or parts, rendered in memory.
func RunPage(run document.Run) ([]byte, error) { return renderHTML(runDoc(run)) }

// SweepPage is a sweep's report.html alone, without charts, rendered in memory.
func SweepPage(sw sweep.Measured) ([]byte, error) { return renderHTML(sweepDoc(sw)) }
