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
	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Record copies the compact figures of a finished run's result into its point.
func Record(p *perfv1alpha1.SweepPointStatus, res *perfv1alpha1.Result) {
	if res == nil {
		return
	}
	p.ActualQPS, p.Errors = res.ActualQPS, res.Errors
	p.Latency, p.Baseline, p.Added = perfv1alpha1.Compact(res.Latency), perfv1alpha1.Compact(res.Baseline), perfv1alpha1.Compact(res.Added)
	if in := res.AddedInterval; in != nil {
		p.AddedLow, p.AddedHigh = perfv1alpha1.Compact(&in.Low), perfv1alpha1.Compact(&in.High)
	}
	if u := res.Resources; u != nil && u.SidecarPer1kQPS != nil && u.SidecarPer1kQPS.CPU != nil {
		p.SidecarCPUPer1kQPS = ptrTo(u.SidecarPer1kQPS.CPU.DeepCopy())
	}
	p.Outcome = perfv1alpha1.Compact(outcomeOf(res))
}

// outcomeOf is the latency of what an asynchronous scenario's call started: delivery,
// completion or trigger lateness; nil for a run of another scenario.
func outcomeOf(res *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	switch {
	case res.Delivery != nil:
		return res.Delivery.Latency
	case res.Completion != nil:
		return res.Completion.Latency
	case res.Triggers != nil:
		return res.Triggers.Lateness
	}
	return nil
}

func ptrTo(q resource.Quantity) *resource.Quantity { return &q }
