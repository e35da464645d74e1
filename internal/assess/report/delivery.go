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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// deliveryOf maps a PubSub run's delivery figures; nil for other scenarios. The added
// delivery latency is claimed on the same terms as the added request latency (claimed):
// never for a rate that was not carried, a path that failed, or a tester too late.
func deliveryOf(sum *result.Summary, claimed bool) *perfv1alpha1.DeliveryResult {
	d := sum.Delivery
	if d == nil {
		return nil
	}
	out := &perfv1alpha1.DeliveryResult{}
	if p, ok := d.PathOf(result.Dapr); ok {
		out.Latency, out.LatencyInterval, out.Messages = deliveryLatency(p), intervalOf(p), messageCounts(p.Messages)
	}
	if p, ok := d.PathOf(result.Baseline); ok {
		out.Baseline, out.BaselineMessages = deliveryLatency(p), messageCounts(p.Messages)
	}
	if d.Added != nil && claimed && out.Messages != nil && out.Messages.Lost == 0 &&
		(out.BaselineMessages == nil || out.BaselineMessages.Lost == 0) {
		out.Added, out.AddedInterval = addedOf(d.Added)
	}
	return out
}

func deliveryLatency(p result.DeliveryPath) *perfv1alpha1.LatencySummary {
	if len(p.Percentiles) == 0 {
		return nil
	}
	return summarize(result.Merged{Percentiles: p.Percentiles, AvgUs: p.AvgUs, MaxUs: p.MaxUs})
}

// intervalOf is a path's own latency interval (its point is the merged latency); nil
// without one.
func intervalOf(p result.DeliveryPath) *perfv1alpha1.LatencyInterval {
	if p.Interval == nil {
		return nil
	}
	_, iv := addedOf(p.Interval)
	return iv
}

func messageCounts(m result.Messages) *perfv1alpha1.MessageCounts {
	out := &perfv1alpha1.MessageCounts{Published: m.Published, Delivered: m.Delivered, Lost: m.Lost,
		Duplicated: m.Duplicated, Unacknowledged: m.Unacknowledged, Late: m.Late, WatchedFor: watchedFor(m)}
	if l := m.ReceiptLag; l != nil {
		out.ReceiptLag = &perfv1alpha1.ReceiptLag{P99: *micros(l.P99Us), Max: *micros(l.MaxUs)}
	}
	return out
}

// watchedFor is how long the path's phases were watched after their close; nil: not.
func watchedFor(m result.Messages) *metav1.Duration {
	if m.WatchedMs == nil {
		return nil
	}
	return duration(time.Duration(*m.WatchedMs) * time.Millisecond)
}

// completionOf maps a Workflow run's instances (the load tester's book counts them as
// messages: started as published, ended as delivered, unfinished as lost); nil for other
// scenarios. There is no baseline, so nothing is added or claimed.
func completionOf(run *perfv1alpha1.PerfRun, sum *result.Summary) *perfv1alpha1.CompletionResult {
	p, ok := daprOutcomes(run, sum, perfv1alpha1.ScenarioWorkflow)
	if !ok {
		return nil
	}
	n := p.Messages
	return &perfv1alpha1.CompletionResult{Latency: deliveryLatency(p), LatencyInterval: intervalOf(p),
		ActivityDispatch: spectrum(p.Activities), Workflows: &perfv1alpha1.WorkflowCounts{
			Started: n.Published, Completed: n.Delivered - n.Failed, Failed: n.Failed, Unfinished: n.Lost}}
}

// triggersOf maps a Scheduler run's triggers (the load tester's book counts them as
// messages: registered as published, triggered as delivered, missed as lost, doubled as
// duplicated; a trigger of a registration whose call failed is not one of the registered's,
// so not counted triggered); nil for other scenarios.
func triggersOf(run *perfv1alpha1.PerfRun, sum *result.Summary) *perfv1alpha1.TriggerResult {
	p, ok := daprOutcomes(run, sum, perfv1alpha1.ScenarioScheduler)
	if !ok {
		return nil
	}
	n := p.Messages
	return &perfv1alpha1.TriggerResult{Lateness: deliveryLatency(p), LatenessInterval: intervalOf(p), Counts: &perfv1alpha1.TriggerCounts{
		Registered: n.Published, Triggered: n.Delivered - n.Unacknowledged, Missed: n.Lost, Doubled: n.Duplicated,
		Late: n.Late, WatchedFor: watchedFor(n)}}
}

// daprOutcomes is the Dapr path's asynchronous outcomes of a run of scenario (the load
// tester's book, which PubSub, Workflow and Scheduler share); false for a run of another.
func daprOutcomes(run *perfv1alpha1.PerfRun, sum *result.Summary, scenario perfv1alpha1.Scenario) (result.DeliveryPath, bool) {
	if run.Spec.Scenario != scenario || sum.Delivery == nil {
		return result.DeliveryPath{}, false
	}
	return sum.Delivery.PathOf(result.Dapr)
}
