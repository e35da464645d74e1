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

package usage

import (
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A run's load has phases (warm-up, then baseline and Dapr runs interleaved), but the
// metrics API only ever serves each pod's latest window, ~15 s long, and serves it up to a
// resolution late. So windows are recorded as they come (Record) and only attributed once
// the load tester's timeline is known (Attribute): a window counts for a phase when it lies
// wholly inside it, away from its edges. A window that straddles two phases, or falls in the
// warm-up or between runs, counts for none: averaging it in would dilute the figure with
// another phase's load (a sidecar idles while the baseline runs).

// ControlPlanePrefix marks a control-plane component's windows: controlPlane/<app label>.
const ControlPlanePrefix = "controlPlane/"

// MaxWindows bounds what a run keeps in status.liveUsage.
const MaxWindows = 400

// Record adds readings to live as windows, except a window already recorded for its role,
// and returns how many were new. Beyond MaxWindows every other window is dropped, evenly
// over time, so a long run keeps a uniform sample of every phase.
func Record(live *perfv1alpha1.LiveUsage, readings map[string]Reading) int {
	added := 0
	for role, r := range readings {
		if r.Timestamp.IsZero() || recorded(live, role, r.Timestamp) {
			continue
		}
		live.Windows = append(live.Windows, perfv1alpha1.UsageWindow{
			Role: role, End: metav1.NewTime(r.Timestamp.Truncate(time.Second)), Seconds: int32(r.Window.Round(time.Second) / time.Second),
			CPU: r.CPUMilli, Memory: r.MemoryBytes,
		})
		added++
	}
	slices.SortStableFunc(live.Windows, func(a, b perfv1alpha1.UsageWindow) int {
		if c := a.End.Compare(b.End.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Role, b.Role)
	})
	for len(live.Windows) > MaxWindows {
		live.Windows = thin(live.Windows)
	}
	return added
}

func recorded(live *perfv1alpha1.LiveUsage, role string, end time.Time) bool {
	return slices.ContainsFunc(live.Windows, func(w perfv1alpha1.UsageWindow) bool {
		return w.Role == role && w.End.Truncate(time.Second).Equal(end.Truncate(time.Second))
	})
}

// thin keeps every other window of each role.
func thin(ws []perfv1alpha1.UsageWindow) []perfv1alpha1.UsageWindow {
	seen := map[string]int{}
	out := ws[:0]
	for _, w := range ws {
		if seen[w.Role]%2 == 0 {
			out = append(out, w)
		}
		seen[w.Role]++
	}
	return out
}

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
		role, variant := splitVariant(w.Role)
		if variant != "" && variant != phases[i].Variant {
			continue // another variant's idle target
		}
		u := out[phases[i].Variant]
		if u == nil {
			u = &perfv1alpha1.ResourceUsage{}
			out[phases[i].Variant] = u
		}
		Fold(roleSlot(u, role), Reading{CPUMilli: w.CPU, MemoryBytes: w.Memory, Timestamp: w.End.Time})
	}
	for _, u := range out {
		slices.SortFunc(u.ControlPlane, func(a, b perfv1alpha1.ComponentUsage) int { return strings.Compare(a.Component, b.Component) })
	}
	return out
}

// roleSlot returns the aggregate of a window's role in u, creating it.
func roleSlot(u *perfv1alpha1.ResourceUsage, role string) *perfv1alpha1.RoleUsage {
	if component, ok := strings.CutPrefix(role, ControlPlanePrefix); ok {
		i := slices.IndexFunc(u.ControlPlane, func(c perfv1alpha1.ComponentUsage) bool { return c.Component == component })
		if i < 0 {
			u.ControlPlane = append(u.ControlPlane, perfv1alpha1.ComponentUsage{Component: component})
			i = len(u.ControlPlane) - 1
		}
		return &u.ControlPlane[i].Usage
	}
	roles := dataPlaneRoles(u)
	p := roles[len(roles)-1].slot // BaselineApp, for a role not in the list
	if i := slices.IndexFunc(roles, func(r roleField) bool { return string(r.name) == role }); i >= 0 {
		p = roles[i].slot
	}
	if *p == nil {
		*p = &perfv1alpha1.RoleUsage{}
	}
	return *p
}

// roleField is a data-plane role and its place in a ResourceUsage.
type roleField struct {
	name Role
	slot **perfv1alpha1.RoleUsage
}

// dataPlaneRoles is the one list of a run's own roles, in reporting order.
func dataPlaneRoles(u *perfv1alpha1.ResourceUsage) []roleField {
	return []roleField{{ServerApp, &u.ServerApp}, {ServerSidecar, &u.ServerSidecar}, {ClientSidecar, &u.ClientSidecar},
		{LoadTester, &u.LoadTester}, {BaselineApp, &u.BaselineApp}}
}

// EachRole calls fn for every data-plane role of u, in reporting order, with its usage
// (nil when not measured).
func EachRole(u *perfv1alpha1.ResourceUsage, fn func(Role, *perfv1alpha1.RoleUsage)) {
	for _, r := range dataPlaneRoles(u) {
		fn(r.name, *r.slot)
	}
}

// Counts says how many windows each role has in u, e.g. "serverApp 2, loadTester 2".
func Counts(u *perfv1alpha1.ResourceUsage) string {
	if u == nil {
		return "none"
	}
	var parts []string
	for _, r := range dataPlaneRoles(u) {
		if usage := *r.slot; usage != nil && usage.Samples > 0 {
			parts = append(parts, string(r.name)+" "+strconv.Itoa(int(usage.Samples)))
		}
	}
	for _, c := range u.ControlPlane {
		parts = append(parts, c.Component+" "+strconv.Itoa(int(c.Usage.Samples)))
	}
	return strings.Join(parts, ", ")
}
