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
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// series is one container's counters: a split load's testers and their sidecars share a
// role, so each pod's counters are differenced on their own and only then summed per role.
type series struct{ role, pod string }

// counterDelta is what one container's counters advanced by over some phases.
type counterDelta struct {
	seconds                                float64
	cpuMillis, periods, throttled, thrMill float64
	capacityMillis                         int64
}

// CPU is one variant's CPU figures: per role, each role summed over its pods, and per pod
// for the roles several pods share.
type CPU struct {
	Roles, Pods []perfv1alpha1.ContainerCPU
}

// AccountCPU differences every container's counters over each phase and sums them per
// variant and role: CPU, CFS throttling and, for nodes, CPU busy. Each container's series is
// differenced on its own (two pods' counters are never subtracted from each other) and its
// resets — a restarted container starts again from zero — start a new segment, as
// Prometheus's increase() treats them; roles sum their pods' rates.
//
// Within a phase (trimmed by edge at both ends) it takes the first and the last sample and
// divides by the time between them: counters read inside the phase never carry a
// neighbouring phase's load, whose rate may differ tenfold (an idle sidecar during the
// baseline). The kubelet refreshes a container's counters only every 10–15 s, so a short
// phase may hold fewer than two readings: then its edges are interpolated between the
// readings around them, which can mix in up to one refresh of the neighbouring phase. A
// phase the readings do not surround is left out.
//
// A sidecar variant's target (a role ending @code) is differenced over that variant's
// phases only: over another variant's it idles, and summed into that variant's role it
// would dilute its throttled share.
func AccountCPU(samples []perfv1alpha1.CounterSample, phases []Phase, edge time.Duration) map[string]CPU {
	bySeries := map[series][]perfv1alpha1.CounterSample{}
	for _, s := range samples {
		k := series{role: s.Role, pod: s.Pod}
		bySeries[k] = append(bySeries[k], s)
	}
	keys := slices.SortedFunc(maps.Keys(bySeries), func(a, b series) int {
		return cmp.Or(cmp.Compare(a.role, b.role), cmp.Compare(a.pod, b.pod))
	})
	deltas := map[string]map[series]*counterDelta{}
	for _, key := range keys {
		readings := withoutResets(bySeries[key])
		_, variant := roles.SplitVariant(key.role)
		for _, p := range phases {
			if variant != "" && variant != p.Variant {
				continue // another sidecar variant's target, idle while this one is measured
			}
			a, b, span, ok := phaseEdges(readings, p, edge)
			if !ok {
				continue
			}
			if deltas[p.Variant] == nil {
				deltas[p.Variant] = map[series]*counterDelta{}
			}
			d := deltas[p.Variant][key]
			if d == nil {
				d = &counterDelta{capacityMillis: readings[0].CapacityMillis}
				deltas[p.Variant][key] = d
			}
			d.seconds += span.Seconds()
			d.cpuMillis += b.cpuMillis - a.cpuMillis
			d.periods += b.periods - a.periods
			d.throttled += b.throttled - a.throttled
			d.thrMill += b.thrMill - a.thrMill
		}
	}
	out := map[string]CPU{}
	for variant, bySeries := range deltas {
		var cpu CPU
		for i := 0; i < len(keys); {
			role := keys[i].role
			var pods []*counterDelta
			var names []string
			for ; i < len(keys) && keys[i].role == role; i++ {
				if d := bySeries[keys[i]]; d != nil && d.seconds > 0 {
					pods, names = append(pods, d), append(names, keys[i].pod)
				}
			}
			if len(pods) == 0 {
				continue
			}
			cpu.Roles = append(cpu.Roles, figures(role, pods...))
			if len(pods) > 1 {
				for j, d := range pods {
					c := figures(role, d)
					c.Pod = names[j]
					cpu.Pods = append(cpu.Pods, c)
				}
			}
		}
		out[variant] = cpu
	}
	return out
}

// phaseEdges is a series' counters at the start and the end of phase p (trimmed by edge),
// and the time between them; false when the readings do not surround it.
func phaseEdges(series []perfv1alpha1.CounterSample, p Phase, edge time.Duration) (a, b point, span time.Duration, ok bool) {
	from, to := p.Start.Add(edge), p.End.Add(-edge)
	first := slices.IndexFunc(series, func(s perfv1alpha1.CounterSample) bool { return !s.At.Time.Before(from) })
	last := -1
	for i := len(series) - 1; i >= 0; i-- {
		if !series[i].At.Time.After(to) {
			last = i
			break
		}
	}
	if first >= 0 && last > first {
		return pointOf(series[first]), pointOf(series[last]), series[last].At.Time.Sub(series[first].At.Time), true
	}
	a, okA := interpolate(series, from)
	b, okB := interpolate(series, to)
	if !okA || !okB || !to.After(from) {
		return point{}, point{}, 0, false
	}
	return a, b, to.Sub(from), true
}

// withoutResets returns a container's samples in time order with every counter made
// monotonic: where a counter falls (the container restarted, its cgroup's counters began
// again at zero), what it had reached is carried into every later reading.
func withoutResets(samples []perfv1alpha1.CounterSample) []perfv1alpha1.CounterSample {
	out := slices.Clone(samples)
	slices.SortFunc(out, func(a, b perfv1alpha1.CounterSample) int { return a.At.Time.Compare(b.At.Time) })
	var offset, prev [4]int64
	for i := range out {
		fields := [4]*int64{&out[i].CPUMillis, &out[i].Periods, &out[i].ThrottledPeriods, &out[i].ThrottledMillis}
		for f, v := range fields {
			raw := *v
			if i > 0 && raw < prev[f] {
				offset[f] += prev[f]
			}
			prev[f] = raw
			*v = raw + offset[f]
		}
	}
	return out
}

// figures are one role's CPU figures over the deltas of its containers (one per pod): their
// CPU rates add up, as do their CFS periods.
func figures(role string, pods ...*counterDelta) perfv1alpha1.ContainerCPU {
	var milli, periods, throttled, thrMill, seconds float64
	var capacity int64
	for _, d := range pods {
		milli += math.Max(d.cpuMillis, 0) / d.seconds
		periods, throttled, thrMill = periods+d.periods, throttled+d.throttled, thrMill+d.thrMill
		seconds = math.Max(seconds, d.seconds)
		capacity += d.capacityMillis
	}
	c := perfv1alpha1.ContainerCPU{Role: role, CPU: *resource.NewMilliQuantity(int64(math.Round(milli)), resource.DecimalSI),
		Seconds: int32(math.Round(seconds))}
	if periods > 0 {
		c.Periods = int64(math.Round(periods))
		c.ThrottledPeriodsPercent = strconv.FormatFloat(100*throttled/periods, 'f', 1, 64)
		c.ThrottledPeriods = int64(math.Round(math.Max(throttled, 0)))
		c.Throttled = &metav1.Duration{Duration: time.Duration(math.Max(thrMill, 0)) * time.Millisecond}
	}
	if capacity > 0 {
		c.CapacityPercent = strconv.FormatFloat(100*milli/float64(capacity), 'f', 1, 64)
	}
	return c
}

// point is a role's counters at one instant.
type point struct{ cpuMillis, periods, throttled, thrMill float64 }

func pointOf(s perfv1alpha1.CounterSample) point {
	return point{float64(s.CPUMillis), float64(s.Periods), float64(s.ThrottledPeriods), float64(s.ThrottledMillis)}
}

// interpolate returns the counters at t from the readings around it (ascending by time);
// false when t lies outside them.
func interpolate(series []perfv1alpha1.CounterSample, t time.Time) (point, bool) {
	i := slices.IndexFunc(series, func(s perfv1alpha1.CounterSample) bool { return !s.At.Time.Before(t) })
	if i < 0 || (i == 0 && series[0].At.Time.After(t)) {
		return point{}, false
	}
	if series[i].At.Time.Equal(t) {
		return pointOf(series[i]), true
	}
	a, b := pointOf(series[i-1]), pointOf(series[i])
	f := t.Sub(series[i-1].At.Time).Seconds() / series[i].At.Time.Sub(series[i-1].At.Time).Seconds()
	lerp := func(x, y float64) float64 { return x + f*(y-x) }
	return point{lerp(a.cpuMillis, b.cpuMillis), lerp(a.periods, b.periods), lerp(a.throttled, b.throttled), lerp(a.thrMill, b.thrMill)}, true
}
