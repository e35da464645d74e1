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
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// scenarioSide is one scenario's operator side: what a run of it provisions beside the load
// tester, what it waits for, and which paths the load tester drives. Each scenario's is in a
// file of its own (scenario_<name>.go); the rest of the operator asks through the functions
// below and never switches on the scenario. docs/architecture.md lists every side.
type scenarioSide interface {
	// children are the objects the scenario owns besides the run's common ones (its service
	// account, NetworkPolicies, tracing Configuration), in the order they are applied.
	children(run *perfv1alpha1.PerfRun, o Options) []client.Object
	// waited are the Deployments that must be Available before the load starts.
	waited(run *perfv1alpha1.PerfRun) []string
	// demands are what the scenario's pods will request (the load tester's is added by PodDemands).
	demands(run *perfv1alpha1.PerfRun, o Options) []PodDemand
	// pathEnv are the load tester's settings naming the paths it measures: the Dapr path(s)
	// and, when the run has one, the baseline. targetIP is the Dapr target pod's IP (when the
	// run needs it, see NeedsTargetIP).
	pathEnv(run *perfv1alpha1.PerfRun, targetIP string) []corev1.EnvVar
	// unwanted are children an earlier generation may have made that this one does not want
	// (a twin baseline switched off, a store given up for a named Component): deleted when found.
	unwanted(run *perfv1alpha1.PerfRun) []client.Object
	// peer is the role of the pods spec.placement places the load tester relative to.
	peer(run *perfv1alpha1.PerfRun) Role
	// needsTargetIP: the load tester must be told the Dapr target pod's IP.
	needsTargetIP(run *perfv1alpha1.PerfRun) bool
	// testerAppPort is the app port of the load tester's daprd (0: none, a caller only).
	testerAppPort(run *perfv1alpha1.PerfRun) int
}

// targetHoster is a side whose target app hosts something of the scenario's own (an actor
// type): the target's extra arguments and annotations.
type targetHoster interface {
	targetApp(run *perfv1alpha1.PerfRun) (args []string, annotations map[string]string)
}

// leftoverDeclarer is a side that may have declared Dapr objects under any generation of a
// run (a Component, a Subscription), whatever the spec says now: cleanup deletes them.
type leftoverDeclarer interface {
	daprLeftovers(run *perfv1alpha1.PerfRun) []client.Object
}

// sideOf is the operator side of run's scenario. Admission admits only the scenarios here.
func sideOf(run *perfv1alpha1.PerfRun) scenarioSide {
	switch run.Spec.Scenario {
	case perfv1alpha1.ScenarioActorActivation:
		return actorsSide{}
	case perfv1alpha1.ScenarioState:
		return stateSide{}
	case perfv1alpha1.ScenarioPubSub:
		return pubsubSide{}
	case perfv1alpha1.ScenarioWorkflow:
		return workflowSide{}
	case perfv1alpha1.ScenarioScheduler:
		return schedulerSide{}
	default:
		return invocationSide{}
	}
}

// ScenarioChildren are the objects run's scenario provisions, in apply order.
func ScenarioChildren(run *perfv1alpha1.PerfRun, o Options) []client.Object {
	return sideOf(run).children(run, o)
}

// UnwantedChildren are children of an earlier generation this one does not want.
func UnwantedChildren(run *perfv1alpha1.PerfRun) []client.Object { return sideOf(run).unwanted(run) }

// DaprChildren are the Dapr objects any generation of run may have declared in its namespace
// (its stores, subscriptions, tracing Configurations): what cleanup deletes.
func DaprChildren(run *perfv1alpha1.PerfRun) []client.Object {
	out := []client.Object{daprObject(run, ComponentGVK, NamesFor(run).StateStore)}
	if d, ok := sideOf(run).(leftoverDeclarer); ok {
		out = append(out, d.daprLeftovers(run)...)
	}
	for _, c := range TracingConfigurations(run) {
		out = append(out, daprObject(run, ConfigurationGVK, c.GetName()))
	}
	return out
}

// HasTargetPod reports whether the load of run ends at a pod the run deploys (a target app,
// a store): the Deployments it waits for. Not so for a State run on the namespace's own Component.
func HasTargetPod(run *perfv1alpha1.PerfRun) bool { return len(WaitedDeployments(run)) > 0 }

// WaitedDeployments are the Deployments run waits for before its load starts.
func WaitedDeployments(run *perfv1alpha1.PerfRun) []string { return sideOf(run).waited(run) }

// NeedsTargetIP reports whether the load tester must be told the Dapr target pod's IP (a
// same-pod baseline calls it, so does a four-path run's server-only path, and the load
// tester takes the target daprd's profile there).
func NeedsTargetIP(run *perfv1alpha1.PerfRun) bool { return sideOf(run).needsTargetIP(run) }

// profiledTarget: the load tester takes the target daprd's profile on the target pod's IP.
func profiledTarget(run *perfv1alpha1.PerfRun) bool {
	return run.Spec.Profiling != nil && run.Spec.DaprEnabled()
}
