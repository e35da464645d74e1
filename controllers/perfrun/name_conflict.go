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
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// nameConflict is an existing object, named like one of a run's children, that the run
// does not control. Server-side apply with forced ownership would take it over (a
// Service's selector hijacked) and cleanup would later delete it: the run fails instead.
type nameConflict struct {
	kind, name, owner string
}

func (c *nameConflict) Error() string {
	return fmt.Sprintf("%s %s already exists and is not this run's (%s): the run will not take it over; "+
		"rename the PerfRun or remove the %s", c.kind, c.name, c.owner, c.kind)
}

// refuseForeign reads the object u would become, past the cache (which holds only objects
// labelled as a run's), and returns a *nameConflict when it exists under another controller
// or none. A child left by a deleted run of the same name (its owner gone, the garbage
// collector not yet done) is deleted: it is nobody's.
func (r *Reconciler) refuseForeign(ctx context.Context, run *perfv1alpha1.PerfRun, u *unstructured.Unstructured) error {
	existing := &unstructured.Unstructured{}
	existing.SetGroupVersionKind(u.GroupVersionKind())
	err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(u), existing)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s %s: %w", u.GetKind(), u.GetName(), err)
	}
	if metav1.IsControlledBy(existing, run) {
		return nil
	}
	ref := metav1.GetControllerOf(existing)
	if ref != nil && ref.Kind == "PerfRun" && ref.Name == run.Name {
		// Two PerfRuns of one name cannot coexist: its controller was deleted.
		if err := r.Delete(ctx, existing, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("deleting %s %s left by a deleted run: %w", u.GetKind(), u.GetName(), err)
		}
		return fmt.Errorf("%s %s was left by a deleted run of the same name; deleted, applying on the next pass", u.GetKind(), u.GetName())
	}
	return &nameConflict{kind: u.GetKind(), name: u.GetName(), owner: controllerOf(existing)}
}

// controllerOf says who controls obj, for a NameConflict's message.
func controllerOf(obj metav1.Object) string {
	if ref := metav1.GetControllerOf(obj); ref != nil {
		return "controlled by " + ref.Kind + " " + ref.Name
	}
	return "no controller"
}
