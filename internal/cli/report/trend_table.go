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
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// trendLines say how each sidecar's working set, each daprd's goroutines and open files, and
// the measured path's p90 moved over a long measured load: its slope with the interval, the
// line's ends, and where the p90 changed level.
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
	if d := res.LatencyDrift; d != nil {
		fmt.Fprintf(&b, "\n%s path's p90 over the measured load (its windows of %v, each timed from the scheduled sends; the same line and interval)\n", d.Path, d.Width.Duration)
		fmt.Fprintf(&b, "p90: %v an hour (95%% interval %v..%v), %v to %v over %v, %d windows, lag-1 autocorrelation %s\n",
			d.PerHour.Duration, d.Low.Duration, d.High.Duration, d.Start.Duration, d.End.Duration, d.Span.Duration, d.Windows, d.Lag1)
		if len(d.ChangePoints) == 0 {
			b.WriteString("no change of level (E-divisive means, 1%)\n")
		}
		for _, c := range d.ChangePoints {
			fmt.Fprintf(&b, "changed level at %s: p90 %v before, %v after (medians of the windows on either side)\n",
				c.At.UTC().Format(time.RFC3339), c.Before.Duration, c.After.Duration)
		}
	}
	return b.String()
}
