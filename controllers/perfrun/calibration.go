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
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// recordCalibration keeps, per node, the fastest trusted calibration score the run's pods on it
// reported (their calibration init containers' termination messages): a host's slow moment
// lasts seconds and can fall on one pod's calibration, rarely on all of them. A pod whose
// calibration failed or said nothing readable adds nothing: a run never fails for it.
func recordCalibration(env *perfv1alpha1.Environment, sidecar perfv1alpha1.SidecarSpec, pods []corev1.Pod) {
	for i := range pods {
		node := pods[i].Spec.NodeName
		s, ok := calibrationOf(&pods[i])
		if node == "" || !ok {
			continue
		}
		c := perfv1alpha1.NodeCalibration{Node: node,
			Single: strconv.FormatFloat(s.Single, 'f', 0, 64), Parallel: strconv.FormatFloat(s.Parallel, 'f', 0, 64),
			Parallelism: int32(s.Parallelism), CPULimit: sidecar.CPULimit, SlowWindowsPercent: int32(math.Round(s.SlowShare * 100)),
			Workload: s.Workload}
		if s.PerCPUSecond > 0 {
			c.PerCPUSecond = strconv.FormatFloat(s.PerCPUSecond, 'f', 0, 64)
		}
		at := slices.IndexFunc(env.Calibration, func(c perfv1alpha1.NodeCalibration) bool { return c.Node == node })
		switch {
		case at < 0 && len(env.Calibration) < 100:
			env.Calibration = append(env.Calibration, c)
			slices.SortFunc(env.Calibration, func(a, b perfv1alpha1.NodeCalibration) int { return cmp.Compare(a.Node, b.Node) })
		case at >= 0 && better(c, env.Calibration[at]):
			env.Calibration[at] = c
		}
	}
}

// calibrationOf is the score a pod's calibration init container wrote, if it ended well.
func calibrationOf(p *corev1.Pod) (result.Calibration, bool) {
	for _, cs := range p.Status.InitContainerStatuses {
		t := cs.State.Terminated
		if cs.Name != workload.ContainerCalibrate || t == nil || t.ExitCode != 0 {
			continue
		}
		var s result.Calibration
		if err := json.Unmarshal([]byte(t.Message), &s); err == nil && s.Single > 0 && s.Parallel > 0 {
			return s, true
		}
	}
	return result.Calibration{}, false
}

// better ranks a node's readings: a trusted one over one taken mostly in a slow stretch,
// then the faster.
func better(c, than perfv1alpha1.NodeCalibration) bool {
	if c.Trusted() != than.Trusted() {
		return c.Trusted()
	}
	return speedOf(c) > speedOf(than)
}

// speedOf is the score a node's readings are ranked by: units per CPU-second, else per second.
func speedOf(c perfv1alpha1.NodeCalibration) float64 {
	v, err := strconv.ParseFloat(c.PerCPUSecond, 64)
	if err != nil {
		v, _ = strconv.ParseFloat(c.Single, 64)
	}
	return v
}
