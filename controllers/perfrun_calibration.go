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

package controllers

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/calibrate"
	"github.com/daprbench/daprbench/internal/workload"
)

// recordCalibration keeps, per node, the first calibration score a run's pod on it
// reported (its calibration init container's termination message). A pod whose calibration
// failed or said nothing readable leaves its node without a score: a run never fails for it.
func recordCalibration(env *perfv1alpha1.Environment, sidecar perfv1alpha1.SidecarSpec, pods []corev1.Pod) {
	for i := range pods {
		p := &pods[i]
		node := p.Spec.NodeName
		if node == "" || slices.ContainsFunc(env.Calibration, func(c perfv1alpha1.NodeCalibration) bool { return c.Node == node }) {
			continue
		}
		for _, cs := range p.Status.InitContainerStatuses {
			t := cs.State.Terminated
			if cs.Name != workload.ContainerCalibrate || t == nil || t.ExitCode != 0 {
				continue
			}
			var s calibrate.Score
			if err := json.Unmarshal([]byte(t.Message), &s); err != nil || s.Single <= 0 || s.Parallel <= 0 || len(env.Calibration) >= 100 {
				continue
			}
			c := perfv1alpha1.NodeCalibration{Node: node,
				Single: strconv.FormatFloat(s.Single, 'f', 0, 64), Parallel: strconv.FormatFloat(s.Parallel, 'f', 0, 64),
				Parallelism: int32(s.Parallelism), CPULimit: sidecar.CPULimit}
			if s.PerCPUSecond > 0 {
				c.PerCPUSecond = strconv.FormatFloat(s.PerCPUSecond, 'f', 0, 64)
			}
			env.Calibration = append(env.Calibration, c)
			slices.SortFunc(env.Calibration, func(a, b perfv1alpha1.NodeCalibration) int { return cmp.Compare(a.Node, b.Node) })
		}
	}
}
