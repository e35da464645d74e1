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
	"strconv"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// ThrottledBoundPercent is the share of CFS periods a daprd or app may be throttled in
// during the measured runs before the latency counts as bounded by its CPU limit.
const ThrottledBoundPercent = 1.0

// busyNodePercent is the CPU busy of a node beyond which its latency counts as bounded by
// the node's CPU (every core queued behind another).
const busyNodePercent = 90.0

// throttleJudged reports whether c is a sidecar or app whose CFS throttling was counted.
func throttleJudged(c perfv1alpha1.ContainerCPU) bool {
	return roles.JudgedForThrottling(c.Role) && c.ThrottledPeriodsPercent != "" && c.Throttled != nil
}

// limitBound reports whether c's CPU limit bound it: throttled beyond ThrottledBoundPercent.
func limitBound(c perfv1alpha1.ContainerCPU) bool {
	pct, _ := strconv.ParseFloat(c.ThrottledPeriodsPercent, 64)
	return throttleJudged(c) && pct > ThrottledBoundPercent
}

// ThrottledContainers names the sidecars and apps throttled beyond ThrottledBoundPercent
// during the measured runs, and the throttled share of every one with a limit.
func ThrottledContainers(cpu []perfv1alpha1.ContainerCPU) (bound, ratios []string) {
	for _, c := range cpu {
		if !throttleJudged(c) {
			continue
		}
		figure := fmt.Sprintf("%s %s%% of %d periods (%s stalled, %s CPU)", c.Role, c.ThrottledPeriodsPercent, c.Periods, c.Throttled.Duration, c.CPU.String())
		ratios = append(ratios, figure)
		if limitBound(c) {
			bound = append(bound, figure)
		}
	}
	return bound, ratios
}

// onlySidecarsBound reports whether the CPU limit bound some sidecar during the measured
// runs, and no app.
func onlySidecarsBound(cpu []perfv1alpha1.ContainerCPU) bool {
	found := false
	for _, c := range cpu {
		if !limitBound(c) {
			continue
		}
		if !roles.IsSidecar(c.Role) {
			return false
		}
		found = true
	}
	return found
}

// busyNodes names the nodes at or beyond busyNodePercent CPU busy during the measured runs.
func busyNodes(cpu []perfv1alpha1.ContainerCPU) []string {
	var out []string
	for _, c := range cpu {
		if pct, err := strconv.ParseFloat(c.CapacityPercent, 64); err == nil && pct >= busyNodePercent {
			out = append(out, fmt.Sprintf("node CPU (%s %s%% busy)", c.Role, c.CapacityPercent))
		}
	}
	return out
}

// BoundedBy names what bounded a result's latency, causes before effects: a container's CPU
// limit (throttled beyond 1% of its periods), a node's CPU (over 90% busy), the load tester
// (a path fell behind its schedule, often because of the first two) — or that none of them
// was found. Empty when nothing was found and the CPU counters were not read.
func BoundedBy(res *perfv1alpha1.Result) string {
	if res == nil {
		return ""
	}
	var found []string
	if res.CPU != nil {
		if bound, _ := ThrottledContainers(res.CPU.Measured); len(bound) > 0 {
			found = append(found, "the CPU limit: "+strings.Join(bound, ", "))
		}
		found = append(found, busyNodes(res.CPU.Measured)...)
	}
	for _, s := range res.Saturated {
		if TesterLate(s) {
			found = append(found, fmt.Sprintf("the load tester (its own lag on the %s path, p99 %s)", s.Path, s.TesterLagP99.Duration))
		} else {
			// The tester was on time: the path itself could not carry the rate.
			found = append(found, fmt.Sprintf("the %s path's capacity (%s of %d qps, the load tester on time)", s.Path, s.ActualQPS, res.RequestedQPS))
		}
	}
	switch {
	case len(found) > 0:
		return "bounded by " + strings.Join(found, "; ")
	case res.CPU == nil:
		return ""
	}
	return "nothing found bounding it (no sidecar or app throttled beyond 1% of its CFS periods, nodes below 90% busy, the load tester on schedule)"
}
