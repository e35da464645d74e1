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

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ControlledBy reports whether owner, a PerfSchedule or PerfSweep (kind), controls the run:
// its controller reference names owner's UID, kind and API group. The UID alone is not
// enough: admission (config/policy/owned-runs.yaml) reserves references of this group and
// these kinds for the operator, and a reference of another kind carrying a copied UID is
// one it does not guard.
func (r *PerfRun) ControlledBy(owner metav1.Object, kind string) bool {
	ref := metav1.GetControllerOf(r)
	if ref == nil || ref.UID != owner.GetUID() || ref.Kind != kind {
		return false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	return err == nil && gv.Group == GroupVersion.Group
}
