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
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
)

// httpEndpointGVK is Dapr's HTTPEndpoint kind. The run does not create one (see
// workload.onePathSettings); it is served by exactly the Dapr versions (1.11+) whose
// sidecars invoke non-Dapr endpoints, so its presence is the feature's mark.
var httpEndpointGVK = schema.GroupVersionKind{Group: "dapr.io", Version: "v1alpha1", Kind: "HTTPEndpoint"}

// fourPathsRefusal says why the cluster's Dapr cannot measure a four-path run's
// client-sidecar-only path, "" when it can: that path needs daprd to invoke an app without
// a sidecar (Dapr 1.11+).
func (r *Reconciler) fourPathsRefusal(run *perfv1alpha1.PerfRun, daprVersion string) (string, error) {
	if !run.Spec.FourPaths() {
		return "", nil
	}
	const need = "spec.serviceInvocation.paths FourPaths measures the client-sidecar-only path through Dapr's invocation of non-Dapr endpoints (Dapr 1.11+)"
	if ok, known := diagnose.AtLeast(daprVersion, 1, 11); known && !ok {
		return fmt.Sprintf("%s, but the control plane is Dapr %s: upgrade Dapr, or set serviceInvocation.paths Standard", need, daprVersion), nil
	}
	_, err := r.RESTMapper().RESTMapping(httpEndpointGVK.GroupKind(), httpEndpointGVK.Version)
	if meta.IsNoMatchError(err) {
		return need + ", but this cluster does not serve httpendpoints.dapr.io (installed with that feature): " +
			"install Dapr 1.11 or later with its CRDs, or set serviceInvocation.paths Standard", nil
	}
	if err != nil {
		return "", fmt.Errorf("discovering %s: %w", httpEndpointGVK.GroupKind(), err)
	}
	return "", nil
}
