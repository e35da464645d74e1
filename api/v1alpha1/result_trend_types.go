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

package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// MemoryTrend is how one sidecar's working set moved over a long measured load: the slope
// of a least-squares line through its metrics windows (each the working set at the window's
// end), from the first measured phase's start to the last one's end, baseline phases
// between included (the sidecar lives through them).
type MemoryTrend struct {
	// role is serverSidecar or clientSidecar.
	Role string `json:"role"`
	// mibPerHour is the slope in MiB an hour, as a decimal string such as "3.21", with its
	// 95% t interval (low, high). The windows are serially correlated (a working set moves
	// slowly), so the interval is widened for the residuals' lag-1 autocorrelation (lag1):
	// a plain interval of such a series holds far less often than it says.
	MiBPerHour string `json:"mibPerHour"`
	Low        string `json:"low"`
	High       string `json:"high"`
	Lag1       string `json:"lag1"`
	// windows is how many metrics windows the line went through, over span (the first
	// one's end to the last one's).
	Windows int32           `json:"windows"`
	Span    metav1.Duration `json:"span"`
	// startMiB and endMiB are the line's working set at the span's ends.
	StartMiB string `json:"startMiB"`
	EndMiB   string `json:"endMiB"`
}

// DaprdTrend is how one of a daprd's own gauges moved over a long measured load: the slope
// of a least-squares line through the load tester's readings of it (go_goroutines or
// process_open_fds on daprd's metrics port, every 30 s or so), from the first measured
// phase's start to the last one's end. A leak of goroutines or of connections reads as a
// slope above 0 whose interval stays above 0.
type DaprdTrend struct {
	// sidecar is serverSidecar (the target's daprd) or clientSidecar (the load tester's own;
	// in a group, its leader's).
	Sidecar string `json:"sidecar"`
	// gauge is goroutines or openFDs.
	Gauge string `json:"gauge"`
	// perHour is the slope in the gauge's units an hour, as a decimal string such as "3.21",
	// with its 95% t interval (low, high), widened for the residuals' lag-1 autocorrelation
	// (lag1) as a memory trend's is.
	PerHour string `json:"perHour"`
	Low     string `json:"low"`
	High    string `json:"high"`
	Lag1    string `json:"lag1"`
	// readings is how many readings the line went through, over span (the first one's time
	// to the last one's); start and end are the line's values at the span's ends.
	Readings int32           `json:"readings"`
	Span     metav1.Duration `json:"span"`
	Start    string          `json:"start"`
	End      string          `json:"end"`
}

// LatencyDrift is how one path's latency moved over a long measured load: the slope of a
// least-squares line through the p90 of each of the load tester's windows (every 30 s or
// so, each timed from its requests' scheduled sends), over the measured path's phases, and
// the points where that p90 changed level. A sidecar that slows as it ages reads as a slope
// whose interval stays above 0; a step (a node's neighbour, a GC setting, a restart) as a
// change point.
type LatencyDrift struct {
	// path is the path fitted: dapr (the first variant's, for a run with spec.variants) or
	// direct (a run without Dapr).
	Path string `json:"path"`
	// perHour is the p90's slope an hour, with its 95% t interval (low, high), widened for
	// the residuals' lag-1 autocorrelation (lag1) as a memory trend's is. A negative
	// duration: the p90 fell.
	PerHour metav1.Duration `json:"perHour"`
	Low     metav1.Duration `json:"low"`
	High    metav1.Duration `json:"high"`
	Lag1    string          `json:"lag1"`
	// windows is how many windows the line went through, each width long, over span (the
	// first one's middle to the last one's); start and end are the line's p90 at the
	// span's ends.
	Windows int32           `json:"windows"`
	Width   metav1.Duration `json:"width"`
	Span    metav1.Duration `json:"span"`
	Start   metav1.Duration `json:"start"`
	End     metav1.Duration `json:"end"`
	// changePoints are where the windows' p90 changed level, found by E-divisive means (a
	// permutation test at 1%, as a schedule's history is judged), in time order: the first
	// 16 of a run that had more.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	ChangePoints []LatencyChangePoint `json:"changePoints,omitempty"`
}

// LatencyChangePoint is one change of level in a soak's latency: the first window of the
// new level, and the median p90 of the windows on either side (up to the next change).
type LatencyChangePoint struct {
	At     metav1.Time     `json:"at"`
	Before metav1.Duration `json:"before"`
	After  metav1.Duration `json:"after"`
}
