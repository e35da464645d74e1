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

// Package doctor says, before anything is created, whether a cluster can run a benchmark
// in a namespace, and what to fix: one check per row, each failing row with its fix. It
// reads the cluster as the operator's preflight does (daprcluster, queue.NeverFits,
// workload.PodDemands), so what it passes, a run finds.
package doctor

import (
	"context"

	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Status is a check's outcome. Only Fail makes the doctor fail: a Warn is a setting that
// changes what a run can measure, said so that nobody is surprised.
type Status string

const (
	Pass Status = "pass"
	Warn Status = "warn"
	Fail Status = "fail"
)

// Check is one row.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	// Fix is what to do about a failing or warning row.
	Fix string `json:"fix,omitempty"`
}

// Report is every row for one namespace.
type Report struct {
	Namespace string  `json:"namespace"`
	Checks    []Check `json:"checks"`
}

// Failed counts the failing rows.
func (r Report) Failed() int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == Fail {
			n++
		}
	}
	return n
}

// Cluster is what the doctor reads: the API through the user's own credentials.
type Cluster struct {
	Client    client.Client
	Discovery discovery.DiscoveryInterface
	// Namespace is where the user means to run benchmarks.
	Namespace string
	// OperatorNamespace is where to look for the operator; empty: every namespace.
	OperatorNamespace string
	// PluginVersion is the plugin's own version, compared with the operator's.
	PluginVersion string
}

// Run checks everything, in the order a newcomer fixes things: the cluster, the operator,
// Dapr, the metrics, then the namespace a run goes in.
func Run(ctx context.Context, c Cluster) Report {
	op := findOperator(ctx, c)
	checks := []Check{kubernetesVersion(c), crdsServed(c), op.check(), versions(c, op)}
	checks = append(checks, dapr(ctx, c, op)...)
	checks = append(checks, metricsAPI(ctx, c), kubeletCounters(op), networkPolicies(ctx, c, op))
	checks = append(checks, namespaceChecks(ctx, c, op)...)
	return Report{Namespace: c.Namespace, Checks: checks}
}
