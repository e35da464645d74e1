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
var outcomeFigures = []figure{
	{"completion p90", true, latency(completion, p90), latency(completionLow, p90), latencyPrecision, dur},
	{"completion p99", true, latency(completion, p99), latency(completionLow, p99), latencyPrecision, dur},
	{"delivery p90", true, latency(delivery, p90), latency(deliveryLow, p90), latencyPrecision, dur},
	{"delivery p99", true, latency(delivery, p99), latency(deliveryLow, p99), latencyPrecision, dur},
	{"delivery added p90", true, latency(deliveryAdded, p90), latency(deliveryAddedLow, p90), latencyPrecision, dur},
	{"trigger lateness p90", true, latency(lateness, p90), latency(latenessLow, p90), latencyPrecision, dur},
	{"trigger lateness p99", true, latency(lateness, p99), latency(latenessLow, p99), latencyPrecision, dur},
	{"workflows failed or unfinished", true, missingWorkflows, nil, oneCount, count},
	{"messages lost", true, lostMessages, nil, oneCount, count},
	{"triggers missed", true, missedTriggers, nil, oneCount, count},
}

func completion(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Completion == nil {
		return nil
	}
	return r.Completion.Latency
}

func completionLow(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Completion == nil {
		return nil
	}
	return low(r.Completion.LatencyInterval)
}

func delivery(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Delivery == nil {
		return nil
	}
	return r.Delivery.Latency
}

func deliveryLow(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Delivery == nil {
		return nil
	}
	return low(r.Delivery.LatencyInterval)
}

func deliveryAdded(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Delivery == nil {
		return nil
	}
	return r.Delivery.Added
}

func deliveryAddedLow(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Delivery == nil {
		return nil
	}
	return low(r.Delivery.AddedInterval)
}

func lateness(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Triggers == nil {
		return nil
	}
	return r.Triggers.Lateness
}

func latenessLow(r *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if r.Triggers == nil {
		return nil
	}
	return low(r.Triggers.LatenessInterval)
}

// low is an interval's low end: the best case the run's own repetitions allow.
func low(in *perfv1alpha1.LatencyInterval) *perfv1alpha1.LatencySummary {
	if in == nil {
		return nil
	}
	return &in.Low
}

func missingWorkflows(r *perfv1alpha1.Result) (float64, bool) {
	if r.Completion == nil || r.Completion.Workflows == nil {
		return 0, false
	}
	return float64(r.Completion.Workflows.Failed + r.Completion.Workflows.Unfinished), true
}

func lostMessages(r *perfv1alpha1.Result) (float64, bool) {
	if r.Delivery == nil || r.Delivery.Messages == nil {
		return 0, false
	}
	return float64(r.Delivery.Messages.Lost), true
}

func missedTriggers(r *perfv1alpha1.Result) (float64, bool) {
	if r.Triggers == nil || r.Triggers.Counts == nil {
		return 0, false
	}
	return float64(r.Triggers.Counts.Missed), true
}

// oneCount is a count's precision: a change of one is within it, two is not.
func oneCount(*perfv1alpha1.Result, float64) float64 { return 1 }

func count(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
