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

// Package usage reads a run's resource usage while it runs — metrics windows from the
// metrics API (metrics.k8s.io, served by metrics-server) and the kubelet's cumulative CPU
// counters — and records them in status.liveUsage under each container's role. What they
// mean for the run's phases is the assessment's to decide (internal/assess/accounting).
package usage

import (
	"time"

	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// ControlPlaneLabel is the label Dapr's Helm chart puts on every control-plane pod.
const ControlPlaneLabel = "app"

// Classify returns the role of a container in a pod of the given component; the sidecar is
// the container named daprd, everything else in a pod is the app.
func Classify(component workload.Role, container string) (roles.Role, bool) {
	sidecar := container == workload.ContainerDaprd
	switch component {
	case workload.RoleTarget:
		if sidecar {
			return roles.ServerSidecar, true
		}
		return roles.ServerApp, true
	case workload.RoleLoadTester:
		if sidecar {
			return roles.ClientSidecar, true
		}
		return roles.LoadTester, true
	case workload.RoleBaseline:
		return roles.BaselineApp, true
	case workload.RoleStore:
		return roles.Store, true
	}
	return "", false
}

// Reading is the usage of one role (or control-plane component) in one metrics listing:
// the sum over its containers and pods, stamped with the newest window among them and the
// longest window length.
type Reading struct {
	CPUMilli    int64
	MemoryBytes int64
	Timestamp   time.Time
	Window      time.Duration
}

func (r *Reading) add(c metricsv1beta1.ContainerMetrics, pm *metricsv1beta1.PodMetrics) {
	r.CPUMilli += c.Usage.Cpu().MilliValue()
	r.MemoryBytes += c.Usage.Memory().Value()
	if ts := pm.Timestamp.Time; ts.After(r.Timestamp) {
		r.Timestamp = ts
	}
	r.Window = max(r.Window, pm.Window.Duration)
}

// DataPlane groups a run's pod metrics into one reading per role. Windows that ended
// before since (the warm-up) are left out. A sidecar variant's target pods are a role of
// their own (roles.OfVariant), counted only while their variant is measured.
func DataPlane(items []metricsv1beta1.PodMetrics, since time.Time) map[roles.Role]Reading {
	out := map[roles.Role]Reading{}
	for _, pm := range items {
		if pm.Timestamp.Time.Before(since) {
			continue
		}
		component := workload.Role(pm.Labels[workload.LabelComponent])
		for _, c := range pm.Containers {
			role, ok := Classify(component, c.Name)
			if !ok {
				continue
			}
			if v := pm.Labels[workload.LabelVariant]; v != "" {
				role = roles.OfVariant(role, v)
			}
			r := out[role]
			r.add(c, &pm)
			out[role] = r
		}
	}
	return out
}

// ControlPlane groups the control plane's pod metrics into one reading per component (the
// pods' app label, e.g. dapr-sentry).
func ControlPlane(items []metricsv1beta1.PodMetrics, since time.Time) map[string]Reading {
	out := map[string]Reading{}
	for _, pm := range items {
		component := pm.Labels[ControlPlaneLabel]
		if component == "" || pm.Timestamp.Time.Before(since) {
			continue
		}
		r := out[component]
		for _, c := range pm.Containers {
			r.add(c, &pm)
		}
		out[component] = r
	}
	return out
}
