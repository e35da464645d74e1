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
// mean split into its three parts (only means add up), then each one-sidecar path's p90
// over direct, each with its interval.
func AttributionHeadline(res *perfv1alpha1.Result) string {
	a := res.Attribution
	if a == nil || a.ClientSidecar == nil || a.ServerSidecar == nil || a.Interaction == nil {
		return ""
	}
	at := func(part *perfv1alpha1.AttributedLatency, f perfv1alpha1.LatencyFigure) string {
		if part.Latency == nil || f.Of(part.Latency) == nil {
			return "n/a"
		}
		s := str(f.Of(part.Latency))
		if in := part.Interval; in != nil && f.Of(&in.Low) != nil && f.Of(&in.High) != nil {
			s += fmt.Sprintf(" [%s, %s]", str(f.Of(&in.Low)), str(f.Of(&in.High)))
		}
		return s
	}
	mean, p90 := perfv1alpha1.FigureAvg, perfv1alpha1.FigureP90
	return fmt.Sprintf("added mean split: client sidecar %s, server sidecar %s, interaction %s; "+
		"p90 over direct (not parts of the added p90): client sidecar only %s, server sidecar only %s",
		at(a.ClientSidecar, mean), at(a.ServerSidecar, mean), at(a.Interaction, mean), at(a.ClientSidecar, p90), at(a.ServerSidecar, p90))
}
