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
	r.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionQueued, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonWaitingForRun, ObservedGeneration: 1}}
	return r
}

func TestAheadWaitsOnlyForOverlappingRunsFirstComeFirstServed(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r, r.Status.Phase == perfv1alpha1.PhaseRunning
	}
	me := runOn("me", 5, "a", perfv1alpha1.PhasePending)
	sharedRun := shared(runOn("shared", 9, "a", perfv1alpha1.PhaseRunning))
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
		{"a run not placed yet: every node it may use", []perfv1alpha1.PerfRun{runOn("unplaced", 9, "", perfv1alpha1.PhaseRunning)}, "PerfRun ns/unplaced (measuring on node a, b)"},
		{"a non-exclusive run measuring on my node", []perfv1alpha1.PerfRun{sharedRun}, "PerfRun ns/shared (measuring on node a)"},
		{"the earliest of two is named", []perfv1alpha1.PerfRun{runOn("second", 3, "a", perfv1alpha1.PhaseRunning), runOn("first", 2, "a", perfv1alpha1.PhaseRunning)},
			"PerfRun ns/first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describe(Ahead(&me, append(tc.others, me), nodes, true, cached, nil), "ns")
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
	if got := describe(Ahead(&me, []perfv1alpha1.PerfRun{admitted}, nil, false, justAdmitted, nil), "ns"); !strings.Contains(got, "ns/admitted (measuring") {
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
	if got := describe(Ahead(&onB, []perfv1alpha1.PerfRun{group, onB}, nodes, true, cached, nil), "ns"); !strings.HasPrefix(got, "PerfRun ns/group") {
		t.Errorf("a run on b waits for a group whose pod 1 loads from b: Ahead = %q", got)
	}
	// Three pods on two nodes: which node holds two is not recorded, so the group holds
	// every node it may use.
	group.Spec.LoadTester.Replicas = 3
	if got := NodesOf(&group, nodes, true).String(); got != "node a, b, c" {
		t.Errorf("NodesOf = %s; want every node a group not known to be placed may use", got)
	}
}

// A State run on the namespace's own Component has no pod its load ends at: once its load
// tester is placed it holds that node alone, not every node.
func TestNodesOfAStateRunOnANamedComponentAreItsLoadTestersOnly(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}
	run := runOn("kv", 1, "", perfv1alpha1.PhaseRunning)
	run.Spec.Scenario, run.Spec.State = perfv1alpha1.ScenarioState, &perfv1alpha1.StateSpec{Component: "orders"}
	if got := NodesOf(&run, nodes, true).String(); got != "node a, b" {
		t.Errorf("before its load tester is placed: NodesOf = %s, want every node it may use", got)
	}
	run.Status.Environment = &perfv1alpha1.Environment{LoadTesterNodes: []string{"b"}}
	if got := NodesOf(&run, nodes, true).String(); got != "node b" {
		t.Errorf("NodesOf = %s, want the load tester's node alone", got)
	}
}

func describe(b *Blocker, namespace string) string {
	if b == nil {
		return ""
	}
	return b.DescribeFor(namespace)
}

func inNamespace(ns string, r perfv1alpha1.PerfRun) perfv1alpha1.PerfRun {
	r.Namespace = ns
	return r
}

func shared(r perfv1alpha1.PerfRun) perfv1alpha1.PerfRun {
	r.Spec.Exclusive = ptr.To(false)
	return r
}

// A non-exclusive run never measures beside an exclusive one: it waits for an exclusive
// run measuring, or queued ahead, on its nodes; two shared runs never wait for each other.
func TestASharedRunWaitsForExclusiveRunsOnly(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r, r.Status.Phase == perfv1alpha1.PhaseRunning
	}
	me := shared(runOn("me", 5, "a", perfv1alpha1.PhasePending))
	for _, tc := range []struct {
		name  string
		other perfv1alpha1.PerfRun
		want  string
	}{
		{"an exclusive run measuring on my node", runOn("exclusive", 1, "a", perfv1alpha1.PhaseRunning), "PerfRun ns/exclusive (measuring on node a)"},
		{"an exclusive run queued ahead on my node", queued(runOn("early", 1, "a", perfv1alpha1.PhasePending)), "PerfRun ns/early (queued ahead on node a)"},
		{"an exclusive run measuring elsewhere", runOn("elsewhere", 1, "b", perfv1alpha1.PhaseRunning), ""},
		{"another shared run on my node", shared(runOn("other", 1, "a", perfv1alpha1.PhaseRunning)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describe(Ahead(&me, []perfv1alpha1.PerfRun{tc.other, me}, nodes, true, cached, nil), "ns")
			if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
				t.Errorf("Ahead = %q, want %q", got, tc.want)
			}
		})
	}
}

// Waiting runs go in turns by namespace: tenant A's second run waits behind tenant B's
// first even when A created both earlier.
func TestWaitingRunsTakeTurnsByNamespace(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}}
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r, r.Status.Phase == perfv1alpha1.PhaseRunning
	}
	a1 := queued(inNamespace("team-a", runOn("a1", 1, "a", perfv1alpha1.PhasePending)))
	a2 := queued(inNamespace("team-a", runOn("a2", 2, "a", perfv1alpha1.PhasePending)))
	b1 := queued(inNamespace("team-b", runOn("b1", 3, "a", perfv1alpha1.PhasePending)))
	all := []perfv1alpha1.PerfRun{a1, a2, b1}
	if got := Ahead(&b1, all, nodes, true, cached, nil); got == nil || got.Run.Name != "a1" {
		t.Errorf("team-b's first run waits for team-a's first only, got %+v", got)
	}
	if got := Ahead(&a2, all, nodes, true, cached, nil); got == nil || got.Run.Name != "a1" {
		t.Errorf("team-a's second run waits for its own first, got %+v", got)
	}
	// a1 was admitted and has finished: b1 goes before a2 although a2 is older, since
	// team-a was served last.
	served := func(ns string) time.Time {
		if ns == "team-a" {
			return t0.Add(10 * time.Minute)
		}
		return time.Time{}
	}
	rest := []perfv1alpha1.PerfRun{a2, b1}
	if got := Ahead(&b1, rest, nodes, true, cached, served); got != nil {
		t.Errorf("team-b's first run waits for %s", got.Run.Name)
	}
	if got := Ahead(&a2, rest, nodes, true, cached, served); got == nil || got.Run.Name != "b1" {
		t.Errorf("team-a's second run waits for team-b's first, got %+v", got)
	}
}

// A queued run learns nothing of another tenant's runs or nodes.
func TestBlockerNamesOnlyTheAskingNamespacesRuns(t *testing.T) {
	theirs := inNamespace("team-b", runOn("secret-project", 1, "gpu-node-7", perfv1alpha1.PhaseRunning))
	b := &Blocker{Run: &theirs, Measuring: true, Nodes: NodesOf(&theirs, nil, false)}
	if got := b.DescribeFor("team-a"); strings.Contains(got, "secret-project") || strings.Contains(got, "team-b") || strings.Contains(got, "gpu-node-7") {
		t.Errorf("DescribeFor another namespace = %q", got)
	}
	if got := b.DescribeFor("team-b"); !strings.Contains(got, "PerfRun team-b/secret-project (measuring on node gpu-node-7)") {
		t.Errorf("DescribeFor its own namespace = %q", got)
	}
}

// A run waiting for its namespace's share has nothing placed: it holds no place in the
// node queue.
func TestARunWaitingForItsNamespacesShareHoldsNoPlace(t *testing.T) {
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) { return r, false }
	early := runOn("early", 1, "", perfv1alpha1.PhasePending)
	early.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionQueued, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonNamespaceLimit}}
	me := runOn("me", 5, "a", perfv1alpha1.PhasePending)
	if got := Ahead(&me, []perfv1alpha1.PerfRun{early, me}, nil, false, cached, nil); got != nil {
		t.Errorf("Ahead = %s", got.DescribeFor("ns"))
	}
}

// A run's other targets (variants, the sidecar-free twin) are not bound to the recorded
// target's node: the run holds every node they may use.
func TestNodesOfARunWithSeveralTargetsHoldEveryNodeTheyMayUse(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"pool": "bench"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "b", Labels: map[string]string{"pool": "bench"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "c", Labels: map[string]string{"pool": "other"}}}}
	one := runOn("one", 1, "a", perfv1alpha1.PhaseRunning)
	one.Spec.Baseline = ptr.To(false)
	if got := NodesOf(&one, nodes, true).String(); got != "node a" {
		t.Errorf("one target: NodesOf = %s", got)
	}
	ab := one
	ab.Spec.Variants = []perfv1alpha1.SidecarVariant{{Name: "a"}, {Name: "b"}}
	ab.Spec.Target.NodeSelector = map[string]string{"pool": "bench"}
	if got := NodesOf(&ab, nodes, true).String(); got != "node a, b" {
		t.Errorf("two variants: NodesOf = %s, want every node the target's selector allows", got)
	}
	if got := NodesOf(&ab, nil, false).String(); got != "any node" {
		t.Errorf("two variants, nodes unknown: NodesOf = %s", got)
	}
}

// A run not yet placed (waiting in the queue, or admitted and creating its pods) may use
// every node its target's or load tester's nodeSelector allows: runs on disjoint node pools
// never wait for each other, runs on one pool do, and a run no node can take overlaps all.
func TestNodesOfAnUnplacedRunAreThoseItsSelectorsAllow(t *testing.T) {
	pool := func(name, p string) corev1.Node {
		return corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"pool": p}}}
	}
	nodes := []corev1.Node{pool("a1", "a"), pool("a2", "a"), pool("b1", "b")}
	onPool := func(name, p string, m int) perfv1alpha1.PerfRun {
		r := runOn(name, m, "", perfv1alpha1.PhasePending)
		r.Spec.Target.NodeSelector = map[string]string{"pool": p}
		r.Spec.LoadTester.NodeSelector = map[string]string{"pool": p}
		return r
	}
	admittedOnA := onPool("team-a", "a", 0)
	admittedOnA.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionQueued, Status: metav1.ConditionFalse,
		Reason: perfv1alpha1.ReasonAdmitted, ObservedGeneration: 1}}
	holding := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) { return r, r.Admitted() }
	never := func(string) time.Time { return time.Time{} }

	onB, alsoOnA := onPool("team-b", "b", 1), onPool("team-a-2", "a", 2)
	if b := Ahead(&onB, []perfv1alpha1.PerfRun{admittedOnA}, nodes, true, holding, never); b != nil {
		t.Errorf("a run on pool b waits for %s, admitted on pool a", b.Run.Name)
	}
	if b := Ahead(&alsoOnA, []perfv1alpha1.PerfRun{admittedOnA}, nodes, true, holding, never); b == nil || b.Run.Name != "team-a" {
		t.Errorf("a run on pool a is not held by the run admitted there: %+v", b)
	}
	if got := NodesOf(&admittedOnA, nodes, true).String(); got != "node a1, a2" {
		t.Errorf("an unplaced run on pool a may use %s", got)
	}
	nowhere := onPool("nowhere", "c", 3)
	if got := NodesOf(&nowhere, nodes, true).String(); got != "any node" {
		t.Errorf("a run no node can take uses %s, want any node", got)
	}
}

// Dapr's scheduler serves every namespace: a run that loads it (a Scheduler run's jobs or
// reminders, a Workflow run) waits for another such run wherever their nodes are, and a
// run that does not (invocation, a Scheduler run's timers, kept by their actor's daprd)
// does not wait for one on another node.
func TestRunsThatLoadDaprsSchedulerWaitForEachOtherOnAnyNode(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r, r.Status.Phase == perfv1alpha1.PhaseRunning
	}
	as := func(r perfv1alpha1.PerfRun, scenario perfv1alpha1.Scenario, api perfv1alpha1.SchedulerAPI) perfv1alpha1.PerfRun {
		r.Spec.Scenario = scenario
		if api != "" {
			r.Spec.Scheduler = &perfv1alpha1.SchedulerSpec{API: api}
		}
		return r
	}
	jobs := as(runOn("jobs", 1, "a", perfv1alpha1.PhaseRunning), perfv1alpha1.ScenarioScheduler, perfv1alpha1.SchedulerJobs)
	for _, tc := range []struct {
		name string
		me   perfv1alpha1.PerfRun
		want string
	}{
		{"workflows on another node", as(runOn("wf", 5, "b", perfv1alpha1.PhasePending), perfv1alpha1.ScenarioWorkflow, ""),
			"PerfRun ns/jobs (measuring on Dapr's scheduler, which both runs load)"},
		{"reminders on another node", as(runOn("rem", 5, "b", perfv1alpha1.PhasePending), perfv1alpha1.ScenarioScheduler, perfv1alpha1.SchedulerActorReminders),
			"PerfRun ns/jobs (measuring on Dapr's scheduler"},
		{"timers on another node", as(runOn("tim", 5, "b", perfv1alpha1.PhasePending), perfv1alpha1.ScenarioScheduler, perfv1alpha1.SchedulerActorTimers), ""},
		{"invocation on another node", runOn("inv", 5, "b", perfv1alpha1.PhasePending), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describe(Ahead(&tc.me, []perfv1alpha1.PerfRun{jobs, tc.me}, nodes, true, cached, nil), "ns")
			if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
				t.Errorf("Ahead = %q, want %q", got, tc.want)
			}
			if other := describe(Ahead(&tc.me, []perfv1alpha1.PerfRun{inNamespace("other", jobs), tc.me}, nodes, true, cached, nil), "ns"); tc.want != "" &&
				other != "a run of another namespace (measuring on Dapr's scheduler, which both runs load)" {
				t.Errorf("another namespace's run: %q", other)
			}
		})
	}
}

// A run that takes Dapr's control plane down (a PodKill of its scheduler, placement or
// sentry) disturbs every run through Dapr on any node: it waits for every other run, and
// every other run waits for it, whatever their nodes and exclusive say.
func TestARunThatTakesTheControlPlaneDownHoldsTheWholeCluster(t *testing.T) {
	nodes := []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}
	cached := func(r *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r, r.Status.Phase == perfv1alpha1.PhaseRunning
	}
	outage := func(r perfv1alpha1.PerfRun, role perfv1alpha1.FaultRole) perfv1alpha1.PerfRun {
		r.Spec.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(role)}}
		return r
	}
	const wholeCluster = "on the whole cluster, as one of the two takes Dapr's control plane down"
	for _, tc := range []struct {
		name      string
		me, other perfv1alpha1.PerfRun
		want      string
	}{
		{"a shared run measuring on another node, ahead of a scheduler outage",
			outage(shared(runOn("outage", 5, "b", perfv1alpha1.PhasePending)), perfv1alpha1.FaultRoleScheduler),
			shared(runOn("busy", 1, "a", perfv1alpha1.PhaseRunning)), "PerfRun ns/busy (measuring " + wholeCluster + ")"},
		{"a placement outage measuring on another node, ahead of a shared run",
			shared(runOn("late", 5, "b", perfv1alpha1.PhasePending)),
			outage(shared(runOn("outage", 1, "a", perfv1alpha1.PhaseRunning)), perfv1alpha1.FaultRolePlacement), "PerfRun ns/outage (measuring " + wholeCluster + ")"},
		{"a kill of the run's own target holds only its nodes",
			outage(shared(runOn("own", 5, "b", perfv1alpha1.PhasePending)), perfv1alpha1.FaultRoleTarget),
			shared(runOn("busy", 1, "a", perfv1alpha1.PhaseRunning)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describe(Ahead(&tc.me, []perfv1alpha1.PerfRun{tc.other, tc.me}, nodes, true, cached, nil), "ns")
			if got != tc.want {
				t.Errorf("Ahead = %q, want %q", got, tc.want)
			}
			if tc.want == "" {
				return
			}
			if got := describe(Ahead(&tc.me, []perfv1alpha1.PerfRun{inNamespace("other", tc.other), tc.me}, nodes, true, cached, nil), "ns"); got != "a run of another namespace (measuring "+wholeCluster+")" {
				t.Errorf("another namespace's run: %q", got)
			}
		})
	}
}
