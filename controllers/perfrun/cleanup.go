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
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// cleanup deletes a finished run's children as spec.cleanup says (under OnSuccess a
// cancelled run's too: cancel removes the workloads). The PerfRun itself is never deleted. Whatever spec.cleanup keeps, a run that did not succeed (cancelled, failed,
// timed out) leaves no daprd opened on its pod's address behind (closeExposedSidecars), and
// only the result documents its status names are kept (retireDocuments).
func (r *Reconciler) cleanup(ctx context.Context, run *perfv1alpha1.PerfRun) error {
	if !run.Finished() {
		return nil
	}
	if err := r.stopLoad(ctx, run); err != nil {
		return err
	}
	if err := r.retireDocuments(ctx, run); err != nil {
		return err
	}
	if err := r.closeExposedSidecars(ctx, run); err != nil {
		return err
	}
	switch run.Spec.Cleanup {
	case perfv1alpha1.CleanupNever:
		return nil
	case perfv1alpha1.CleanupAlways:
	default: // OnSuccess: keep a failed run's pods for inspection; a cancelled run's are not kept
		if !run.Succeeded() && !cancelled(run) {
			return nil
		}
	}
	sel := client.MatchingLabels{workload.LabelRun: run.Name}
	var children []client.Object
	var deploys appsv1.DeploymentList
	var services corev1.ServiceList
	var jobs batchv1.JobList
	var policies networkingv1.NetworkPolicyList
	for _, list := range []client.ObjectList{&deploys, &services, &jobs, &policies} {
		if err := r.List(ctx, list, client.InNamespace(run.Namespace), sel); err != nil {
			return err
		}
	}
	for i := range deploys.Items {
		children = append(children, &deploys.Items[i])
	}
	for i := range services.Items {
		children = append(children, &services.Items[i])
	}
	for i := range jobs.Items {
		children = append(children, &jobs.Items[i])
	}
	for i := range policies.Items {
		children = append(children, &policies.Items[i])
	}
	// The group token's Secret is left to its owner reference: it goes with the run, so the
	// manager needs no right to delete Secrets.
	if run.Spec.DaprEnabled() {
		children = append(children, workload.DaprChildren(run)...)
	}
	for _, obj := range children {
		if err := r.deleteChild(ctx, run, obj); err != nil {
			return err
		}
	}
	return nil
}

// cancelled is a run someone cancelled: they asked for it to stop, and its workloads go
// as a succeeded run's do (cleanup Never keeps them all the same).
func cancelled(run *perfv1alpha1.PerfRun) bool {
	c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed)
	return c != nil && c.Status == metav1.ConditionTrue && c.Reason == perfv1alpha1.ReasonCancelled
}

// closeExposedSidecars deletes the target Deployments of a run that did not succeed and
// opened its target's daprd API on the pod's address (workload.ExposesSidecar: the run's
// token and NetworkPolicy guard it, and many network plugins enforce no policy; an API
// that reads the tenant's components is not left up behind one guard). The load tester's Job, its logs and the rest stay as spec.cleanup says: they
// hold what went wrong; the opened daprd holds the tenant's components. A run that succeeded
// keeps its target only under cleanup Never, which the user asked for.
func (r *Reconciler) closeExposedSidecars(ctx context.Context, run *perfv1alpha1.PerfRun) error {
	if run.Succeeded() || !workload.ExposesSidecar(run) {
		return nil
	}
	var deploys appsv1.DeploymentList
	sel := client.MatchingLabels{workload.LabelRun: run.Name, workload.LabelComponent: string(workload.RoleTarget)}
	if err := r.List(ctx, &deploys, client.InNamespace(run.Namespace), sel); err != nil {
		return err
	}
	for i := range deploys.Items {
		if err := r.deleteChild(ctx, run, &deploys.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

// stopLoad suspends every Job of a finished run that still drives load (a run that timed
// out or failed mid-load): whatever the cleanup policy keeps, a finished run sends no more
// requests, so it never disturbs the next run of its schedule, nor another tenant's run the
// queue admits once this one left it. Every generation's Job, not only the latest: a spec
// edit that the preflight refuses ends the run before the earlier generation's Job is
// deleted. The Job controller stops the pods; the Jobs stay for inspection.
func (r *Reconciler) stopLoad(ctx context.Context, run *perfv1alpha1.PerfRun) error {
	var jobs batchv1.JobList
	if err := r.List(ctx, &jobs, client.InNamespace(run.Namespace), client.MatchingLabels{workload.LabelRun: run.Name}); err != nil {
		return err
	}
	var errs []error
	for i := range jobs.Items {
		job := &jobs.Items[i]
		if !metav1.IsControlledBy(job, run) || jobFinished(job) || ptr.Deref(job.Spec.Suspend, false) {
			continue
		}
		orig := job.DeepCopy()
		job.Spec.Suspend = ptr.To(true)
		if err := r.Patch(ctx, job, client.MergeFrom(orig)); client.IgnoreNotFound(err) != nil {
			errs = append(errs, fmt.Errorf("stopping the load of Job %s: %w", job.Name, err))
			continue
		}
		log.FromContext(ctx).Info("Load stopped", "job", job.Name, "phase", run.Status.Phase)
	}
	return errors.Join(errs...)
}

// deleteChild deletes obj if it exists and run controls it; pods of Jobs and Deployments go
// with them (background propagation).
func (r *Reconciler) deleteChild(ctx context.Context, run *perfv1alpha1.PerfRun, obj client.Object) error {
	if obj.GetUID() == "" { // only a name: look first, so nothing the run does not own is touched
		err := r.Get(ctx, client.ObjectKeyFromObject(obj), obj)
		if apierrors.IsNotFound(err) || meta.IsNoMatchError(err) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	if !metav1.IsControlledBy(obj, run) {
		return nil
	}
	err := r.Delete(ctx, obj, client.PropagationPolicy(metav1.DeletePropagationBackground))
	if apierrors.IsNotFound(err) || meta.IsNoMatchError(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deleting %T %s: %w", obj, obj.GetName(), err)
	}
	return nil
}
