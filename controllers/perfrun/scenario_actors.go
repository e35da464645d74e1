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

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// actorsPreflight is ActorActivation's check of the cluster before anything is created.
type actorsPreflight struct{}

// actorTypeHost names another run's target Deployment in the namespace that hosts the
// actor type this run names explicitly (empty: none, or the type is the run's own).
// Finished runs count while their target stands (spec.cleanup may keep it): it is still
// registered with placement.
func (r *Reconciler) actorTypeHost(ctx context.Context, run *perfv1alpha1.PerfRun) (string, error) {
	if run.Spec.ActorSettings().ActorType == "" {
		return "", nil
	}
	var targets appsv1.DeploymentList
	if err := r.List(ctx, &targets, client.InNamespace(run.Namespace), client.HasLabels{workload.LabelRun}); err != nil {
		return "", err
	}
	for i := range targets.Items {
		d := &targets.Items[i]
		if d.Annotations[workload.AnnotationActorType] == run.ActorType() && !metav1.IsControlledBy(d, run) {
			return fmt.Sprintf("Deployment %s (run %s)", d.Name, d.Labels[workload.LabelRun]), nil
		}
	}
	return "", nil
}

// refusal says why an actor run cannot measure here: the state store it names is
// missing, or another run's target hosts the actor type it names. Empty reason: none.
func (actorsPreflight) refusal(ctx context.Context, r *Reconciler, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	if a := run.Spec.ActorSettings(); a.StateStore != "" {
		store := &unstructured.Unstructured{}
		store.SetGroupVersionKind(workload.ComponentGVK)
		err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: a.StateStore}, store)
		if apierrors.IsNotFound(err) {
			return perfv1alpha1.ReasonStateStoreNotFound, fmt.Sprintf("spec.actors.stateStore names Component %q, which does not exist in namespace %q: create it "+
				"(with metadata actorStateStore: \"true\") or leave stateStore empty for an in-memory one", a.StateStore, run.Namespace), nil
		}
		if err != nil {
			return "", "", err
		}
	}
	host, err := r.actorTypeHost(ctx, run)
	if err != nil || host == "" {
		return "", "", err
	}
	return perfv1alpha1.ReasonActorTypeInUse, fmt.Sprintf("spec.actors.actorType %q is hosted by %s: Dapr's placement would spread this run's calls over both targets. "+
		"Leave actorType empty (each run then gets a type of its own) or wait for that target to go", run.ActorType(), host), nil
}
