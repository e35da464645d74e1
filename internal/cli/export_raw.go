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
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fortio.org/fortio/fhttp"
	"fortio.org/fortio/periodic"
	"fortio.org/fortio/stats"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// runHistograms are a run's histograms, from its document, as the load tester encoded them:
// each path under its variant code, which checkedPaths checks before a file is named by it.
func runHistograms(run document.Run) result.Histograms {
	var h result.Histograms
	for _, p := range run.Histograms() {
		h.Paths = append(h.Paths, result.PathHistograms{Variant: result.Variant(p.Variant), Latency: p.Latency, Service: p.Service})
	}
	return h
}

// writeFortio writes one fortio result JSON per path into dir (fortio report, and every
// tool reading fortio's JSON, show it): the path's latency from each request's scheduled
// send, every repetition and load-tester pod merged, as fortio's DurationHistogram.
// skipped names the paths left out (checkedPaths).
func writeFortio(dir string, run document.Run) (written, skipped []string, err error) {
	h := runHistograms(run)
	if len(h.Paths) == 0 {
		return nil, nil, fmt.Errorf("run %s's result document holds no histograms (it measured nothing)", run.Name)
	}
	paths, skipped, err := checkedPaths(h)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, skipped, err
	}
	for _, p := range paths {
		hist, err := result.DecodeHistogram(p.Latency)
		if err != nil {
			return written, skipped, fmt.Errorf("the %s path's histogram: %w", p.Variant, err)
		}
		b, err := json.MarshalIndent(fortioResult(run, p.Variant, hist), "", "  ")
		if err != nil {
			return written, skipped, err
		}
		name, err := fortioFileName(run.Name, p.Variant)
		if err != nil {
			return written, skipped, err
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			return written, skipped, err
		}
		written = append(written, path)
	}
	return written, skipped, nil
}

// fortioResult is one path of a run as fortio's HTTP result. Its duration is the measured
// time of that path (repetitions × duration), so ActualQPS is the path's mean rate.
func fortioResult(run document.Run, v result.Variant, h *hdrhistogram.Histogram) *fhttp.HTTPRunnerResults {
	load := &run.Spec.Load
	measured := time.Duration(load.EffectiveRepetitions()) * load.EffectiveDuration()
	start := time.Time{}
	if run.Status.StartTime != nil {
		start = run.Status.StartTime.Time
	}
	out := &fhttp.HTTPRunnerResults{RunnerResults: periodic.RunnerResults{
		RunType:           "HTTP",
		Labels:            fmt.Sprintf("daprbench %s/%s %s path: latency from each request's scheduled send", run.Namespace, run.Name, v),
		StartTime:         start,
		RequestedQPS:      strconv.Itoa(int(load.QPS)),
		RequestedDuration: measured.String(),
		ActualQPS:         float64(h.TotalCount()) / measured.Seconds(),
		ActualDuration:    measured,
		NumThreads:        int(load.EffectiveConnections()),
		Version:           "daprbench " + perfv1alpha1.ResultSchema,
		DurationHistogram: fortioHistogram(h),
		Uniform:           load.EffectiveArrival() == perfv1alpha1.ArrivalUniform,
	}}
	if res := run.Result(); res != nil && res.Errors == 0 {
		out.RetCodes = map[int]int64{200: h.TotalCount()}
	}
	return out
}

// fortioHistogram converts an HDR histogram of microseconds into fortio's exported form
// (seconds): HDR's buckets with their cumulative percent, and fortio's default percentiles.
func fortioHistogram(h *hdrhistogram.Histogram) *stats.HistogramData {
	const us = 1e6
	d := &stats.HistogramData{Count: h.TotalCount(), Min: float64(h.Min()) / us, Max: float64(h.Max()) / us,
		Avg: h.Mean() / us, StdDev: h.StdDev() / us}
	d.Sum = d.Avg * float64(d.Count)
	var cumulative int64
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		cumulative += bar.Count
		d.Data = append(d.Data, stats.Bucket{Interval: stats.Interval{Start: float64(bar.From) / us, End: float64(bar.To) / us},
			Percent: 100 * float64(cumulative) / float64(d.Count), Count: bar.Count})
	}
	for _, p := range result.StandardPercentiles {
		d.Percentiles = append(d.Percentiles, stats.Percentile{Percentile: p, Value: float64(h.ValueAtPercentile(p)) / us})
	}
	return d
}

// RunRow is a run as one CSV row.
type RunRow struct {
	Run         string `json:"run"`
	Phase       string `json:"phase"`
	Scenario    string `json:"scenario"`
	QPS         int32  `json:"qps"`
	ActualQPS   string `json:"actualQPS"`
	Errors      int64  `json:"errors"`
	P50         string `json:"p50"`
	P90         string `json:"p90"`
	P99         string `json:"p99"`
	BaselineP90 string `json:"baselineP90"`
	AddedP90    string `json:"addedP90"`
	AddedP90Low string `json:"addedP90Low"`
	AddedP90Hi  string `json:"addedP90High"`
	AddedP99    string `json:"addedP99"`
	SidecarCPU  string `json:"sidecarCPUPer1kQPS"`
	// Calibration is the target node's, units per CPU-second.
	Calibration string `json:"calibration"`
	// The server sidecar's CPU per request, raw.
	ServerCPUPerRequest string `json:"serverSidecarCPUPerRequest"`
	// A PubSub run's delivery through Dapr, its added delivery latency and lost messages.
	DeliveryP50      string `json:"deliveryP50"`
	DeliveryP99      string `json:"deliveryP99"`
	AddedDeliveryP99 string `json:"addedDeliveryP99"`
	LostMessages     string `json:"lostMessages"`
	// A Workflow run's completion and its instances that failed or did not end.
	CompletionP50       string `json:"completionP50"`
	CompletionP99       string `json:"completionP99"`
	FailedWorkflows     string `json:"failedWorkflows"`
	UnfinishedWorkflows string `json:"unfinishedWorkflows"`
	// A Scheduler run's trigger lateness and its registrations never triggered.
	TriggerLatenessP50 string `json:"triggerLatenessP50"`
	TriggerLatenessP99 string `json:"triggerLatenessP99"`
	MissedTriggers     string `json:"missedTriggers"`
}

func runRow(run document.Run) RunRow {
	row := RunRow{Run: run.Name, Phase: string(run.Status.Phase), Scenario: string(run.Spec.Scenario), QPS: run.Spec.Load.QPS}
	if v, _, ok := run.Status.Environment.TargetCalibration(); ok {
		row.Calibration = textfmt.Fixed(v, 0)
	}
	res := run.Result()
	if res == nil {
		return row
	}
	row.ActualQPS, row.Errors = res.ActualQPS, res.Errors
	if l := res.Latency; l != nil {
		row.P50, row.P90, row.P99 = textfmt.Dur(l.P50), textfmt.Dur(l.P90), textfmt.Dur(l.P99)
	}
	if b := res.Baseline; b != nil {
		row.BaselineP90 = textfmt.Dur(b.P90)
	}
	if a := res.Added; a != nil {
		row.AddedP90, row.AddedP99 = textfmt.Dur(a.P90), textfmt.Dur(a.P99)
	}
	if i := res.AddedInterval; i != nil {
		row.AddedP90Low, row.AddedP90Hi = textfmt.Dur(i.Low.P90), textfmt.Dur(i.High.P90)
	}
	if r := res.Resources; r != nil && r.SidecarPer1kQPS != nil {
		row.SidecarCPU = textfmt.Qty(r.SidecarPer1kQPS.CPU)
	}
	for _, c := range res.SidecarCost {
		if c.Role == "serverSidecar" {
			row.ServerCPUPerRequest = c.CPUPerRequest.Duration.String()
		}
	}
	if d := res.Delivery; d != nil {
		row.DeliveryP50, row.DeliveryP99 = p50p99(d.Latency)
		if a := d.Added; a != nil {
			row.AddedDeliveryP99 = textfmt.Dur(a.P99)
		}
		if m := d.Messages; m != nil {
			row.LostMessages = fmt.Sprint(m.Lost)
		}
	}
	if c := res.Completion; c != nil {
		row.CompletionP50, row.CompletionP99 = p50p99(c.Latency)
		if n := c.Workflows; n != nil {
			row.FailedWorkflows, row.UnfinishedWorkflows = fmt.Sprint(n.Failed), fmt.Sprint(n.Unfinished)
		}
	}
	if tr := res.Triggers; tr != nil {
		row.TriggerLatenessP50, row.TriggerLatenessP99 = p50p99(tr.Lateness)
		if n := tr.Counts; n != nil {
			row.MissedTriggers = fmt.Sprint(n.Missed)
		}
	}
	return row
}

// p50p99 are a latency's p50 and p99 as a row's cells; empty without the latency.
func p50p99(l *perfv1alpha1.LatencySummary) (p50, p99 string) {
	if l == nil {
		return "", ""
	}
	return textfmt.Dur(l.P50), textfmt.Dur(l.P99)
}

// PointRow is a sweep's point as one CSV row.
type PointRow struct {
	Step        int32  `json:"step"`
	QPS         int32  `json:"qps"`
	Connections int32  `json:"connections"`
	Payload     string `json:"payloadBytes"`
	Run         string `json:"run"`
	Phase       string `json:"phase"`
	Passed      string `json:"passed"`
	ActualQPS   string `json:"actualQPS"`
	Errors      int64  `json:"errors"`
	P90         string `json:"p90"`
	P99         string `json:"p99"`
	AddedP90    string `json:"addedP90"`
	AddedP99    string `json:"addedP99"`
	SidecarCPU  string `json:"sidecarCPUPer1kQPS"`
	// Setting is last: columns read by position keep their place.
	Setting string `json:"setting"`
}

func pointRows(sw sweep.Measured) []PointRow {
	var rows []PointRow
	for _, p := range sw.Points {
		row := PointRow{Step: p.Step, QPS: p.QPS, Connections: p.Connections, Run: p.Run, Phase: string(p.Phase),
			ActualQPS: p.ActualQPS, Errors: p.Errors, SidecarCPU: textfmt.Qty(p.SidecarCPUPer1kQPS), Setting: p.Setting}
		if p.PayloadBytes != nil {
			row.Payload = strconv.Itoa(int(*p.PayloadBytes))
		}
		if p.Passed != nil {
			row.Passed = strconv.FormatBool(*p.Passed)
		}
		row.P90, row.P99 = pointDurs(p.Latency)
		row.AddedP90, row.AddedP99 = pointDurs(p.Added)
		rows = append(rows, row)
	}
	return rows
}

func pointDurs(l *perfv1alpha1.PointLatency) (p90, p99 string) {
	if l == nil {
		return "-", "-"
	}
	return textfmt.Dur(l.P90), textfmt.Dur(l.P99)
}

// distributionChart is a run's latency distribution (every path, from its histograms);
// ok is false for a run without histograms. note says why histograms the run has were
// not drawn, or which of their paths were left out.
func distributionChart(run document.Run) (chart plots.Chart, ok bool, note string) {
	h := runHistograms(run)
	if len(h.Paths) == 0 {
		return plots.Chart{}, false, ""
	}
	checked, skipped, err := checkedPaths(h)
	if err != nil {
		return plots.Chart{}, false, "latency distribution not drawn: " + err.Error()
	}
	var paths []plots.Path
	for _, p := range checked {
		if hist, err := result.DecodeHistogram(p.Latency); err == nil {
			paths = append(paths, plots.Path{Name: p.Variant.String(), Histogram: hist})
		}
	}
	if len(skipped) > 0 {
		note = "latency distribution: " + strings.Join(skipped, "; ")
	}
	return plots.LatencySpectrum(paths), len(paths) > 0, note
}
