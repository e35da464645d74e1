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

package report

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// StatusHeadline is what status.result keeps of res: its figures as the document has
// them, at the headline percentiles. The caller names the document and its digest.
func StatusHeadline(res *perfv1alpha1.Result) *perfv1alpha1.ResultHeadline {
	if res == nil {
		return nil
	}
	h := &perfv1alpha1.ResultHeadline{Generation: res.Generation, RequestedQPS: res.RequestedQPS, ActualQPS: res.ActualQPS,
		Errors: res.Errors, Latency: perfv1alpha1.Compact(res.Latency), Added: perfv1alpha1.Compact(res.Added),
		AddedInterval: headlineInterval(res.AddedInterval)}
	if o := res.Outcome(); o != nil {
		h.Outcome = &perfv1alpha1.OutcomeHeadline{Figure: o.Kind.Figure, Latency: perfv1alpha1.Compact(o.Latency),
			Interval: headlineInterval(o.LatencyInterval), Missing: o.Missing()}
	}
	for _, c := range res.SidecarCost {
		if h.CostPerRequest == nil {
			h.CostPerRequest = &perfv1alpha1.SidecarCosts{}
		}
		d := c.CPUPerRequest
		switch roles.Role(c.Role) {
		case roles.ServerSidecar:
			h.CostPerRequest.ServerSidecar = &d
		case roles.ClientSidecar:
			h.CostPerRequest.ClientSidecar = &d
		}
	}
	return h
}

// headlineInterval is in's ends at the headline percentiles; everything the document says
// of it (its basis, its approximate figures) stays there.
func headlineInterval(in *perfv1alpha1.LatencyInterval) *perfv1alpha1.HeadlineInterval {
	if in == nil {
		return nil
	}
	return &perfv1alpha1.HeadlineInterval{Covers: perfv1alpha1.CoversThisRun, ConfidencePercent: in.ConfidencePercent,
		Low: *perfv1alpha1.Compact(&in.Low), High: *perfv1alpha1.Compact(&in.High)}
}

// digestMessageMax keeps a digest's message within its field's bound.
const digestMessageMax = 2048

// Digest is the brief of a finished result kept as status.lastSuccessful.
func Digest(h *perfv1alpha1.ResultHeadline, completed *metav1.Time, message string) *perfv1alpha1.ResultDigest {
	if h == nil {
		return nil
	}
	if len(message) > digestMessageMax {
		message = strings.ToValidUTF8(message[:digestMessageMax-3], "") + "..." // never half a rune (µs)
	}
	return &perfv1alpha1.ResultDigest{Generation: h.Generation, CompletionTime: completed.DeepCopy(), Document: h.Document, Digest: h.Digest,
		RequestedQPS: h.RequestedQPS, ActualQPS: h.ActualQPS, Errors: h.Errors, Latency: h.Latency.DeepCopy(), Added: h.Added.DeepCopy(),
		Message: message}
}
