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

package thresholds

import (
	"fmt"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
)

// latencyDriftChecks is the gate of thresholds.maxLatencyDriftPerHour, judged on the
// measured path's p90 slope interval as memory growth is; a run without a drift (its
// measured load under accounting.MinTrendSpan) reads Inconclusive.
func latencyDriftChecks(t *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) []Check {
	if t.MaxLatencyDriftPerHour == nil {
		return nil
	}
	limit := t.MaxLatencyDriftPerHour.Duration
	c := Check{Name: "p90 drift", Limit: fmt.Sprintf("<= %v/h", limit), Outcome: Inconclusive,
		Measured: fmt.Sprintf("no drift fitted (it needs a measured load of %v or more, with 10 windows of 20 successes or more inside its phases)", accounting.MinTrendSpan)}
	if d := res.LatencyDrift; d != nil {
		c.Name = d.Path + " p90 drift"
		c.Measured = fmt.Sprintf("%v an hour (95%% interval %v..%v, %d windows over %v)", d.PerHour.Duration, d.Low.Duration, d.High.Duration, d.Windows, d.Span.Duration)
		c.Outcome = intervalOutcome(d.Low.Seconds(), d.High.Seconds(), limit.Seconds())
	}
	return []Check{c}
}
