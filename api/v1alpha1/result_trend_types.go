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
