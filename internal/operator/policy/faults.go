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

package policy

import (
	"fmt"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// ControlPlaneFaultRefusal says why the run may not take Dapr's control plane down; empty
// when it does not, or may. An outage of the scheduler, placement or sentry is every
// tenant's outage: the platform team turns it on, not the tenant.
func (p Policy) ControlPlaneFaultRefusal(run *perfv1alpha1.PerfRun) string {
	if p.AllowControlPlaneFaults {
		return ""
	}
	for i, f := range run.Spec.Faults {
		if f.Kind == perfv1alpha1.FaultPodKill && f.Role != nil && f.Role.ControlPlane() {
			return fmt.Sprintf("spec.faults[%d] deletes every pod of Dapr's %s, which every namespace's sidecars use: this operator does not "+
				"take the control plane down (--allow-control-plane-faults off): drop the fault, or ask whoever installed daprbench to allow it "+
				"(Helm value faults.allowControlPlane) on a cluster whose tenants expect it", i, *f.Role)
		}
	}
	return ""
}
