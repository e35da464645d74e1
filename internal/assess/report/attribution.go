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
	"fmt"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// attributedPathNames are the status's names of the attribution's paths.
var attributedPathNames = map[result.Variant]string{
	result.Baseline:   perfv1alpha1.PathDirect,
	result.ClientOnly: perfv1alpha1.PathClientSidecarOnly,
	result.ServerOnly: perfv1alpha1.PathServerSidecarOnly,
	result.Dapr:       perfv1alpha1.PathBothSidecars,
}

// attributionOf maps a four-path run's split of the added latency; nil without one.
func attributionOf(sum *result.Summary) *perfv1alpha1.Attribution {
	a := sum.Attribution
	if a == nil {
		return nil
	}
	part := func(e result.Added) *perfv1alpha1.AttributedLatency {
		l, in := addedOf(&e)
		return &perfv1alpha1.AttributedLatency{Latency: l, Interval: in}
	}
	out := &perfv1alpha1.Attribution{ClientSidecar: part(a.Client), ServerSidecar: part(a.Server), Interaction: part(a.Interaction)}
	for _, v := range result.AttributionPaths {
		p := perfv1alpha1.AttributedPath{Path: attributedPathNames[v]}
		if m, ok := sum.MergedOf(v); ok {
			p.Latency = summarize(m)
		}
		for _, own := range a.Paths {
			if own.Variant == v {
				_, p.Interval = addedOf(&own.Estimate)
			}
		}
		out.Paths = append(out.Paths, p)
	}
	return out
}

// AttributionHeadline is the Succeeded message's sentence on a four-path run: the added
// p90 split into its three parts, each with its interval.
func AttributionHeadline(res *perfv1alpha1.Result) string {
	a := res.Attribution
	if a == nil || a.ClientSidecar == nil || a.ServerSidecar == nil || a.Interaction == nil {
		return ""
	}
	p90 := func(part *perfv1alpha1.AttributedLatency) string {
		if part.Latency == nil || part.Latency.P90 == nil {
			return "n/a"
		}
		s := str(part.Latency.P90)
		if in := part.Interval; in != nil && in.Low.P90 != nil && in.High.P90 != nil {
			s += fmt.Sprintf(" [%s, %s]", str(in.Low.P90), str(in.High.P90))
		}
		return s
	}
	return fmt.Sprintf("added p90 split: client sidecar %s, server sidecar %s, interaction %s",
		p90(a.ClientSidecar), p90(a.ServerSidecar), p90(a.Interaction))
}
