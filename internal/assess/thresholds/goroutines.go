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
	"slices"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// goroutineGrowthChecks are the gates of thresholds.maxSidecarGoroutineGrowthPerHour, one
// per daprd's goroutine trend, each judged on its slope's interval as memory growth is. A
// run with no such trend (its measured load under accounting.MinTrendSpan, or daprd's
// gauges never read) reads Inconclusive, and so does a daprd without one beside another's
// (a run that kills its target does not read the target's): one daprd met says nothing of
// the other.
func goroutineGrowthChecks(t *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) []Check {
	if t.MaxSidecarGoroutineGrowthPerHour == nil {
		return nil
	}
	limit := float64(*t.MaxSidecarGoroutineGrowthPerHour)
	limitText := fmt.Sprintf("<= %d/h", *t.MaxSidecarGoroutineGrowthPerHour)
	var checks []Check
	for _, tr := range res.DaprdTrends {
		if tr.Gauge != "goroutines" {
			continue
		}
		checks = append(checks, slopeCheck(Check{Name: tr.Sidecar + " goroutine growth", Limit: limitText,
			Measured: fmt.Sprintf("%s an hour (95%% interval %s..%s, %d readings over %v)", tr.PerHour, tr.Low, tr.High, tr.Readings, tr.Span.Duration)},
			tr.Low, tr.High, limit))
	}
	if len(checks) == 0 {
		return []Check{{Name: "sidecar goroutine growth", Limit: limitText, Outcome: Inconclusive,
			Measured: fmt.Sprintf("no trend fitted (it needs a measured load of %v or more, daprd's gauges read by the load tester)", accounting.MinTrendSpan)}}
	}
	for _, sidecar := range []roles.Role{roles.ClientSidecar, roles.ServerSidecar} {
		if !slices.ContainsFunc(res.DaprdTrends, func(tr perfv1alpha1.DaprdTrend) bool {
			return tr.Sidecar == string(sidecar) && tr.Gauge == "goroutines"
		}) {
			checks = append(checks, Check{Name: string(sidecar) + " goroutine growth", Limit: limitText, Outcome: Inconclusive,
				Measured: "no trend fitted (its daprd not read often enough through the load)"})
		}
	}
	return checks
}
