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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Record copies the compact figures of a finished run's result into its point.
func Record(p *perfv1alpha1.SweepPointStatus, res *perfv1alpha1.Result) {
	if res == nil {
		return
	}
	p.ActualQPS, p.Errors = res.ActualQPS, res.Errors
	p.Latency, p.Baseline, p.Added = compact(res.Latency), compact(res.Baseline), compact(res.Added)
	if in := res.AddedInterval; in != nil {
		p.AddedLow, p.AddedHigh = compact(&in.Low), compact(&in.High)
	}
	if u := res.Resources; u != nil && u.SidecarPer1kQPS != nil && u.SidecarPer1kQPS.CPU != nil {
		p.SidecarCPUPer1kQPS = ptrTo(u.SidecarPer1kQPS.CPU.DeepCopy())
	}
}

func compact(l *perfv1alpha1.LatencySummary) *perfv1alpha1.PointLatency {
	if l == nil {
		return nil
	}
	p := &perfv1alpha1.PointLatency{}
	for _, f := range perfv1alpha1.HeadlinePercentiles {
		f.SetPoint(p, dup(f.Of(l)))
	}
	return p
}

func dup(d *metav1.Duration) *metav1.Duration {
	if d == nil {
		return nil
	}
	return &metav1.Duration{Duration: d.Duration}
}

func ptrTo(q resource.Quantity) *resource.Quantity { return &q }
