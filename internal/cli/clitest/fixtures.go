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

// Package clitest holds the results the plugin's packages build their tests on, so that
// the command's tests and each package behind it read the same fixtures. Only tests
// import it.
package clitest

import (
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/document"
)

// Dur is a duration written as Go writes one ("1.5ms"); zero when it does not parse.
func Dur(v string) *metav1.Duration {
	x, _ := time.ParseDuration(v)
	return &metav1.Duration{Duration: x}
}

// Ms is f milliseconds.
func Ms(f float64) *metav1.Duration {
	return &metav1.Duration{Duration: time.Duration(f * float64(time.Millisecond))}
}

// WithResult is run as the plugin reads a finished one: with a result document of res.
func WithResult(run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result) document.Run {
	doc := perfv1alpha1.NewResultDocument(run, res, nil, nil)
	return document.With(run, &doc)
}

// SampleResult is a finished invocation run's result with an added p90 and its interval,
// and the server sidecar's CPU per 1000 rps.
func SampleResult(addedP90, low, high string, cpu string) *perfv1alpha1.Result {
	c := resource.MustParse(cpu)
	return &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "999.8", Requests: 60000, LatencySignificantDigits: 3,
		Latency:     &perfv1alpha1.LatencySummary{P50: Dur("7.6ms"), P90: Dur("13.7ms"), P99: Dur("29.8ms")},
		Baseline:    &perfv1alpha1.LatencySummary{P50: Dur("700us"), P90: Dur("1.44ms"), P99: Dur("3.34ms")},
		Added:       &perfv1alpha1.LatencySummary{P50: Dur("6.9ms"), P90: Dur(addedP90), P99: Dur("26ms")},
		ServiceTime: &perfv1alpha1.LatencySummary{P50: Dur("7.1ms"), P90: Dur("11.2ms"), P99: Dur("21.5ms")},
		SendLag:     &perfv1alpha1.LatencySummary{P50: Dur("40us"), P90: Dur("1.9ms"), P99: Dur("8.3ms")},
		CPU: &perfv1alpha1.CPUAccounting{Source: "kubelet counters", Measured: []perfv1alpha1.ContainerCPU{
			{Role: "serverSidecar", CPU: resource.MustParse("447m"), Seconds: 56, Periods: 560, ThrottledPeriodsPercent: "37.5", Throttled: Dur("4.2s")},
			{Role: "node/n", CPU: resource.MustParse("1870m"), Seconds: 56, CapacityPercent: "93.5"}}},
		AddedInterval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
			Low:  perfv1alpha1.LatencySummary{P50: Dur("6.8ms"), P90: Dur(low), P99: Dur("25ms")},
			High: perfv1alpha1.LatencySummary{P50: Dur("7ms"), P90: Dur(high), P99: Dur("27ms")}},
		Resources: &perfv1alpha1.ResourceUsage{ServerSidecar: &perfv1alpha1.RoleUsage{CPUAvg: ptr.To(resource.MustParse("390m")), Samples: 5},
			SidecarPer1kQPS: &perfv1alpha1.PerKQPS{CPU: &c}},
	}
}

// CostedRun is a result document whose server sidecar cost serverCost per request on a
// node calibrated at perCPUSecond units per CPU-second.
func CostedRun(perCPUSecond string, serverCost time.Duration) *perfv1alpha1.ResultDocument {
	return &perfv1alpha1.ResultDocument{
		Environment: &perfv1alpha1.Environment{TargetNode: "n1", Calibration: []perfv1alpha1.NodeCalibration{{Node: "n1", PerCPUSecond: perCPUSecond, Workload: "v2"}}},
		Result: &perfv1alpha1.Result{SidecarCost: []perfv1alpha1.SidecarCost{
			{Role: "serverSidecar", CPUPerRequest: metav1.Duration{Duration: serverCost}}}},
	}
}
