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

package workload

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Side is one scenario's operator side: what a run of it provisions beside the load tester,
// what it waits for, and which paths the load tester drives. Each scenario registers its
// own from its folder (internal/scenario/<name>, RegisterSide); the rest of the operator asks
// through the functions below and never switches on the scenario. docs/architecture.md
// lists every side.
type Side interface {
	// Children are the objects the scenario owns besides the run's common ones (its service
	// account, NetworkPolicies, tracing Configuration), in the order they are applied.
	Children(run *perfv1alpha1.PerfRun, o Options) []client.Object
	// Waited are the Deployments that must be Available before the load starts.
	Waited(run *perfv1alpha1.PerfRun) []string
	// Demands are what the scenario's pods will request (the load tester's is added by PodDemands).
	Demands(run *perfv1alpha1.PerfRun, o Options) []PodDemand
	// PathEnv are the load tester's settings naming the paths it measures: the Dapr path(s)
	// and, when the run has one, the baseline. targetIP is the Dapr target pod's IP (when the
	// run needs it, see NeedsTargetIP).
	PathEnv(run *perfv1alpha1.PerfRun, targetIP string) []corev1.EnvVar
	// Unwanted are children an earlier generation may have made that this one does not want
	// (a twin baseline switched off, a store given up for a named Component): deleted when found.
	Unwanted(run *perfv1alpha1.PerfRun) []client.Object
	// Peer is the role of the pods spec.placement places the load tester relative to.
	Peer(run *perfv1alpha1.PerfRun) Role
	// NeedsTargetIP: the load tester must be told the Dapr target pod's IP.
	NeedsTargetIP(run *perfv1alpha1.PerfRun) bool
	// TesterAppPort is the app port of the load tester's daprd (0: none, a caller only).
	TesterAppPort(run *perfv1alpha1.PerfRun) int
}

// TargetHoster is a side whose target app hosts something of the scenario's own (an actor
// type): the target's extra arguments and annotations.
type TargetHoster interface {
	TargetApp(run *perfv1alpha1.PerfRun) (args []string, annotations map[string]string)
}

// LeftoverDeclarer is a side that may have declared Dapr objects under any generation of a
// run (a Component, a Subscription), whatever the spec says now: cleanup deletes them.
type LeftoverDeclarer interface {
	DaprLeftovers(run *perfv1alpha1.PerfRun) []client.Object
}

var sides = map[perfv1alpha1.Scenario]Side{}

// RegisterSide makes side scenario's operator side; a scenario registers once (from its
// folder's init), and a second registration is a programming error.
func RegisterSide(scenario perfv1alpha1.Scenario, side Side) {
	if _, dup := sides[scenario]; dup {
		panic(fmt.Sprintf("workload: scenario %s registered twice", scenario))
	}
	sides[scenario] = side
}

// Registered reports whether scenario has an operator side.
func Registered(scenario perfv1alpha1.Scenario) bool {
	_, ok := sides[scenario]
	return ok
}

// sideOf is the operator side of run's scenario. Admission admits only registered scenarios.
func sideOf(run *perfv1alpha1.PerfRun) Side {
	if side, ok := sides[run.Spec.Scenario]; ok {
		return side
	}
	// A binary or test that builds workloads imports internal/scenario/all: a scenario left out
	// would otherwise build another scenario's pods.
	panic(fmt.Sprintf("workload: no operator side registered for scenario %q: import internal/scenario/all", run.Spec.Scenario))
}

// ScenarioChildren are the objects run's scenario provisions, in apply order.
func ScenarioChildren(run *perfv1alpha1.PerfRun, o Options) []client.Object {
	return sideOf(run).Children(run, o)
}

// UnwantedChildren are children of an earlier generation this one does not want.
func UnwantedChildren(run *perfv1alpha1.PerfRun) []client.Object { return sideOf(run).Unwanted(run) }

// DaprChildren are the Dapr objects any generation of run may have declared in its namespace
// (its stores, subscriptions, tracing Configurations): what cleanup deletes.
func DaprChildren(run *perfv1alpha1.PerfRun) []client.Object {
	out := []client.Object{DaprObject(run, ComponentGVK, NamesFor(run).StateStore)}
	if d, ok := sideOf(run).(LeftoverDeclarer); ok {
		out = append(out, d.DaprLeftovers(run)...)
	}
	for _, c := range TracingConfigurations(run) {
		out = append(out, DaprObject(run, ConfigurationGVK, c.GetName()))
	}
	return out
}

// HasTargetPod reports whether the load of run ends at a pod the run deploys (a target app,
// a store): the Deployments it waits for. Not so for a State run on the namespace's own Component.
func HasTargetPod(run *perfv1alpha1.PerfRun) bool { return len(WaitedDeployments(run)) > 0 }

// WaitedDeployments are the Deployments run waits for before its load starts.
func WaitedDeployments(run *perfv1alpha1.PerfRun) []string { return sideOf(run).Waited(run) }

// NeedsTargetIP reports whether the load tester must be told the Dapr target pod's IP (a
// same-pod baseline calls it, so does a four-path run's server-only path, the load tester
// takes the target daprd's profile there, and orders a fault run's faults from its app).
func NeedsTargetIP(run *perfv1alpha1.PerfRun) bool {
	return sideOf(run).NeedsTargetIP(run) || FaultsFromTarget(run)
}
