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
	"strconv"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
)

// memoryGrowthChecks are the gates of thresholds.maxSidecarMemoryGrowthPerHour, one per
// sidecar trend, each judged on its slope's interval. A run with no trend (its measured load
// under accounting.MinTrendSpan, or no windows) reads Inconclusive.
func memoryGrowthChecks(t *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) []Check {
	if t.MaxSidecarMemoryGrowthPerHour == nil {
		return nil
	}
	limit := float64(t.MaxSidecarMemoryGrowthPerHour.Value()) / (1 << 20)
	limitText := "<= " + t.MaxSidecarMemoryGrowthPerHour.String() + "/h"
	if len(res.MemoryTrends) == 0 {
		return []Check{{Name: "sidecar memory growth", Limit: limitText, Outcome: Inconclusive,
			Measured: fmt.Sprintf("no trend fitted (it needs a measured load of %v or more, read by the metrics API)", accounting.MinTrendSpan)}}
	}
	var checks []Check
	for _, tr := range res.MemoryTrends {
		checks = append(checks, slopeCheck(Check{Name: tr.Role + " memory growth", Limit: limitText,
			Measured: fmt.Sprintf("%s MiB/h (95%% interval %s..%s, %d windows over %v)", tr.MiBPerHour, tr.Low, tr.High, tr.Windows, tr.Span.Duration)},
			tr.Low, tr.High, limit))
	}
	return checks
}

// slopeCheck is c judged on a slope's interval (low, high as the result writes them)
// against limit: Inconclusive when either end cannot be read.
func slopeCheck(c Check, low, high string, limit float64) Check {
	c.Outcome = Inconclusive
	l, errLow := strconv.ParseFloat(low, 64)
	h, errHigh := strconv.ParseFloat(high, 64)
	if errLow == nil && errHigh == nil {
		c.Outcome = intervalOutcome(l, h, limit)
	}
	return c
}
