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

package compare

import (
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// asyncPaths adds each asynchronous figure both results have (delivery, completion, trigger
// lateness), compared as the call's latency is: Dapr's added figure gated when both sides
// have one, else the Dapr path's own (a workflow, a job or a reminder has no Dapr-less
// baseline, as a run without one has none); both with their confidence intervals widened to
// cover a rerun, as the added latency's are. A figure beside it (a Workflow run's activity
// dispatch) is shown ungated, and the counts a reader weighs the latency against follow.
func (c *comparer) asyncPaths() {
	for _, k := range perfv1alpha1.OutcomeKinds {
		pa, pb := k.Of(c.a), k.Of(c.b)
		if pa == nil {
			pa = &perfv1alpha1.Outcome{Kind: k}
		}
		if pb == nil {
			pb = &perfv1alpha1.Outcome{Kind: k}
		}
		gateAdded := pa.Added != nil && pb.Added != nil
		for _, p := range perfv1alpha1.HeadlinePercentiles {
			c.figure(k.Name+" "+p.Name, p.Of, pa.Latency, pb.Latency, intervalEnds(pa.LatencyInterval), intervalEnds(pb.LatencyInterval), c.acrossReruns(p.Name), !gateAdded)
		}
		for _, p := range perfv1alpha1.HeadlinePercentiles {
			c.figure(k.Name+" added "+p.Name, p.Of, pa.Added, pb.Added, intervalEnds(pa.AddedInterval), intervalEnds(pb.AddedInterval), c.acrossReruns(p.Name), gateAdded)
		}
		for _, p := range perfv1alpha1.HeadlinePercentiles {
			c.figure(k.BesideName+" "+p.Name, p.Of, pa.Beside, pb.Beside, nil, nil, nil, false)
		}
		if pa.Counts != nil && pb.Counts != nil {
			for i, f := range k.FaultNames {
				c.count(k.Items+" "+f.Name, pa.Counts.Faults[i], pb.Counts.Faults[i])
			}
		}
	}
}
