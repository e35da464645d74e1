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

package workload

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// ContainerCalibrate is the init container that scores its node on daprbench's calibration
// workload (internal/pods/calibrate) before the pod's own containers start.
const ContainerCalibrate = "calibrate"

// CalibrationSeconds is how long each half of the calibration runs (one goroutine, then
// as many as the CPU limit allows).
const CalibrationSeconds = "2s"

// withCalibration adds the calibration init container to a pod of the target or the load
// tester: the operator's own image (a run's image overrides do not change the workload),
// limited like the sidecar so its score is what the sidecar's CPU can do on that node.
func withCalibration(pod *corev1.PodSpec, run *perfv1alpha1.PerfRun, o Options) {
	c := corev1.Container{
		Name:                     ContainerCalibrate,
		Image:                    o.Image,
		Command:                  []string{loadtesterBinary, "--" + loadsettings.Calibrate + "=" + CalibrationSeconds},
		ImagePullPolicy:          corev1.PullPolicy(o.PullPolicy),
		SecurityContext:          containerSecurity(),
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		TerminationMessagePath:   TerminationLog,
	}
	side := run.Spec.Dapr.Sidecar
	if side.CPULimit != nil {
		c.Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: *side.CPULimit}
		request := *side.CPULimit
		if side.CPURequest != nil && side.CPURequest.Cmp(request) < 0 {
			request = *side.CPURequest
		}
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: request}
	} else {
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}
	}
	pod.InitContainers = append(pod.InitContainers, c)
}
