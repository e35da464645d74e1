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

package regression

import (
	"strconv"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// outcomeFigures are the headlines of the scenarios whose measured call is not the whole
// story — a workflow's completion, a message's delivery, a scheduled trigger's lateness —
// and what never arrived. For those runs the call's latency is the start, the publish or
// the registration; without these a schedule would not see an engine twice as slow.
var outcomeFigures = outcomeFiguresOf()

// outcomeFiguresOf are each kind's p90 and p99, its added p90 where it has a baseline (its
// p99 moves too much between reruns to be held to a history), and its missing count.
func outcomeFiguresOf() []figure {
	var out []figure
	for _, k := range perfv1alpha1.OutcomeKinds {
		own := outcomeLatency(k, func(o *perfv1alpha1.Outcome) *perfv1alpha1.LatencySummary { return o.Latency })
		ownLow := outcomeLatency(k, func(o *perfv1alpha1.Outcome) *perfv1alpha1.LatencySummary { return low(o.LatencyInterval) })
		out = append(out,
			figure{k.Name + " p90", true, latency(own, p90), latency(ownLow, p90), latencyPrecision, dur},
			figure{k.Name + " p99", true, latency(own, p99), latency(ownLow, p99), latencyPrecision, dur})
		if k.HasBaseline {
			added := outcomeLatency(k, func(o *perfv1alpha1.Outcome) *perfv1alpha1.LatencySummary { return o.Added })
			addedLow := outcomeLatency(k, func(o *perfv1alpha1.Outcome) *perfv1alpha1.LatencySummary { return low(o.AddedInterval) })
			out = append(out, figure{k.Name + " added p90", true, latency(added, p90), latency(addedLow, p90), latencyPrecision, dur})
		}
		out = append(out, figure{k.Items + " " + k.MissingName(), true, func(r *perfv1alpha1.Result) (float64, bool) {
			o := k.Of(r)
			if o == nil || o.Counts == nil {
				return 0, false
			}
			return float64(o.Missing()), true
		}, nil, oneCount, count})
	}
	return out
}

// outcomeLatency reads one latency of kind k's outcome from a result: nil when it has none.
func outcomeLatency(k *perfv1alpha1.OutcomeKind,
	pick func(*perfv1alpha1.Outcome) *perfv1alpha1.LatencySummary) func(*perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	return func(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
		if o := k.Of(r); o != nil {
			return pick(o)
		}
		return nil
	}
}

// low is an interval's low end: the best case the run's own repetitions allow.
func low(in *perfv1alpha1.LatencyInterval) *perfv1alpha1.LatencySummary {
	if in == nil {
		return nil
	}
	return &in.Low
}

// oneCount is a count's precision: a change of one is within it, two is not.
func oneCount(*perfv1alpha1.Result, float64) float64 { return 1 }

func count(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
