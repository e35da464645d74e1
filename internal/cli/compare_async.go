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

package cli

import (
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// asyncPath is an asynchronous scenario's own latency, beside its call's: the Dapr path's
// with its confidence interval over the repetitions, and Dapr's added one when the scenario
// has a baseline (PubSub's delivery). Zero for a result of another scenario.
type asyncPath struct {
	latency, added                 *perfv1alpha1.LatencySummary
	latencyInterval, addedInterval *perfv1alpha1.LatencyInterval
	// beside is a figure without an interval, shown ungated after the latency: a Workflow
	// run's activity dispatch, which says where a change of its completion went.
	beside     *perfv1alpha1.LatencySummary
	besideName string
	// counts are what a reader weighs the latency against: the messages lost, the instances
	// failed, the triggers missed.
	counts []asyncCount
}

type asyncCount struct {
	name string
	n    int64
}

// asyncPaths are PubSub's delivery, Workflow's completion and Scheduler's trigger lateness,
// by the name compare gives their figures.
var asyncPaths = []struct {
	name string
	of   func(*perfv1alpha1.Result) asyncPath
}{
	{"delivery", func(r *perfv1alpha1.Result) asyncPath {
		d := r.Delivery
		if d == nil {
			return asyncPath{}
		}
		p := asyncPath{latency: d.Latency, added: d.Added, latencyInterval: d.LatencyInterval, addedInterval: d.AddedInterval}
		if n := d.Messages; n != nil {
			p.counts = []asyncCount{{"messages lost", n.Lost}}
		}
		return p
	}},
	{"completion", func(r *perfv1alpha1.Result) asyncPath {
		c := r.Completion
		if c == nil {
			return asyncPath{}
		}
		p := asyncPath{latency: c.Latency, latencyInterval: c.LatencyInterval, beside: c.ActivityDispatch, besideName: "activity dispatch"}
		if n := c.Workflows; n != nil {
			p.counts = []asyncCount{{"workflows failed", n.Failed}, {"workflows unfinished", n.Unfinished}}
		}
		return p
	}},
	{"trigger lateness", func(r *perfv1alpha1.Result) asyncPath {
		t := r.Triggers
		if t == nil {
			return asyncPath{}
		}
		p := asyncPath{latency: t.Lateness, latencyInterval: t.LatenessInterval}
		if n := t.Counts; n != nil {
			p.counts = []asyncCount{{"triggers missed", n.Missed}, {"triggers doubled", n.Doubled}}
		}
		return p
	}},
}

// asyncPaths adds each asynchronous figure both results have, compared as the call's latency
// is: Dapr's added figure gated when both sides have one, else the Dapr path's own (a
// workflow, a job or a reminder has no Dapr-less baseline, as a run without one has none);
// both with their confidence intervals widened to cover a rerun, as the added latency's are.
func (c *comparer) asyncPaths() {
	for _, ap := range asyncPaths {
		pa, pb := ap.of(c.a), ap.of(c.b)
		gateAdded := pa.added != nil && pb.added != nil
		for _, p := range perfv1alpha1.HeadlinePercentiles {
			c.figure(ap.name+" "+p.Name, p.Of, pa.latency, pb.latency, intervalEnds(pa.latencyInterval), intervalEnds(pb.latencyInterval), c.acrossReruns(p.Name), !gateAdded)
		}
		for _, p := range perfv1alpha1.HeadlinePercentiles {
			c.figure(ap.name+" added "+p.Name, p.Of, pa.added, pb.added, intervalEnds(pa.addedInterval), intervalEnds(pb.addedInterval), c.acrossReruns(p.Name), gateAdded)
		}
		for _, p := range perfv1alpha1.HeadlinePercentiles {
			c.figure(pa.besideName+" "+p.Name, p.Of, pa.beside, pb.beside, nil, nil, nil, false)
		}
		if len(pa.counts) > 0 && len(pb.counts) > 0 {
			for i, n := range pa.counts {
				c.count(n.name, n.n, pb.counts[i].n)
			}
		}
	}
}
