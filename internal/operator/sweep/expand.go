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

// Package sweep plans the points of a PerfSweep: the cross product of its lists in an order
// that spreads drift, and the rates of a search for the highest sustainable one.
package sweep

import (
	"math/bits"
	"slices"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Point is one combination of swept values; a zero field keeps the template's value.
type Point struct {
	Connections  int32
	QPS          int32
	PayloadBytes *int32
	// Setting names the spec.points.settings entry applied; empty: none.
	Setting string
}

// Expand returns the cross product of p's lists (settings outermost, so a table per setting
// reads in order; then connections; payload innermost), each paired with the step it is
// measured at.
func Expand(p *perfv1alpha1.SweepPoints) (points []Point, steps []int32) {
	conns, qps := orZero(p.Connections), orZero(p.QPS)
	payloads := []*int32{nil}
	if len(p.PayloadBytes) > 0 {
		payloads = nil
		for _, b := range p.PayloadBytes {
			payloads = append(payloads, &b)
		}
	}
	settings := []string{""}
	if len(p.Settings) > 0 {
		settings = nil
		for _, s := range p.Settings {
			settings = append(settings, s.Name)
		}
	}
	for _, s := range settings {
		for _, c := range conns {
			for _, q := range qps {
				for _, b := range payloads {
					points = append(points, Point{Connections: c, QPS: q, PayloadBytes: b, Setting: s})
				}
			}
		}
	}
	return points, Steps(len(points))
}

func orZero(v []int32) []int32 {
	if len(v) == 0 {
		return []int32{0}
	}
	return v
}

// Steps returns, for each of n points in list order, the step it is measured at: the
// points ordered by the bit-reversal of their index (0, 4, 2, 6, 1, 5, 3 for 7), so
// neighbours on the curve are measured far apart in time and a slow drift of the cluster
// shows as scatter, not as a slope.
func Steps(n int) []int32 {
	width := bits.Len(uint(max(n-1, 1)))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	reversed := func(i int) uint { return bits.Reverse(uint(i)) >> (bits.UintSize - width) }
	slices.SortFunc(order, func(a, b int) int { return int(reversed(a)) - int(reversed(b)) })
	steps := make([]int32, n)
	for step, i := range order {
		steps[i] = int32(step)
	}
	return steps
}

// PlannedRuns is how many runs a sweep measures at most: its points, or a search's steps.
func PlannedRuns(s *perfv1alpha1.PerfSweepSpec) int {
	switch {
	case s.Search != nil:
		return int(maxSteps(s.Search))
	case s.Points != nil:
		points, _ := Expand(s.Points)
		return len(points)
	}
	return 0
}
