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
	"math"
	"slices"
	"strconv"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// ThrottledBoundPercent is the share of CFS periods a daprd or app may be throttled in
// during the measured runs before the latency counts as bounded by its CPU limit.
const ThrottledBoundPercent = 1.0

// busyNodePercent is the CPU busy of a node beyond which its latency counts as bounded by
// the node's CPU (every core queued behind another).
const busyNodePercent = 90.0

// ThrottleBand is where a container's throttled share stands against ThrottledBoundPercent.
type ThrottleBand string

const (
	// ThrottleUnbound: the share's interval lies below the line, or under half of it was
	// throttled (0 of 200 periods has an interval up to 1.9%, yet nothing stalled).
	ThrottleUnbound ThrottleBand = "Unbound"
	// ThrottleMarginal: the share's interval holds the line; a rerun may read either way.
	ThrottleMarginal ThrottleBand = "Marginal"
	// ThrottleBound: the share's interval lies wholly above the line.
	ThrottleBound ThrottleBand = "Bound"
)

// throttleJudged reports whether c is a sidecar or app whose CFS throttling was counted.
func throttleJudged(c perfv1alpha1.ContainerCPU) bool {
	return roles.JudgedForThrottling(c.Role) && c.ThrottledPeriodsPercent != "" && c.Throttled != nil
}

// ThrottleBandOf is c's band and its throttled share's 95% Wilson interval, in percent, over
// its CFS periods. The interval treats periods as independent trials; a stall often spans
// several in a row, so it is if anything too narrow (hypothesis, not measured). A sharp
// line at 1% flipped between 14 and 15 throttled periods of 1,400, and one setting on one
// host read bound in one run and not in the next.
func ThrottleBandOf(c perfv1alpha1.ContainerCPU) (band ThrottleBand, lowPercent, highPercent float64) {
	pct, _ := strconv.ParseFloat(c.ThrottledPeriodsPercent, 64)
	throttled := c.ThrottledPeriods
	if throttled == 0 && pct > 0 { // a document from before the count was kept
		throttled = int64(math.Round(pct / 100 * float64(c.Periods)))
	}
	low, high := stats.Wilson(throttled, c.Periods)
	lowPercent, highPercent = 100*low, 100*high
	switch {
	case lowPercent > ThrottledBoundPercent:
		return ThrottleBound, lowPercent, highPercent
	case highPercent <= ThrottledBoundPercent || pct < ThrottledBoundPercent/2:
		return ThrottleUnbound, lowPercent, highPercent
	}
	return ThrottleMarginal, lowPercent, highPercent
}

// limitBound reports whether c's CPU limit bound it: its throttled share's interval wholly
// above ThrottledBoundPercent.
func limitBound(c perfv1alpha1.ContainerCPU) bool {
	if !throttleJudged(c) {
		return false
	}
	band, _, _ := ThrottleBandOf(c)
	return band == ThrottleBound
}

// Throttling is the throttled share of every sidecar and app with a limit, in words, and
// which of them the limit bound and which were marginal.
type Throttling struct {
	Bound, Marginal, Ratios []string
}

// ThrottledContainers sorts the sidecars and apps with a limit by their band, each named
// with its share, the share's interval and what it stalled.
func ThrottledContainers(cpu []perfv1alpha1.ContainerCPU) Throttling {
	var t Throttling
	for _, c := range cpu {
		if !throttleJudged(c) {
			continue
		}
		band, low, high := ThrottleBandOf(c)
		figure := fmt.Sprintf("%s %s%% [%.1f%%, %.1f%%] of %d periods (%s stalled, %s CPU)", c.Role, c.ThrottledPeriodsPercent, low, high,
			c.Periods, c.Throttled.Duration, c.CPU.String())
		t.Ratios = append(t.Ratios, figure)
		switch band {
		case ThrottleBound:
			t.Bound = append(t.Bound, figure)
		case ThrottleMarginal:
			t.Marginal = append(t.Marginal, figure)
		}
	}
	return t
}

// JudgedCPU is every container's figures a CPU bound is judged on: the measured path's, and
// each further sidecar variant's over its own runs (its roles all end @code).
func JudgedCPU(cpu *perfv1alpha1.CPUAccounting) []perfv1alpha1.ContainerCPU {
	out := slices.Clone(cpu.Measured)
	for _, v := range cpu.Variants {
		out = append(out, v.Measured...)
	}
	return out
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
// limit (throttled beyond 1% of its periods, or near that line), a node's CPU (over 90%
// busy, or a quarter of it spent outside the run), the load tester
// (a path fell behind its schedule, often because of the first two) — or that none of them
// was found. Empty when nothing was found and the CPU counters were not read.
func BoundedBy(res *perfv1alpha1.Result) string {
	if res == nil {
		return ""
	}
	var found []string
	if res.CPU != nil {
		t := ThrottledContainers(JudgedCPU(res.CPU))
		if len(t.Bound) > 0 {
			found = append(found, "the CPU limit: "+strings.Join(t.Bound, ", "))
		}
		if len(t.Marginal) > 0 {
			found = append(found, "perhaps the CPU limit (throttled near the 1% line, a rerun may read either way: "+strings.Join(t.Marginal, ", ")+")")
		}
		found = append(found, busyNodes(JudgedCPU(res.CPU))...)
	}
	found = append(found, foreignWork(res)...)
	if w := testerLagWork(res); w != "" {
		found = append(found, w)
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
	return "nothing found bounding it (no sidecar or app throttled beyond 1% of its CFS periods, nodes below 90% busy and under 25% of their CPU outside the run, the load tester on schedule)"
}
