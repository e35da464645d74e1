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

package controllers

import (
	"fmt"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/result"
)

// buildResult maps the load tester's summary onto status.result: medians over repetitions,
// added latency per percentile value, and the spread when there is more than one repetition.
func buildResult(run *perfv1alpha1.PerfRun, sum *result.Summary) *perfv1alpha1.Result {
	res := &perfv1alpha1.Result{Generation: run.Generation, RequestedQPS: run.Spec.Load.QPS}
	measured := measuredVariant(run)
	var spread perfv1alpha1.Spread
	reps := 0
	if m, ok := sum.Merge(measured); ok {
		reps = m.Reps
		res.ActualQPS = formatQPS(m.ActualQPS)
		res.Requests, res.Errors = m.Requests, m.Errors
		res.ReturnCodes = sum.CodesOf(measured)
		res.Latency = summarize(m.Latency, median)
		spread.Latency = rangeOf(m.Latency)
	}
	if b, ok := sum.Merge(result.Baseline); ok {
		res.Baseline = summarize(b.Latency, median)
		res.BaselineActualQPS = formatQPS(b.ActualQPS)
		spread.Baseline = rangeOf(b.Latency)
	}
	if a, ok := sum.Added(); ok {
		res.Added = summarize(a, median)
		spread.Added = rangeOf(a)
	}
	if reps > 1 {
		res.Spread = &spread
	}
	return res
}

// measuredVariant is the path status.result.latency reports: through Dapr, or direct.
func measuredVariant(run *perfv1alpha1.PerfRun) result.Variant {
	if run.Spec.DaprEnabled() {
		return result.Dapr
	}
	return result.Direct
}

// measuredQPS is the actual rate of the measured path (median over repetitions).
func measuredQPS(run *perfv1alpha1.PerfRun, sum *result.Summary) float64 {
	m, _ := sum.Merge(measuredVariant(run))
	return m.ActualQPS
}

func median(s result.Stat) time.Duration { return s.Median }

func summarize(l result.Latencies, pick func(result.Stat) time.Duration) *perfv1alpha1.LatencySummary {
	at := func(p float64) *metav1.Duration {
		s, ok := l.Percentile(p)
		if !ok {
			return nil
		}
		return duration(pick(s))
	}
	return &perfv1alpha1.LatencySummary{
		P50: at(50), P75: at(75), P90: at(90), P99: at(99), P999: at(99.9),
		Avg: duration(pick(l.Avg)), Max: duration(pick(l.Max)),
	}
}

func rangeOf(l result.Latencies) *perfv1alpha1.LatencyRange {
	return &perfv1alpha1.LatencyRange{
		Min: *summarize(l, func(s result.Stat) time.Duration { return s.Min }),
		Max: *summarize(l, func(s result.Stat) time.Duration { return s.Max }),
	}
}

// duration rounds to the microsecond, the summary's precision.
func duration(d time.Duration) *metav1.Duration {
	return &metav1.Duration{Duration: d.Round(time.Microsecond)}
}

func formatQPS(q float64) string { return strconv.FormatFloat(q, 'f', 1, 64) }

// headline is the Succeeded condition's message: the numbers a reader wants first.
func headline(res *perfv1alpha1.Result) string {
	if res == nil || res.Latency == nil {
		return "finished"
	}
	msg := fmt.Sprintf("%d requests at %s/%d qps, %d errors; p50 %s, p90 %s, p99 %s",
		res.Requests, res.ActualQPS, res.RequestedQPS, res.Errors, str(res.Latency.P50), str(res.Latency.P90), str(res.Latency.P99))
	if res.Added != nil {
		msg += fmt.Sprintf("; added by Dapr p90 %s, p99 %s", str(res.Added.P90), str(res.Added.P99))
	}
	return msg
}

func str(d *metav1.Duration) string {
	if d == nil {
		return "-"
	}
	return d.Duration.String()
}
