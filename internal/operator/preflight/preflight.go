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

// Package preflight holds each scenario's check of the cluster before a run creates
// anything: what the run names must exist and be usable. A scenario registers its check from
// its own folder (internal/scenario/<name>); the PerfRun controller asks Of and never
// branches on the scenario.
package preflight

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Cluster is what a check may read: the manager's cached client, a reader past the cache
// (where a stale read would do harm), the kinds the API server serves, the namespace of
// Dapr's control plane, and whether the operator guards a run's pods with NetworkPolicies.
type Cluster struct {
	Cached          client.Reader
	APIReader       client.Reader
	RESTMapper      meta.RESTMapper
	DaprNamespace   string
	NetworkPolicies bool
}

// Check is one scenario's preflight.
type Check interface {
	// Refusal says why the run cannot measure here (a reason and a message saying what to
	// change); an empty reason: nothing stands in the way.
	Refusal(ctx context.Context, c Cluster, run *perfv1alpha1.PerfRun) (reason, msg string, err error)
}

// None is a scenario with nothing of its own to check.
type None struct{}

// Refusal: nothing to refuse.
func (None) Refusal(context.Context, Cluster, *perfv1alpha1.PerfRun) (string, string, error) {
	return "", "", nil
}

var checks = map[perfv1alpha1.Scenario]Check{}

// Register makes check scenario's preflight; a scenario registers once (from its folder's
// init), and a second registration is a programming error.
func Register(scenario perfv1alpha1.Scenario, check Check) {
	if _, dup := checks[scenario]; dup {
		panic(fmt.Sprintf("preflight: scenario %s registered twice", scenario))
	}
	checks[scenario] = check
}

// Of is scenario's check, and whether one is registered.
func Of(scenario perfv1alpha1.Scenario) (Check, bool) {
	c, ok := checks[scenario]
	return c, ok
}
