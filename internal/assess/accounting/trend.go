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

package accounting

import (
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// MinTrendSpan is the shortest measured load a trend is fitted over (result.MinTrendSpan).
const MinTrendSpan = result.MinTrendSpan

// minTrendWindows is the fewest windows a trend is fitted through.
const minTrendWindows = 10

// MemoryTrends fits each sidecar's working set against time over the measured load: every
// window that ends between the first phase's start and the last phase's end, trim inside
// both (the sidecar lives through the baseline's phases between, so they count). Each
// variant's server sidecar has its own trend (role serverSidecar@NAME); the client
// sidecars of testerPods load-tester pods, whose windows hold their sum, are fitted per pod
// (the sum over testerPods). None for a load shorter than MinTrendSpan or a sidecar with
// fewer than minTrendWindows windows.
func MemoryTrends(windows []perfv1alpha1.UsageWindow, phases []Phase, trim time.Duration, testerPods int) []perfv1alpha1.MemoryTrend {
	from, to, ok := trendSpan(phases, trim)
	if !ok {
		return nil
	}
	var sidecars []string
	for _, w := range windows {
		base, _ := roles.SplitVariant(w.Role)
		if (base == string(roles.ServerSidecar) || base == string(roles.ClientSidecar)) && !slices.Contains(sidecars, w.Role) {
			sidecars = append(sidecars, w.Role)
		}
	}
	slices.Sort(sidecars) // clientSidecar, serverSidecar, serverSidecar@NAME
	var out []perfv1alpha1.MemoryTrend
	for _, role := range sidecars {
		per := 1.0
		if role == string(roles.ClientSidecar) {
			per = float64(max(testerPods, 1))
		}
		var x, y []float64
		var first, last time.Time
		for _, w := range windows {
			if w.Role != role || w.End.Time.Before(from) || w.End.Time.After(to) {
				continue
			}
			if first.IsZero() {
				first = w.End.Time
			}
			last = w.End.Time
			x = append(x, w.End.Sub(from).Hours())
			y = append(y, float64(w.Memory)/(1<<20)/per)
		}
		if len(x) < minTrendWindows {
			continue
		}
		s, ok := stats.SlopeInterval(x, y)
		if !ok {
			continue
		}
		out = append(out, perfv1alpha1.MemoryTrend{Role: role, MiBPerHour: decimal(s.Slope), Low: decimal(s.Low), High: decimal(s.High),
			Lag1: decimal(s.Lag1), Windows: int32(len(x)), Span: metav1.Duration{Duration: last.Sub(first)},
			StartMiB: decimal(s.Intercept + s.Slope*x[0]), EndMiB: decimal(s.Intercept + s.Slope*x[len(x)-1])})
	}
	return out
}

// phasesOf are the phases of variant, and whether they span a trend (trendSpan).
func phasesOf(phases []Phase, variant string, trim time.Duration) ([]Phase, bool) {
	var own []Phase
	for _, p := range phases {
		if p.Variant == variant {
			own = append(own, p)
		}
	}
	_, _, ok := trendSpan(own, trim)
	return own, ok
}

// trendSpan is the measured load a trend is fitted over: from the first phase's start to
// the last one's end, trim inside both; false when it spans under MinTrendSpan.
func trendSpan(phases []Phase, trim time.Duration) (from, to time.Time, ok bool) {
	if len(phases) == 0 {
		return from, to, false
	}
	from, to = phases[0].Start, phases[0].End
	for _, p := range phases {
		from, to = minTime(from, p.Start), maxTime(to, p.End)
	}
	from, to = from.Add(trim), to.Add(-trim)
	return from, to, to.Sub(from) >= MinTrendSpan
}

func decimal(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
