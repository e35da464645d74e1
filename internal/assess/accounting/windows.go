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

// Package accounting attributes a run's resource readings to its measured phases: metrics
// windows to the phase that wholly contains them, the kubelet's CPU counters differenced at
// each phase's edges, and usage scaled to Dapr's unit of 1000 requests a second. The
// operator's samplers only record the readings; what they mean for a run is decided here.
package accounting

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// A run's load has phases (warm-up, then baseline and Dapr runs interleaved), but the
// metrics API only ever serves each pod's latest window, ~15 s long, and serves it up to a
// resolution late. So windows are recorded as they come (the operator's usage.Record) and
// only attributed once the load tester's timeline is known (Attribute): a window counts for
// a phase when it lies wholly inside it, away from its edges. A window that straddles two
// phases, or falls in the warm-up or between runs, counts for none: averaging it in would
// dilute the figure with another phase's load (a sidecar idles while the baseline runs).

// Phase is one measured run of the load: a variant between two instants.
type Phase struct {
	Variant    string
	Start, End time.Time
}

// Attribute folds each window into the usage of the variant whose phase contains it, the
// window's first and last trim seconds inside the phase's own trimmed bounds. It returns
// the usage per variant, nil for a variant no window fell into. A window of one sidecar
// variant's target counts only in that variant's phases.
func Attribute(windows []perfv1alpha1.UsageWindow, phases []Phase, trim time.Duration) map[string]*perfv1alpha1.ResourceUsage {
	out := map[string]*perfv1alpha1.ResourceUsage{}
	for _, w := range windows {
		start := w.End.Add(-time.Duration(w.Seconds) * time.Second)
		i := slices.IndexFunc(phases, func(p Phase) bool {
			return !start.Before(p.Start.Add(trim)) && !w.End.Time.After(p.End.Add(-trim))
		})
		if i < 0 {
			continue
		}
		role, variant := roles.SplitVariant(w.Role)
		if variant != "" && variant != phases[i].Variant {
			continue // another variant's idle target
		}
		u := out[phases[i].Variant]
		if u == nil {
			u = &perfv1alpha1.ResourceUsage{}
			out[phases[i].Variant] = u
		}
		Fold(Slot(u, role), w)
	}
	for _, u := range out {
		slices.SortFunc(u.ControlPlane, func(a, b perfv1alpha1.ComponentUsage) int { return strings.Compare(a.Component, b.Component) })
	}
	return out
}

// Counts says how many windows each role has in u, e.g. "serverApp 2, loadTester 2".
func Counts(u *perfv1alpha1.ResourceUsage) string {
	if u == nil {
		return "none"
	}
	var parts []string
	EachRole(u, func(role roles.Role, usage *perfv1alpha1.RoleUsage) {
		if usage != nil && usage.Samples > 0 {
			parts = append(parts, string(role)+" "+strconv.Itoa(int(usage.Samples)))
		}
	})
	for _, c := range u.ControlPlane {
		parts = append(parts, c.Component+" "+strconv.Itoa(int(c.Usage.Samples)))
	}
	return strings.Join(parts, ", ")
}

// Fold adds a metrics window to a running aggregate, unless a window ending no later was
// folded in already (metrics-server serves the same window until its next scrape). It
// reports whether the window counted.
func Fold(agg *perfv1alpha1.RoleUsage, w perfv1alpha1.UsageWindow) bool {
	if w.End.IsZero() || agg.LastSample != nil && !w.End.After(agg.LastSample.Time) {
		return false
	}
	n := int64(agg.Samples)
	cpuAvg := (milli(agg.CPUAvg)*n + w.CPU) / (n + 1)
	memAvg := (bytes(agg.MemoryAvg)*n + w.Memory) / (n + 1)
	agg.CPUAvg = resource.NewMilliQuantity(cpuAvg, resource.DecimalSI)
	agg.MemoryAvg = resource.NewQuantity(roundKi(memAvg), resource.BinarySI)
	if agg.CPUMax == nil || w.CPU > milli(agg.CPUMax) {
		agg.CPUMax = resource.NewMilliQuantity(w.CPU, resource.DecimalSI)
	}
	if agg.MemoryMax == nil || w.Memory > bytes(agg.MemoryMax) {
		agg.MemoryMax = resource.NewQuantity(w.Memory, resource.BinarySI)
	}
	agg.Samples++
	ts := metav1.NewTime(w.End.Time)
	if agg.FirstSample == nil {
		agg.FirstSample = &ts
	}
	agg.LastSample = &ts
	return true
}

// Per1kQPS scales a role's average usage to 1000 requests per second, the unit of Dapr's
// published numbers; nil when there is no usage or no rate.
func Per1kQPS(agg *perfv1alpha1.RoleUsage, actualQPS float64) *perfv1alpha1.PerKQPS {
	if agg == nil || agg.Samples == 0 || actualQPS <= 0 {
		return nil
	}
	scale := 1000 / actualQPS
	return &perfv1alpha1.PerKQPS{
		CPU: resource.NewMilliQuantity(int64(float64(milli(agg.CPUAvg))*scale+0.5), resource.DecimalSI),
		// Memory does not grow with the rate (a sidecar at 200 rps holds what it holds at
		// 1000): scaling it would report 5× its working set. It is the working set, as Dapr's
		// "23 MB" is the sidecar's memory at its 1000 rps.
		Memory: resource.NewQuantity(bytes(agg.MemoryAvg), resource.BinarySI),
	}
}

// roundKi rounds bytes to whole KiB, so averages read "6491Ki" rather than "6646442".
func roundKi(b int64) int64 { return (b + 512) / 1024 * 1024 }

func milli(q *resource.Quantity) int64 {
	if q == nil {
		return 0
	}
	return q.MilliValue()
}

func bytes(q *resource.Quantity) int64 {
	if q == nil {
		return 0
	}
	return q.Value()
}
