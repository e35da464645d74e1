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
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
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
				key = Series{Role: roles.NodeRole(node)}
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
				if key.Role == roles.NodeRole(node) {
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

// RoleOf is the role of a container of one of the run's pods, a further sidecar variant's
// target pod marked as such (the same roles the metrics windows use).
func RoleOf(pod *corev1.Pod, container string) (string, bool) {
	role, ok := Classify(workload.Role(pod.Labels[workload.LabelComponent]), container)
	if !ok {
		return "", false
	}
	if v := pod.Labels[workload.LabelVariant]; v != "" {
		role = roles.OfVariant(role, v)
	}
	return string(role), true
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
	for _, role := range slices.Sorted(maps.Keys(newest)) {
		base, _ := roles.SplitVariant(role)
		stillRunning := roles.Role(base) == roles.ServerSidecar || roles.Role(base) == roles.ServerApp || roles.IsNodeRole(role)
		if stillRunning && newest[role].Before(t) {
			return role
		}
	}
	return ""
}
