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

package report

import (
	"fmt"
	"math"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// foreignSharePercent is the share of a node's CPU spent outside the run from which that
// work is named among what may have bounded the latency: on two cores, a quarter is half a
// core taken from the run's sidecars and app.
const foreignSharePercent = 25.0

// foreignCPU is each node's CPU outside the run's containers over the measured runs: the
// node's root cgroup less every container of the run placed on it. Server roles run on the
// target's node and client roles on the load tester's; when the target and the load tester
// shared the one node read, every role is placed on it.
// Nil without node counters.
func foreignCPU(env *perfv1alpha1.Environment, cpu *perfv1alpha1.CPUAccounting) []perfv1alpha1.ForeignCPU {
	if cpu == nil {
		return nil
	}
	if env == nil {
		env = &perfv1alpha1.Environment{}
	}
	var nodes []perfv1alpha1.ContainerCPU
	for _, c := range cpu.Measured {
		if roles.IsNodeRole(c.Role) {
			nodes = append(nodes, c)
		}
	}
	run := map[string]int64{} // millicores of the run's containers per node
	unplaced := false
	for _, c := range cpu.Measured {
		if roles.IsNodeRole(c.Role) {
			continue
		}
		node := nodeOfRole(env, c.Role)
		if len(nodes) == 1 && env.TargetNode == env.LoadTesterNode && len(env.LoadTesterNodes) <= 1 {
			// One node ran everything: the store and the baseline app are on it too. (One
			// node's counters of several nodes' run places roles by the environment alone.)
			node = roles.NodeOfRole(nodes[0].Role)
		}
		if node == "" {
			unplaced = unplaced || c.CPU.MilliValue() > 0
			continue
		}
		run[node] += c.CPU.MilliValue()
	}
	var out []perfv1alpha1.ForeignCPU
	for _, n := range nodes {
		name := roles.NodeOfRole(n.Role)
		foreign := max(n.CPU.MilliValue()-run[name], 0)
		f := perfv1alpha1.ForeignCPU{Node: name, CPU: *resource.NewMilliQuantity(foreign, resource.DecimalSI),
			NodeBusyPercent: n.CapacityPercent, UpperBound: unplaced}
		// capacityPercent = 100 × node CPU / capacity, so the capacity is node CPU × 100 / it.
		if busy, err := strconv.ParseFloat(n.CapacityPercent, 64); err == nil && busy > 0 && n.CPU.MilliValue() > 0 {
			capacity := float64(n.CPU.MilliValue()) * 100 / busy
			f.CapacityPercent = strconv.FormatFloat(math.Round(1000*float64(foreign)/capacity)/10, 'f', 1, 64)
		}
		out = append(out, f)
	}
	return out
}

// nodeOfRole is the node a run's role ran on, from the environment: the target's roles on
// the target's node, the load tester's on its (one) node; "" when unknown.
func nodeOfRole(env *perfv1alpha1.Environment, role string) string {
	base, _ := roles.SplitVariant(role)
	switch roles.Role(base) {
	case roles.ServerApp, roles.ServerSidecar:
		return env.TargetNode
	case roles.ClientSidecar, roles.LoadTester:
		if len(env.LoadTesterNodes) <= 1 {
			return env.LoadTesterNode
		}
	}
	return ""
}

// foreignWork names the nodes whose CPU outside the run reached foreignSharePercent of
// their capacity, in words, for BoundedBy.
func foreignWork(res *perfv1alpha1.Result) []string {
	var out []string
	for _, f := range res.ForeignCPU {
		share, err := strconv.ParseFloat(f.CapacityPercent, 64)
		if err != nil || share < foreignSharePercent {
			continue
		}
		upTo := ""
		if f.UpperBound {
			upTo = "up to "
		}
		out = append(out, fmt.Sprintf("work outside the run on node %s (%s%s CPU, %s%% of its capacity; the node %s%% busy)",
			f.Node, upTo, f.CPU.String(), f.CapacityPercent, f.NodeBusyPercent))
	}
	return out
}
