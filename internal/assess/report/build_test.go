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
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

func TestBuildMakesTheWholeResultFromItsInputs(t *testing.T) {
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation}}
	sum := &result.Summary{
		Runs: []result.Run{{Variant: result.Baseline, ActualQPS: 1000, Requests: 1000}, {Variant: result.Dapr, ActualQPS: 500, Requests: 1000}},
		Pods: []result.PodLoad{{Pod: 0, RequestedQPS: 250, ActualQPS: 250}, {Pod: 1, RequestedQPS: 250, ActualQPS: 250}},
	}
	sidecar := func(milli int64) *perfv1alpha1.ResourceUsage {
		cpu := resource.NewMilliQuantity(milli, resource.DecimalSI)
		return &perfv1alpha1.ResourceUsage{ServerSidecar: &perfv1alpha1.RoleUsage{Samples: 3, CPUAvg: cpu, MemoryAvg: resource.NewQuantity(20<<20, resource.BinarySI)}}
	}
	cpu := &perfv1alpha1.CPUAccounting{Source: "kubelet"}
	restarts := &perfv1alpha1.Restarts{Sidecar: 1}
	res := Build(run, Inputs{Summary: sum, Restarts: restarts, TesterNodes: map[int32]string{0: "a", 1: "b"}, CPU: cpu,
		Usage: map[string]*perfv1alpha1.ResourceUsage{string(result.Dapr): sidecar(100), string(result.Baseline): sidecar(1)}})

	if res.Restarts != restarts || res.CPU != cpu {
		t.Errorf("restarts %+v, cpu %+v: the inputs, as given", res.Restarts, res.CPU)
	}
	if len(res.LoadTesters) != 2 || res.LoadTesters[0].Node != "a" || res.LoadTesters[1].Node != "b" {
		t.Errorf("load testers = %+v, want each on its node", res.LoadTesters)
	}
	// 100m at 500 rps is 200m per 1000 rps: scaled by the measured path's own rate.
	if res.Resources == nil || res.Resources.SidecarPer1kQPS.CPU.MilliValue() != 200 {
		t.Errorf("resources = %+v, want the sidecar's 100m scaled to 200m per 1000 rps", res.Resources)
	}
	if res.BaselineResources == nil || res.BaselineResources.ServerSidecar.CPUAvg.MilliValue() != 1 {
		t.Errorf("baseline resources = %+v", res.BaselineResources)
	}

	if res := Build(run, Inputs{Summary: sum, Usage: map[string]*perfv1alpha1.ResourceUsage{string(result.Baseline): sidecar(1)}}); res.Resources != nil || res.BaselineResources != nil {
		t.Errorf("without the measured path's usage no usage is claimed: %+v, %+v", res.Resources, res.BaselineResources)
	}
}
