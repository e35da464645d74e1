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
