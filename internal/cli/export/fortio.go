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

package export

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"fortio.org/fortio/fhttp"
	"fortio.org/fortio/periodic"
	"fortio.org/fortio/stats"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
)

// Histograms are a run's histograms, from its document, as the load tester encoded them:
// each path under its variant code, which CheckedPaths checks before a file is named by it.
func Histograms(run document.Run) result.Histograms {
	var h result.Histograms
	for _, p := range run.Histograms() {
		h.Paths = append(h.Paths, result.PathHistograms{Variant: result.Variant(p.Variant), Latency: p.Latency, Service: p.Service})
	}
	return h
}

// Fortio writes one fortio result JSON per path into dir (fortio report, and every
// tool reading fortio's JSON, show it): the path's latency from each request's scheduled
// send, every repetition and load-tester pod merged, as fortio's DurationHistogram.
// skipped names the paths left out (CheckedPaths).
func Fortio(dir string, run document.Run) (written, skipped []string, err error) {
	h := Histograms(run)
	if len(h.Paths) == 0 {
		return nil, nil, fmt.Errorf("run %s's result document holds no histograms (it measured nothing)", run.Name)
	}
	paths, skipped, err := CheckedPaths(h)
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
		b, err := json.MarshalIndent(FortioResult(run, p.Variant, hist), "", "  ")
		if err != nil {
			return written, skipped, err
		}
		name, err := FortioFileName(run.Name, p.Variant)
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

// FortioResult is one path of a run as fortio's HTTP result. Its duration is the measured
// time of that path (repetitions × duration), so ActualQPS is the path's mean rate.
func FortioResult(run document.Run, v result.Variant, h *hdrhistogram.Histogram) *fhttp.HTTPRunnerResults {
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
