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
	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// failNotInjected ends a run whose pod came without the sidecar it needs.
func (r *Reconciler) failNotInjected(run *perfv1alpha1.PerfRun, role, pod string) stepResult {
	markFailed(run, r.now(), perfv1alpha1.ReasonSidecarNotInjected,
		"the %s pod %s has no %s container: Dapr's sidecar injector did not mutate it. Its webhook fails open "+
			"(failurePolicy Ignore), so an injector that is down or unreachable from the API server admits pods without a "+
			"sidecar; check the dapr-sidecar-injector pods in %s and the MutatingWebhookConfiguration dapr-sidecar-injector",
		role, pod, workload.ContainerDaprd, r.DaprNamespace)
	return stopHere
}

// cannotStart says why some of pods will not run once the image-start grace has passed: no
// node for one (PodsUnschedulable, "cannot be scheduled") or a container that cannot start
// (ImageNotStarting, "cannot start"), in Kubernetes' own words. failure is empty otherwise.
func (r *Reconciler) cannotStart(pods []corev1.Pod) (reason, what, failure string) {
	now := r.Clock.Now()
	if failure := diagnose.Unschedulable(pods, now, r.ImageStartGrace); failure != "" {
		return perfv1alpha1.ReasonPodsUnschedulable, "cannot be scheduled", failure
	}
	if failure := diagnose.StartFailure(pods, now, r.ImageStartGrace); failure != "" {
		return perfv1alpha1.ReasonImageNotStarting, "cannot start", failure
	}
	return "", "", ""
}
