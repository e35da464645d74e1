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

// Package queue orders exclusive PerfRuns: first come, first served, and a run waits only
// for runs whose nodes overlap its own. Pure: the controller reads the runs and nodes.
package queue

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Ahead names the earliest run that run must wait for among runs, "" when none: an
// exclusive run that measures, or waits ahead of it, on a node it may use. measuring tells
// whether another run measures, correcting the cache's view of it by the manager's own
// recent admissions. nodes is the cluster's nodes, when nodesKnown.
func Ahead(run *perfv1alpha1.PerfRun, runs []perfv1alpha1.PerfRun, nodes []corev1.Node, nodesKnown bool,
	measuring func(*perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool)) string {
	mine := NodesOf(run, nodes, nodesKnown)
	runs = slices.Clone(runs)
	slices.SortFunc(runs, func(a, b perfv1alpha1.PerfRun) int {
		switch {
		case Before(&a, &b):
			return -1
		case Before(&b, &a):
			return 1
		}
		return 0
	})
	for i := range runs {
		other := &runs[i]
		if other.UID == run.UID || !other.Spec.IsExclusive() || other.Finished() || other.Generation != other.Status.ObservedGeneration {
			continue
		}
		// Whoever measures holds its nodes; among those waiting, the earlier goes first.
		other, isMeasuring := measuring(other)
		waitingAhead := other.ConditionTrue(perfv1alpha1.ConditionQueued) && Before(other, run)
		if !isMeasuring && !waitingAhead {
			continue
		}
		if theirs := NodesOf(other, nodes, nodesKnown); mine.Overlaps(theirs) {
			state := "measuring"
			if !isMeasuring {
				state = "queued ahead"
			}
			return fmt.Sprintf("PerfRun %s/%s (%s on %s)", other.Namespace, other.Name, state, theirs)
		}
	}
	return ""
}

// Before orders runs first come, first served: by creation, then by namespace and name.
func Before(a, b *perfv1alpha1.PerfRun) bool {
	if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return a.CreationTimestamp.Before(&b.CreationTimestamp)
	}
	return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
}

// NodeSet is the nodes a run uses or may use; any means it cannot be told (every node).
type NodeSet struct {
	any   bool
	names map[string]bool
}

func (s NodeSet) Overlaps(o NodeSet) bool {
	if (s.any && (o.any || len(o.names) > 0)) || (o.any && len(s.names) > 0) {
		return true
	}
	for n := range s.names {
		if o.names[n] {
			return true
		}
	}
	return false
}

func (s NodeSet) String() string {
	if s.any {
		return "any node"
	}
	var names []string
	for n := range s.names {
		names = append(names, n)
	}
	sort.Strings(names)
	return "node " + strings.Join(names, ", ")
}

// NodesOf is where a run measures: its target's node and its load-tester pods', once
// scheduled; before that (and for a group not yet all placed), every schedulable node its
// load tester's nodeSelector and placement allow. Without the node list (or the target's
// node) it is every node.
func NodesOf(run *perfv1alpha1.PerfRun, nodes []corev1.Node, nodesKnown bool) NodeSet {
	env := run.Status.Environment
	if env == nil || env.TargetNode == "" {
		return NodeSet{any: true}
	}
	set := NodeSet{names: map[string]bool{env.TargetNode: true}}
	testers := env.LoadTesterNodes
	if len(testers) == 0 && env.LoadTesterNode != "" {
		testers = []string{env.LoadTesterNode} // a status written before loadTesterNodes
	}
	for _, n := range testers {
		set.names[n] = true
	}
	switch {
	case len(testers) > 0 && (run.Spec.LoadTester.EffectiveReplicas() == 1 || len(testers) >= int(run.Spec.LoadTester.EffectiveReplicas())):
		// Every load-tester pod's node is known. A group whose pods share nodes lists fewer
		// nodes than pods, and is taken to use every node it may (below): conservative.
	case run.Spec.Placement == perfv1alpha1.PlacementSameNode:
	case !nodesKnown:
		set.any = true
	default:
		sel := labels.SelectorFromSet(run.Spec.LoadTester.NodeSelector)
		for _, n := range nodes {
			if n.Spec.Unschedulable || !sel.Matches(labels.Set(n.Labels)) {
				continue
			}
			if run.Spec.Placement == perfv1alpha1.PlacementDifferentNodes && n.Name == env.TargetNode {
				continue
			}
			set.names[n.Name] = true
		}
	}
	return set
}
