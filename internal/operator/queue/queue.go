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

// Package queue orders PerfRuns that must not measure side by side: a run waits only for
// runs whose nodes overlap its own, or that load Dapr's shared scheduler as it does, or for
// any run when either takes Dapr's control plane down, in turns by namespace, then first
// come, first served.
// Pure: the controller reads the runs and nodes.
package queue

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Blocker is the run another must wait for, and why.
type Blocker struct {
	Run       *perfv1alpha1.PerfRun
	Measuring bool // false: it waits ahead
	Nodes     NodeSet
	// Scheduler: both runs load Dapr's scheduler, which every namespace shares, whatever
	// their nodes.
	Scheduler bool
	// ControlPlane: one of the two takes Dapr's control plane down, which every run through
	// Dapr on any node shares: it holds the whole cluster.
	ControlPlane bool
}

// DescribeFor says what the asking run waits for, naming the other run and its nodes only
// when both are in the asking namespace: a tenant learns no other tenant's runs or nodes.
func (b *Blocker) DescribeFor(namespace string) string {
	state := "measuring"
	if !b.Measuring {
		state = "queued ahead"
	}
	where := "on a node this run may use"
	switch {
	case b.ControlPlane:
		where = "on the whole cluster, as one of the two takes Dapr's control plane down"
	case b.Scheduler:
		where = "on Dapr's scheduler, which both runs load"
	}
	if b.Run.Namespace != namespace {
		return fmt.Sprintf("a run of another namespace (%s %s)", state, where)
	}
	if !b.Scheduler && !b.ControlPlane {
		where = "on " + b.Nodes.String()
	}
	return fmt.Sprintf("PerfRun %s/%s (%s %s)", b.Run.Namespace, b.Run.Name, state, where)
}

// Ahead is the earliest run that run must wait for among runs, nil when none. Two runs
// conflict when either is exclusive (spec.exclusive=false opts a run out of waiting for
// other shared runs only: it never measures on a node beside an exclusive run). run waits
// for a conflicting run that measures, or waits ahead of it, on a node it may use.
// measuring tells whether another run measures, correcting the cache's view of it by the
// manager's own recent admissions. nodes is the cluster's nodes, when nodesKnown.
//
// Waiting runs go in turns by namespace: each namespace's first waiting run before any
// namespace's second; among firsts, the namespace served least recently (lastServed: when
// it last had a run admitted), then first come, first served. So one tenant's backlog never
// holds back another tenant's one run for more than one turn.
func Ahead(run *perfv1alpha1.PerfRun, runs []perfv1alpha1.PerfRun, nodes []corev1.Node, nodesKnown bool,
	measuring func(*perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool), lastServed func(namespace string) time.Time) *Blocker {
	mine := NodesOf(run, nodes, nodesKnown)
	turns := turnsOf(run, runs)
	turns.lastServed = lastServed
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
		// A run that takes the control plane down holds the whole cluster, exclusive or not.
		wholeCluster := run.Spec.KillsControlPlane() || other.Spec.KillsControlPlane()
		if other.UID == run.UID || !(run.Spec.IsExclusive() || other.Spec.IsExclusive() || wholeCluster) || other.Finished() {
			continue
		}
		// Whoever measures holds its nodes; among those waiting, the earlier turn goes first.
		// A run admitted in its very first pass holds them before the cache shows any status
		// of it: the manager's memory of the admission answers first.
		other, isMeasuring := measuring(other)
		if other.Generation != other.Status.ObservedGeneration {
			continue // a spec edited since: its old status says nothing of the new run
		}
		waitingAhead := WaitsForTurn(other) && turns.before(other, run)
		if !isMeasuring && !waitingAhead {
			continue
		}
		theirs := NodesOf(other, nodes, nodesKnown)
		if wholeCluster {
			return &Blocker{Run: other, Measuring: isMeasuring, Nodes: theirs, ControlPlane: true}
		}
		if mine.Overlaps(theirs) {
			return &Blocker{Run: other, Measuring: isMeasuring, Nodes: theirs}
		}
		if loadsScheduler(run) && loadsScheduler(other) {
			return &Blocker{Run: other, Measuring: isMeasuring, Nodes: theirs, Scheduler: true}
		}
	}
	return nil
}

// loadsScheduler: run's load lands on Dapr's scheduler, shared by every namespace, so two
// such runs disturb each other wherever their pods are.
func loadsScheduler(run *perfv1alpha1.PerfRun) bool {
	loads := perfv1alpha1.CapabilityOf(run.Spec.Scenario).LoadsScheduler
	return loads != nil && run.Spec.DaprEnabled() && loads(&run.Spec)
}

// WaitsForTurn reports whether run waits for its turn on its nodes (Queued, WaitingForRun).
// Like a run that waits for its namespace's share it has created nothing yet; unlike that
// one it holds a place in the queue.
func WaitsForTurn(run *perfv1alpha1.PerfRun) bool {
	c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionQueued)
	return c != nil && c.Status == metav1.ConditionTrue && c.Reason == perfv1alpha1.ReasonWaitingForRun
}

// turns numbers each waiting run within its namespace (0 for a namespace's earliest).
type turns struct {
	rank       map[types.UID]int
	lastServed func(namespace string) time.Time
}

// turnsOf numbers the waiting runs, and run itself, by namespace in creation order.
func turnsOf(run *perfv1alpha1.PerfRun, runs []perfv1alpha1.PerfRun) turns {
	var waiting []*perfv1alpha1.PerfRun
	seen := false
	for i := range runs {
		r := &runs[i]
		if r.UID == run.UID {
			seen = true
			waiting = append(waiting, run)
			continue
		}
		if !r.Finished() && WaitsForTurn(r) {
			waiting = append(waiting, r)
		}
	}
	if !seen {
		waiting = append(waiting, run)
	}
	slices.SortFunc(waiting, func(a, b *perfv1alpha1.PerfRun) int {
		switch {
		case Before(a, b):
			return -1
		case Before(b, a):
			return 1
		}
		return 0
	})
	t, perNamespace := turns{rank: map[types.UID]int{}}, map[string]int{}
	for _, r := range waiting {
		t.rank[r.UID] = perNamespace[r.Namespace]
		perNamespace[r.Namespace]++
	}
	return t
}

// before orders two waiting runs: the earlier turn, then the namespace served less
// recently, then first come, first served.
func (t turns) before(a, b *perfv1alpha1.PerfRun) bool {
	if ta, tb := t.rank[a.UID], t.rank[b.UID]; ta != tb {
		return ta < tb
	}
	if t.lastServed != nil && a.Namespace != b.Namespace {
		if sa, sb := t.lastServed(a.Namespace), t.lastServed(b.Namespace); !sa.Equal(sb) {
			return sa.Before(sb)
		}
	}
	return Before(a, b)
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
// load tester's nodeSelector and placement allow. A run not yet placed at all — waiting in
// the queue, or admitted and creating its pods — may use every schedulable node its
// target's or its load tester's nodeSelector allows, so runs on disjoint node pools never
// wait for each other. Without the node list (or a node the selectors allow) it is every
// node.
func NodesOf(run *perfv1alpha1.PerfRun, nodes []corev1.Node, nodesKnown bool) NodeSet {
	env := run.Status.Environment
	placed := env != nil && (env.TargetNode != "" || (!workload.HasTargetPod(run) && (len(env.LoadTesterNodes) > 0 || env.LoadTesterNode != "")))
	if !placed {
		if !nodesKnown {
			return NodeSet{any: true}
		}
		set := NodeSet{names: map[string]bool{}}
		set.addSelected(run.Spec.Target.NodeSelector, nodes)
		set.addSelected(run.Spec.LoadTester.NodeSelector, nodes)
		if len(set.names) == 0 {
			return NodeSet{any: true} // no node it could land on: it cannot be told
		}
		return set
	}
	set := NodeSet{names: map[string]bool{}}
	if env.TargetNode != "" {
		set.names[env.TargetNode] = true
	}
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
	if len(run.Spec.Variants) > 1 || run.Spec.BaselineTwinEnabled() {
		set.addTargetsNodes(run, nodes, nodesKnown)
	}
	return set
}

// addSelected adds every schedulable node that selector (a pod's nodeSelector) allows.
func (s *NodeSet) addSelected(selector map[string]string, nodes []corev1.Node) {
	sel := labels.SelectorFromSet(selector)
	for _, n := range nodes {
		if !n.Spec.Unschedulable && sel.Matches(labels.Set(n.Labels)) {
			s.names[n.Name] = true
		}
	}
}

// addTargetsNodes adds where a run's other target pods (a variant's Deployment, the
// sidecar-free twin) may land: only the first target's node is recorded, and the others
// are not bound to it, so every schedulable node the target's nodeSelector allows.
func (s *NodeSet) addTargetsNodes(run *perfv1alpha1.PerfRun, nodes []corev1.Node, nodesKnown bool) {
	if !nodesKnown {
		s.any = true
		return
	}
	s.addSelected(run.Spec.Target.NodeSelector, nodes)
}
