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
	"fmt"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// trendLines say how each sidecar's working set, and each daprd's goroutines and open
// files, moved over a long measured load: its slope with the interval, and the line's ends.
func trendLines(res *perfv1alpha1.Result) string {
	var b strings.Builder
	if len(res.MemoryTrends) > 0 {
		b.WriteString("\nsidecar memory over the measured load (a least-squares line through the metrics windows; the interval widened for their serial correlation)\n")
	}
	for _, t := range res.MemoryTrends {
		fmt.Fprintf(&b, "%s: %s MiB/h (95%% interval %s..%s), %s MiB to %s MiB over %v, %d windows, lag-1 autocorrelation %s\n",
			t.Role, t.MiBPerHour, t.Low, t.High, t.StartMiB, t.EndMiB, t.Span.Duration, t.Windows, t.Lag1)
	}
	if len(res.DaprdTrends) > 0 {
		b.WriteString("\ndaprd's goroutines and open files over the measured load (its own gauges, read by the load tester; the same line and interval)\n")
	}
	for _, t := range res.DaprdTrends {
		fmt.Fprintf(&b, "%s %s: %s an hour (95%% interval %s..%s), %s to %s over %v, %d readings, lag-1 autocorrelation %s\n",
			t.Sidecar, t.Gauge, t.PerHour, t.Low, t.High, t.Start, t.End, t.Span.Duration, t.Readings, t.Lag1)
	}
	return b.String()
}
