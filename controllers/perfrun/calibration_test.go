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
	"testing"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

func calibratedPod(node, message string, exit int32) corev1.Pod {
	return corev1.Pod{Spec: corev1.PodSpec{NodeName: node}, Status: corev1.PodStatus{InitContainerStatuses: []corev1.ContainerStatus{{
		Name: workload.ContainerCalibrate, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: exit, Message: message}}}}}}
}

// Of two pods on one node, the faster reading is the node's: the slower one caught the
// host holding the core back (its slow windows say so). A failed or unreadable calibration
// adds nothing, and the result does not depend on the order the pods are listed in.
func TestRecordCalibrationKeepsEachNodesFastestReading(t *testing.T) {
	slow := calibratedPod("node-a", `{"single":30000,"perCPUSecond":31000,"slowShare":0.7,"parallel":50000,"parallelism":2}`, 0)
	fast := calibratedPod("node-a", `{"single":54000,"perCPUSecond":55000,"slowShare":0.05,"parallel":90000,"parallelism":2}`, 0)
	other := calibratedPod("node-b", `{"single":40000,"perCPUSecond":41000,"parallel":70000,"parallelism":2}`, 0)
	failed := calibratedPod("node-c", `{"single":99000,"parallel":99000}`, 1)
	garbage := calibratedPod("node-d", `not json`, 0)
	// A faster reading taken mostly in slow windows does not displace a trusted one.
	fastButSlowWindows := calibratedPod("node-a", `{"single":60000,"perCPUSecond":60000,"slowShare":0.6,"parallel":90000,"parallelism":2}`, 0)
	for _, pods := range [][]corev1.Pod{{slow, fast, other, failed, garbage, fastButSlowWindows}, {fastButSlowWindows, garbage, fast, failed, other, slow}} {
		var env perfv1alpha1.Environment
		recordCalibration(&env, perfv1alpha1.SidecarSpec{}, pods)
		recordCalibration(&env, perfv1alpha1.SidecarSpec{}, pods) // every pass: the same answer
		if len(env.Calibration) != 2 {
			t.Fatalf("calibrations %+v, want node-a and node-b only", env.Calibration)
		}
		a, b := env.Calibration[0], env.Calibration[1]
		if a.Node != "node-a" || a.PerCPUSecond != "55000" || a.Single != "54000" || a.SlowWindowsPercent != 5 {
			t.Errorf("node-a: %+v, want the fast reading (55000 per CPU-second, 5%% slow windows)", a)
		}
		if b.Node != "node-b" || b.PerCPUSecond != "41000" {
			t.Errorf("node-b: %+v", b)
		}
	}
}
