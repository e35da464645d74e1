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

package queue

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// runOn is an exclusive run created at minute m, its target (and load tester) on node.
func runOn(name string, m int, node string, phase perfv1alpha1.Phase) perfv1alpha1.PerfRun {
	r := perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID(name), Generation: 1,
		CreationTimestamp: metav1.NewTime(t0.Add(time.Duration(m) * time.Minute))}}
	r.Status.ObservedGeneration = 1
	r.Status.Phase = phase
	if node != "" {
		r.Status.Environment = &perfv1alpha1.Environment{TargetNode: node, LoadTesterNode: node}
	}
	return r
}

func queued(r perfv1alpha1.PerfRun) perfv1alpha1.PerfRun {
	r.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionQueued, Status: metav1.ConditionTrue, ObservedGeneration: 1}}
	return r
}

func TestAheadWaitsOnlyForOverlappingRunsFirstComeFirstServed(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r, r.Status.Phase == perfv1alpha1.PhaseRunning
	}
	me := runOn("me", 5, "a", perfv1alpha1.PhasePending)
	shared := runOn("shared", 9, "a", perfv1alpha1.PhaseRunning)
	shared.Spec.Exclusive = ptr.To(false)
	for _, tc := range []struct {
		name   string
		others []perfv1alpha1.PerfRun
		want   string
	}{
		{"nothing else", nil, ""},
		{"a run measuring on my node", []perfv1alpha1.PerfRun{runOn("busy", 9, "a", perfv1alpha1.PhaseRunning)}, "PerfRun ns/busy (measuring on node a)"},
		{"a run measuring on another node", []perfv1alpha1.PerfRun{runOn("elsewhere", 1, "b", perfv1alpha1.PhaseRunning)}, ""},
		{"an earlier run queued on my node", []perfv1alpha1.PerfRun{queued(runOn("early", 1, "a", perfv1alpha1.PhasePending))}, "PerfRun ns/early (queued ahead on node a)"},
		{"a later run queued on my node", []perfv1alpha1.PerfRun{queued(runOn("late", 7, "a", perfv1alpha1.PhasePending))}, ""},
		{"a run whose nodes are not known yet", []perfv1alpha1.PerfRun{runOn("unplaced", 9, "", perfv1alpha1.PhaseRunning)}, "PerfRun ns/unplaced (measuring on any node)"},
		{"a non-exclusive run", []perfv1alpha1.PerfRun{shared}, ""},
		{"the earliest of two is named", []perfv1alpha1.PerfRun{runOn("second", 3, "a", perfv1alpha1.PhaseRunning), runOn("first", 2, "a", perfv1alpha1.PhaseRunning)},
			"PerfRun ns/first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Ahead(&me, append(tc.others, me), nodes, true, cached)
			if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
				t.Errorf("Ahead = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAheadTrustsTheManagersOwnRecentAdmissionsOverTheCache(t *testing.T) {
	me := runOn("me", 5, "a", perfv1alpha1.PhasePending)
	admitted := runOn("admitted", 9, "a", perfv1alpha1.PhasePending) // the cache has not seen it Running yet
	justAdmitted := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) { return r, r.Name == "admitted" }
	if got := Ahead(&me, []perfv1alpha1.PerfRun{admitted}, nil, false, justAdmitted); !strings.Contains(got, "ns/admitted (measuring") {
		t.Errorf("Ahead = %q, want the run this manager just admitted", got)
	}
}

func TestNodesOfAGroupHoldEveryLoadTesterPodsNode(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}, {ObjectMeta: metav1.ObjectMeta{Name: "c"}}}
	group := runOn("group", 1, "a", perfv1alpha1.PhaseRunning)
	group.Spec.LoadTester.Replicas = 2
	group.Status.Environment.LoadTesterNodes = []string{"a", "b"} // the leader on a, pod 1 on b
	if got := NodesOf(&group, nodes, true).String(); got != "node a, b" {
		t.Errorf("NodesOf = %s; want the nodes of both load-tester pods", got)
	}
	onB := runOn("onB", 5, "b", perfv1alpha1.PhasePending)
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r, r.Status.Phase == perfv1alpha1.PhaseRunning
	}
	if got := Ahead(&onB, []perfv1alpha1.PerfRun{group, onB}, nodes, true, cached); !strings.HasPrefix(got, "PerfRun ns/group") {
		t.Errorf("a run on b waits for a group whose pod 1 loads from b: Ahead = %q", got)
	}
	// Three pods on two nodes: which node holds two is not recorded, so the group holds
	// every node it may use.
	group.Spec.LoadTester.Replicas = 3
	if got := NodesOf(&group, nodes, true).String(); got != "node a, b, c" {
		t.Errorf("NodesOf = %s; want every node a group not known to be placed may use", got)
	}
}
