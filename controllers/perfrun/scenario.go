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
	"fmt"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
)

// scenarioRefusal is the run's scenario's preflight refusal: the check its folder registers
// (internal/scenario/<name>; ServiceInvocation's four-path check is a step of its own).
func (r *Reconciler) scenarioRefusal(ctx context.Context, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	check, ok := preflight.Of(run.Spec.Scenario)
	if !ok { // the manager imports internal/scenario/all: a scenario left out is a build's mistake
		return "", "", fmt.Errorf("no preflight registered for scenario %q: the manager must import internal/scenario/all", run.Spec.Scenario)
	}
	return check.Refusal(ctx, r.preflightCluster(), run)
}

// preflightCluster is what a scenario's preflight may read.
func (r *Reconciler) preflightCluster() preflight.Cluster {
	return preflight.Cluster{Cached: r.Client, APIReader: r.APIReader, RESTMapper: r.RESTMapper(),
		DaprNamespace: r.DaprNamespace, NetworkPolicies: r.NetworkPolicies}
}
