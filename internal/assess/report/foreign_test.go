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
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// A node 85% busy of two cores, 890m of it outside the run's own containers, names that
// work among what may have bounded the latency, where it read "nothing found bounding it":
// the node's CPU and the run's containers' are both in the result, and their difference is
// the foreign work.
func TestForeignWorkOnTheNodeIsNamed(t *testing.T) {
	container := func(role, cpu string) perfv1alpha1.ContainerCPU {
		return perfv1alpha1.ContainerCPU{Role: role, CPU: resource.MustParse(cpu), Seconds: 60}
	}
	measured := func(nodeCPU, busy string) *perfv1alpha1.CPUAccounting {
		node := container("node/kind-worker", nodeCPU)
		node.CapacityPercent = busy
		return &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{
			container("serverSidecar", "300m"), container("serverApp", "150m"), container("clientSidecar", "200m"),
			container("loadTester", "160m"), node}}
	}
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000}},
		Status: perfv1alpha1.PerfRunStatus{Environment: &perfv1alpha1.Environment{TargetNode: "kind-worker", LoadTesterNode: "kind-worker"}}}
	sum := &result.Summary{RequestedQPS: 1000, Runs: []result.Run{{Variant: result.Dapr, Seconds: 60, ActualQPS: 1000, Requests: 60_000, Scheduled: 60_000}}}

	// The run's containers: 810m; the node: 1700m (85.0% of 2 cores); outside the run: 890m.
	res := Build(run, Inputs{Summary: sum, CPU: measured("1700m", "85.0")})
	if len(res.ForeignCPU) != 1 {
		t.Fatalf("foreign CPU %+v, want the node's", res.ForeignCPU)
	}
	f := res.ForeignCPU[0]
	if f.Node != "kind-worker" || f.CPU.MilliValue() != 890 || f.CapacityPercent != "44.5" || f.NodeBusyPercent != "85.0" || f.UpperBound {
		t.Errorf("foreign CPU %+v, want 890m on kind-worker, 44.5%% of its capacity, the node 85.0%% busy", f)
	}
	want := "work outside the run on node kind-worker (890m CPU, 44.5% of its capacity; the node 85.0% busy)"
	if got := BoundedBy(res); !strings.Contains(got, "bounded by "+want) {
		t.Errorf("bounded by %q, want it to name %q", got, want)
	}

	// The run's own work, with little beside it, is not named.
	quiet := Build(run, Inputs{Summary: sum, CPU: measured("1010m", "50.5")})
	if got := BoundedBy(quiet); !strings.HasPrefix(got, "nothing found bounding it") || quiet.ForeignCPU[0].CPU.MilliValue() != 200 {
		t.Errorf("200m outside the run: %q (%+v)", got, quiet.ForeignCPU)
	}

	// On nodes apart, the target's roles are on its node and the load tester's on its own;
	// a store with no node of its own in the environment makes the figures upper bounds.
	split := run.DeepCopy()
	split.Status.Environment.LoadTesterNode = "kind-worker2"
	cpu := measured("1700m", "85.0")
	tester := container("node/kind-worker2", "400m")
	tester.CapacityPercent = "20.0"
	cpu.Measured = append(cpu.Measured, tester, container("store", "50m"))
	res = Build(split, Inputs{Summary: sum, CPU: cpu})
	byNode := map[string]perfv1alpha1.ForeignCPU{}
	for _, f := range res.ForeignCPU {
		byNode[f.Node] = f
	}
	if a, b := byNode["kind-worker"], byNode["kind-worker2"]; a.CPU.MilliValue() != 1250 || b.CPU.MilliValue() != 40 || !a.UpperBound || !b.UpperBound {
		t.Errorf("foreign CPU by node %+v, want 1250m and 40m, both upper bounds", byNode)
	}
	if got := BoundedBy(res); !strings.Contains(got, "work outside the run on node kind-worker (up to 1250m CPU") || strings.Contains(got, "kind-worker2 (") {
		t.Errorf("bounded by %q", got)
	}

	// On nodes apart with only the target's node read, the load tester's roles stay on
	// theirs: the target's node is not charged with them.
	cpu = measured("1700m", "85.0")
	res = Build(split, Inputs{Summary: sum, CPU: cpu})
	if len(res.ForeignCPU) != 1 || res.ForeignCPU[0].CPU.MilliValue() != 1250 {
		t.Errorf("one node of two read: %+v, want 1250m outside the run on kind-worker", res.ForeignCPU)
	}
}
