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

package perfrun

import (
	"context"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
)

// scenarioPreflight is one scenario's check of the cluster before anything is created: what
// the run names must exist and be usable. Each scenario's is in scenario_<name>.go.
type scenarioPreflight interface {
	// refusal says why the run cannot measure here (a reason and a message saying what to
	// change); an empty reason: nothing stands in the way.
	refusal(ctx context.Context, r *Reconciler, run *perfv1alpha1.PerfRun) (reason, msg string, err error)
}

// noPreflight is a scenario with nothing of its own to check (ServiceInvocation's four-path
// check has a step of its own).
type noPreflight struct{}

func (noPreflight) refusal(context.Context, *Reconciler, *perfv1alpha1.PerfRun) (string, string, error) {
	return "", "", nil
}

func preflightOf(run *perfv1alpha1.PerfRun) scenarioPreflight {
	switch run.Spec.Scenario {
	case perfv1alpha1.ScenarioActorActivation:
		return actorsPreflight{}
	case perfv1alpha1.ScenarioState:
		return statePreflight{}
	case perfv1alpha1.ScenarioPubSub:
		return pubsubPreflight{}
	case perfv1alpha1.ScenarioWorkflow:
		return workflowPreflight{}
	default:
		return noPreflight{}
	}
}

// scenarioRefusal is the run's scenario's preflight refusal: the check its folder registers
// (internal/scenario/<name>), or one not yet moved there (see scenarioPreflight).
func (r *Reconciler) scenarioRefusal(ctx context.Context, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	if check, ok := preflight.Of(run.Spec.Scenario); ok {
		return check.Refusal(ctx, r.preflightCluster(), run)
	}
	return preflightOf(run).refusal(ctx, r, run)
}

// preflightCluster is what a scenario's preflight may read.
func (r *Reconciler) preflightCluster() preflight.Cluster {
	return preflight.Cluster{Cached: r.Client, APIReader: r.APIReader, DaprNamespace: r.DaprNamespace}
}
