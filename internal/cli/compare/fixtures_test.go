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

package compare

import (
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// The fixtures the plugin's own tests build results with (internal/cli's command_test.go).

func d(v string) *metav1.Duration {
	x, _ := time.ParseDuration(v)
	return &metav1.Duration{Duration: x}
}

// sampleResult is a finished invocation run's result with an added p90 and its interval.
func sampleResult(addedP90, low, high string, cpu string) *perfv1alpha1.Result {
	c := resource.MustParse(cpu)
	return &perfv1alpha1.Result{RequestedQPS: 1000, ActualQPS: "999.8", Requests: 60000, LatencySignificantDigits: 3,
		Latency:     &perfv1alpha1.LatencySummary{P50: d("7.6ms"), P90: d("13.7ms"), P99: d("29.8ms")},
		Baseline:    &perfv1alpha1.LatencySummary{P50: d("700us"), P90: d("1.44ms"), P99: d("3.34ms")},
		Added:       &perfv1alpha1.LatencySummary{P50: d("6.9ms"), P90: d(addedP90), P99: d("26ms")},
		ServiceTime: &perfv1alpha1.LatencySummary{P50: d("7.1ms"), P90: d("11.2ms"), P99: d("21.5ms")},
		SendLag:     &perfv1alpha1.LatencySummary{P50: d("40us"), P90: d("1.9ms"), P99: d("8.3ms")},
		CPU: &perfv1alpha1.CPUAccounting{Source: "kubelet counters", Measured: []perfv1alpha1.ContainerCPU{
			{Role: "serverSidecar", CPU: resource.MustParse("447m"), Seconds: 56, Periods: 560, ThrottledPeriodsPercent: "37.5", Throttled: d("4.2s")},
			{Role: "node/n", CPU: resource.MustParse("1870m"), Seconds: 56, CapacityPercent: "93.5"}}},
		AddedInterval: &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3, Low: perfv1alpha1.LatencySummary{P50: d("6.8ms"), P90: d(low), P99: d("25ms")}, High: perfv1alpha1.LatencySummary{P50: d("7ms"), P90: d(high), P99: d("27ms")}},
		Resources:     &perfv1alpha1.ResourceUsage{ServerSidecar: &perfv1alpha1.RoleUsage{CPUAvg: ptr.To(resource.MustParse("390m")), Samples: 5}, SidecarPer1kQPS: &perfv1alpha1.PerKQPS{CPU: &c}},
	}
}
