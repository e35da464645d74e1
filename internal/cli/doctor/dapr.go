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

package doctor

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/daprbench/daprbench/internal/operator/daprcluster"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
)

// minDaprMajor.minDaprMinor is the oldest Dapr every scenario but Workflow and Scheduler
// runs on (the four-path split invokes non-Dapr endpoints, Dapr 1.11); those need 1.15.
const (
	minDaprMajor, minDaprMinor = 1, 11
	minDapr                    = "1.11"
)

const daprFix = "install Dapr with its Helm chart (helm install dapr dapr/dapr -n dapr-system --create-namespace --wait), " +
	"or `dapr init -k`; runs with spec.dapr.enabled=false need none"

// dapr checks Dapr's kinds, its injector and version, and its mTLS, as preflight reads them.
func dapr(ctx context.Context, c Cluster, op operator) []Check {
	served, err := daprcluster.CRDsServed(c.Client.RESTMapper())
	if err != nil {
		return []Check{{Name: "dapr", Status: Fail, Detail: err.Error(), Fix: daprFix}}
	}
	if !served {
		return []Check{{Name: "dapr", Status: Fail, Detail: "Dapr's CRDs (configurations.dapr.io, components.dapr.io) are not served", Fix: daprFix}}
	}
	ns := op.daprNamespace
	injector, err := daprcluster.Injector(ctx, c.Client, ns)
	if apierrors.IsForbidden(err) {
		return []Check{{Name: "dapr", Status: Warn, Detail: "Dapr's CRDs are served; cannot tell its version: " + err.Error(),
			Fix: "read access to Deployments in " + ns + " is needed to tell; a run's preflight reads it itself"}}
	}
	if err != nil {
		return []Check{{Name: "dapr", Status: Fail, Detail: err.Error(), Fix: "check the API server's health (kubectl get --raw /readyz)"}}
	}
	if injector == nil {
		return []Check{{Name: "dapr", Status: Fail,
			Detail: fmt.Sprintf("Dapr's CRDs are served but no sidecar injector (Deployment labelled app=%s) is in namespace %s", daprcluster.InjectorApp, ns),
			Fix:    daprFix + "; Dapr elsewhere: the operator's --dapr-namespace (Helm value daprNamespace)"}}
	}
	version := daprcluster.Version(injector)
	daprCheck := Check{Name: "dapr", Status: Pass, Detail: fmt.Sprintf("Dapr %s in %s", orUnknown(version), ns)}
	if atLeast, known := diagnose.AtLeast(version, minDaprMajor, minDaprMinor); known && !atLeast {
		daprCheck = Check{Name: "dapr", Status: Fail, Detail: fmt.Sprintf("Dapr %s in %s is older than %s", version, ns, minDapr),
			Fix: "upgrade Dapr to " + minDapr + " or later (Workflow and Scheduler runs: 1.15)"}
	}

	mtls, source, err := daprcluster.MTLS(ctx, c.Client, ns)
	if err != nil {
		return []Check{daprCheck, {Name: "mtls", Status: Warn, Detail: err.Error(), Fix: "runs read it themselves at preflight"}}
	}
	if !mtls {
		return []Check{daprCheck, {Name: "mtls", Status: Warn, Detail: "disabled (" + source + ")",
			Fix: "runs expect mTLS Enabled by default and fail MTLSMismatch here: set spec.dapr.mtls: Disabled in them"}}
	}
	return []Check{daprCheck, {Name: "mtls", Status: Pass, Detail: "enabled (" + source + "), as runs expect by default"}}
}
