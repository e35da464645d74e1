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

package sweep

import (
	"context"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/document"
)

// MeasuredPoint is a sweep's point as its readers show it: the point's status and its
// run's figures, read from the run's result document (Figures is zero until the run has
// one).
type MeasuredPoint struct {
	perfv1alpha1.SweepPointStatus
	Figures
	// Unread says why the point's document could not be read; empty when it was, or the
	// point has none.
	Unread string `json:"unread,omitempty"`
}

// Figures are the compact figures of a point's run.
// (JSON names as the points' status had them before the result document.)
type Figures struct {
	ActualQPS string `json:"actualQPS,omitempty"`
	Errors    int64  `json:"errors,omitempty"`
	// Latency, Baseline and Added at the headline percentiles; AddedLow and AddedHigh the
	// ends of Added's interval.
	Latency   *perfv1alpha1.PointLatency `json:"latency,omitempty"`
	Baseline  *perfv1alpha1.PointLatency `json:"baseline,omitempty"`
	Added     *perfv1alpha1.PointLatency `json:"added,omitempty"`
	AddedLow  *perfv1alpha1.PointLatency `json:"addedLow,omitempty"`
	AddedHigh *perfv1alpha1.PointLatency `json:"addedHigh,omitempty"`
	// SidecarCPUPer1kQPS is the server sidecar's CPU per 1000 rps.
	SidecarCPUPer1kQPS *resource.Quantity `json:"sidecarCPUPer1kQPS,omitempty"`
	// Outcome is the latency of what an asynchronous scenario's call started (Latency is the
	// call's own): a PubSub point's delivery through Dapr, a Workflow point's completion, a
	// Scheduler point's trigger lateness.
	Outcome *perfv1alpha1.PointLatency `json:"outcome,omitempty"`
}

// FiguresOf are the compact figures of a run's result.
func FiguresOf(res *perfv1alpha1.Result) Figures {
	var f Figures
	if res == nil {
		return f
	}
	f.ActualQPS, f.Errors = res.ActualQPS, res.Errors
	f.Latency, f.Baseline, f.Added = perfv1alpha1.Compact(res.Latency), perfv1alpha1.Compact(res.Baseline), perfv1alpha1.Compact(res.Added)
	if in := res.AddedInterval; in != nil {
		f.AddedLow, f.AddedHigh = perfv1alpha1.Compact(&in.Low), perfv1alpha1.Compact(&in.High)
	}
	if u := res.Resources; u != nil && u.SidecarPer1kQPS != nil && u.SidecarPer1kQPS.CPU != nil {
		f.SidecarCPUPer1kQPS = ptrTo(u.SidecarPer1kQPS.CPU.DeepCopy())
	}
	f.Outcome = perfv1alpha1.Compact(outcomeOf(res))
	return f
}

// outcomeOf is the latency of what an asynchronous scenario's call started: delivery,
// completion or trigger lateness; nil for a run of another scenario.
func outcomeOf(res *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if o := res.Outcome(); o != nil {
		return o.Latency
	}
	return nil
}

func ptrTo(q resource.Quantity) *resource.Quantity { return &q }

// Measured is a sweep as its readers show it: the object, and each point with its run's
// figures.
type Measured struct {
	*perfv1alpha1.PerfSweep
	Points []MeasuredPoint
}

// Load reads the result document of each of sw's points that has one. A point whose
// document cannot be read (its run deleted, or the document changed) keeps its status
// without figures, and Unread says why.
func Load(ctx context.Context, c client.Reader, sw *perfv1alpha1.PerfSweep) Measured {
	m := Measured{PerfSweep: sw}
	for _, p := range sw.Status.Points {
		mp := MeasuredPoint{SweepPointStatus: p}
		if p.Document != "" {
			doc, _, err := document.ReadRef(ctx, c, sw.Namespace, p.Document, p.Digest)
			if err != nil {
				mp.Unread = err.Error()
			} else {
				mp.Figures = FiguresOf(doc.Result)
			}
		}
		m.Points = append(m.Points, mp)
	}
	return m
}
