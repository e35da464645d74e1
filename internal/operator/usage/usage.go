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

// Package usage samples CPU and memory from the metrics API (metrics.k8s.io, served by
// metrics-server) and folds the samples into running aggregates per role, so a run reports
// usage over its whole measured window rather than one reading after it.
package usage

import (
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Role is what a container does in a run.
type Role string

const (
	ServerApp     Role = "serverApp"
	ServerSidecar Role = "serverSidecar"
	ClientSidecar Role = "clientSidecar"
	LoadTester    Role = "loadTester"
	BaselineApp   Role = "baselineApp"
)

// variantSeparator joins a role and the sidecar variant whose target pod it is.
const variantSeparator = "@"

// ofVariant is role as played by the target pod of one sidecar variant (result.Variant code).
func ofVariant(role Role, variant string) Role { return role + variantSeparator + Role(variant) }

// splitVariant undoes ofVariant; variant is empty for a role every variant shares.
func splitVariant(role string) (base, variant string) {
	base, variant, _ = strings.Cut(role, variantSeparator)
	return base, variant
}

// ControlPlaneLabel is the label Dapr's Helm chart puts on every control-plane pod.
const ControlPlaneLabel = "app"

// Classify returns the role of a container in a pod of the given component; the sidecar is
// the container named daprd, everything else in a pod is the app.
func Classify(component workload.Role, container string) (Role, bool) {
	sidecar := container == workload.ContainerDaprd
	switch component {
	case workload.RoleTarget:
		if sidecar {
			return ServerSidecar, true
		}
		return ServerApp, true
	case workload.RoleLoadTester:
		if sidecar {
			return ClientSidecar, true
		}
		return LoadTester, true
	case workload.RoleBaseline:
		return BaselineApp, true
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
// their own (ofVariant), counted only while their variant is measured.
func DataPlane(items []metricsv1beta1.PodMetrics, since time.Time) map[Role]Reading {
	out := map[Role]Reading{}
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
				role = ofVariant(role, v)
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

// Fold adds a reading to a running aggregate, unless its window was folded in already
// (metrics-server serves the same window until its next scrape). It reports whether the
// reading counted.
func Fold(agg *perfv1alpha1.RoleUsage, r Reading) bool {
	if r.Timestamp.IsZero() || agg.LastSample != nil && !r.Timestamp.After(agg.LastSample.Time) {
		return false
	}
	n := int64(agg.Samples)
	cpuAvg := (milli(agg.CPUAvg)*n + r.CPUMilli) / (n + 1)
	memAvg := (bytes(agg.MemoryAvg)*n + r.MemoryBytes) / (n + 1)
	agg.CPUAvg = resource.NewMilliQuantity(cpuAvg, resource.DecimalSI)
	agg.MemoryAvg = resource.NewQuantity(roundKi(memAvg), resource.BinarySI)
	if agg.CPUMax == nil || r.CPUMilli > milli(agg.CPUMax) {
		agg.CPUMax = resource.NewMilliQuantity(r.CPUMilli, resource.DecimalSI)
	}
	if agg.MemoryMax == nil || r.MemoryBytes > bytes(agg.MemoryMax) {
		agg.MemoryMax = resource.NewQuantity(r.MemoryBytes, resource.BinarySI)
	}
	agg.Samples++
	ts := metav1.NewTime(r.Timestamp)
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
