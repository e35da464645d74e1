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
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// The kubelet's cumulative CPU counters (cAdvisor's, on /metrics/cadvisor): differenced at a
// phase's edges they give its exact CPU-seconds and CFS throttling, however short the phase,
// where metrics-server only averages fixed windows.
const (
	metricCPU              = "container_cpu_usage_seconds_total"
	metricPeriods          = "container_cpu_cfs_periods_total"
	metricThrottledPeriods = "container_cpu_cfs_throttled_periods_total"
	metricThrottledSeconds = "container_cpu_cfs_throttled_seconds_total"
	metricCores            = "machine_cpu_cores"
	// rootCgroup is the id of the series that covers the whole node.
	rootCgroup = "/"
)

// nodeRolePrefix starts the role of a node's root cgroup among the counters' roles.
const nodeRolePrefix = "node/"

// NodeRole names a node's root cgroup among the counters' roles.
func NodeRole(node string) string { return nodeRolePrefix + node }

// IsNodeRole reports whether role is a node's root cgroup.
func IsNodeRole(role string) bool { return strings.HasPrefix(role, nodeRolePrefix) }

// ContainerID is the runtime's id of a container as its pod status gives it
// ("containerd://ID") and as its cgroup path ends (".../ID", or ".../cri-containerd-ID.scope"
// under systemd): cAdvisor's series are matched by it, because with a CRI runtime whose
// containers cAdvisor cannot inspect (containerd 1.x here) the kubelet leaves a container
// series' name, pod and namespace labels empty and only its cgroup id names it.
func ContainerID(statusID string) string {
	if _, id, ok := strings.Cut(statusID, "://"); ok {
		return id
	}
	return statusID
}

// cgroupContainerID is the container id a cgroup path ends in ("" for a pod or QoS cgroup).
func cgroupContainerID(id string) string {
	last := id[strings.LastIndex(id, "/")+1:]
	last = strings.TrimSuffix(last, ".scope")
	if i := strings.LastIndex(last, "-"); i >= 0 {
		last = last[i+1:] // cri-containerd-ID, docker-ID, crio-ID
	}
	return last
}

// Series names one container's counters: its role and its pod. Several pods share a role
// (a split load's testers and their sidecars), so each container's counters are a series of
// their own, differenced on their own and only then summed per role.
type Series struct {
	Role, Pod string
}

// ParseCadvisor reads one kubelet's /metrics/cadvisor text and returns a counter sample for
// each container containers names (by container id, see ContainerID) and one for the node's
// root cgroup (with the node's capacity, from machine_cpu_cores). at stands in for series
// without a timestamp.
func ParseCadvisor(r io.Reader, node string, containers map[string]Series, at time.Time) ([]perfv1alpha1.CounterSample, error) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("parsing the kubelet's cadvisor metrics of node %s: %w", node, err)
	}
	var capacityMillis int64
	if f := families[metricCores]; f != nil && len(f.GetMetric()) > 0 {
		capacityMillis = int64(math.Round(valueOf(f.GetMetric()[0]) * 1000))
	}
	samples := map[Series]*perfv1alpha1.CounterSample{}
	var order []Series
	for _, name := range []string{metricCPU, metricPeriods, metricThrottledPeriods, metricThrottledSeconds} {
		f := families[name]
		if f == nil {
			continue
		}
		for _, m := range f.GetMetric() {
			l := labelsOf(m)
			var key Series
			if l["id"] == rootCgroup {
				key = Series{Role: NodeRole(node)}
			} else if cid := cgroupContainerID(l["id"]); cid != "" {
				key = containers[cid]
			}
			if key.Role == "" {
				continue
			}
			s := samples[key]
			if s == nil {
				s = &perfv1alpha1.CounterSample{Role: key.Role, Pod: key.Pod, At: metav1.NewMicroTime(at)}
				if m.TimestampMs != nil {
					s.At = metav1.NewMicroTime(time.UnixMilli(m.GetTimestampMs()))
				}
				if key.Role == NodeRole(node) {
					s.CapacityMillis = capacityMillis
				}
				samples[key] = s
				order = append(order, key)
			}
			v := valueOf(m)
			switch name {
			case metricCPU:
				s.CPUMillis = int64(math.Round(v * 1000))
			case metricPeriods:
				s.Periods = int64(v)
			case metricThrottledPeriods:
				s.ThrottledPeriods = int64(v)
			case metricThrottledSeconds:
				s.ThrottledMillis = int64(math.Round(v * 1000))
			}
		}
	}
	out := make([]perfv1alpha1.CounterSample, 0, len(order))
	for _, key := range order {
		out = append(out, *samples[key])
	}
	return out, nil
}

func labelsOf(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, lp := range m.GetLabel() {
		out[lp.GetName()] = lp.GetValue()
	}
	return out
}

func valueOf(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Untyped != nil:
		return m.Untyped.GetValue()
	}
	return 0
}

// maxCounterSamples bounds status.liveUsage.counters (the CRD's MaxItems).
const maxCounterSamples = 3000

// RecordCounters appends samples to the live counters, a sample already held (same role,
// same time) once; past the bound every other sample is dropped, evenly over the run.
func RecordCounters(live *perfv1alpha1.LiveUsage, samples []perfv1alpha1.CounterSample) {
	for _, s := range samples {
		if !slices.ContainsFunc(live.Counters, func(o perfv1alpha1.CounterSample) bool {
			return o.Role == s.Role && o.Pod == s.Pod && o.At.Equal(&s.At)
		}) {
			live.Counters = append(live.Counters, s)
		}
	}
	for len(live.Counters) > maxCounterSamples {
		kept := live.Counters[:0]
		for i, s := range live.Counters {
			if i%2 == 0 {
				kept = append(kept, s)
			}
		}
		live.Counters = kept
	}
}

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
func AccountCPU(samples []perfv1alpha1.CounterSample, phases []Phase, edge time.Duration) map[string]CPU {
	bySeries := map[Series][]perfv1alpha1.CounterSample{}
	for _, s := range samples {
		k := Series{Role: s.Role, Pod: s.Pod}
		bySeries[k] = append(bySeries[k], s)
	}
	keys := slices.SortedFunc(maps.Keys(bySeries), func(a, b Series) int {
		return cmp.Or(cmp.Compare(a.Role, b.Role), cmp.Compare(a.Pod, b.Pod))
	})
	deltas := map[string]map[Series]*counterDelta{}
	for _, key := range keys {
		series := withoutResets(bySeries[key])
		for _, p := range phases {
			a, b, span, ok := phaseEdges(series, p, edge)
			if !ok {
				continue
			}
			if deltas[p.Variant] == nil {
				deltas[p.Variant] = map[Series]*counterDelta{}
			}
			d := deltas[p.Variant][key]
			if d == nil {
				d = &counterDelta{capacityMillis: series[0].CapacityMillis}
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
			role := keys[i].Role
			var pods []*counterDelta
			var names []string
			for ; i < len(keys) && keys[i].Role == role; i++ {
				if d := bySeries[keys[i]]; d != nil && d.seconds > 0 {
					pods, names = append(pods, d), append(names, keys[i].Pod)
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

// RoleOf is the role of a container of one of the run's pods, a further sidecar variant's
// target pod marked as such (the same roles the metrics windows use).
func RoleOf(pod *corev1.Pod, container string) (string, bool) {
	role, ok := Classify(workload.Role(pod.Labels[workload.LabelComponent]), container)
	if !ok {
		return "", false
	}
	if v := pod.Labels[workload.LabelVariant]; v != "" {
		role = ofVariant(role, v)
	}
	return string(role), true
}

// JudgedForThrottling reports whether a role's throttling bounds the run's latency: the
// sidecars and the target app (of any variant), not the load tester or a node.
func JudgedForThrottling(role string) bool {
	base, _ := splitVariant(role)
	return IsSidecar(role) || Role(base) == ServerApp
}

// IsSidecar reports whether a role (of any variant) is a daprd's.
func IsSidecar(role string) bool {
	base, _ := splitVariant(role)
	return Role(base) == ServerSidecar || Role(base) == ClientSidecar
}

// CountersBehind names a role of a still-running pod (the target's sidecar and app, any
// variant's, and the nodes) whose newest reading is older than t: the kubelet refreshes a
// container's counters only every 10–15 s, so the last phase of a load is surrounded only by
// a reading taken after it ended. The load tester's containers have ended and are not
// waited for. Empty when none is behind.
func CountersBehind(samples []perfv1alpha1.CounterSample, t time.Time) string {
	newest := map[string]time.Time{}
	for _, s := range samples {
		if s.At.Time.After(newest[s.Role]) {
			newest[s.Role] = s.At.Time
		}
	}
	roles := slices.Sorted(maps.Keys(newest))
	for _, role := range roles {
		base, _ := splitVariant(role)
		stillRunning := Role(base) == ServerSidecar || Role(base) == ServerApp || IsNodeRole(role)
		if stillRunning && newest[role].Before(t) {
			return role
		}
	}
	return ""
}
