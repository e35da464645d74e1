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
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// desiredChildren are the objects a run needs before its load starts.
func (r *Reconciler) desiredChildren(run *perfv1alpha1.PerfRun) []client.Object {
	objs := []client.Object{workload.RunServiceAccount(run)} // first: pods cannot be created before it
	if r.NetworkPolicies {
		// Before the workloads they guard: an exposed daprd is never up without its policy.
		for _, p := range workload.NetworkPolicies(run) {
			objs = append(objs, p)
		}
	}
	if run.Spec.DaprEnabled() {
		for _, c := range workload.TracingConfigurations(run) {
			objs = append(objs, c)
		}
	}
	return append(objs, workload.ScenarioChildren(run, r.Workload)...)
}

// provision converges the run's children with server-side apply: created when missing,
// put back when changed, never an "already exists" error. It also removes what the current
// generation no longer wants (a variant's target, a baseline switched off).
func (r *Reconciler) provision(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	for _, obj := range r.desiredChildren(run) {
		if err := r.apply(ctx, run, obj); err != nil {
			return proceed, err
		}
	}
	if err := r.deleteUnwantedTargets(ctx, run); err != nil {
		return proceed, err
	}
	for _, obj := range workload.UnwantedChildren(run) {
		if err := r.deleteChild(ctx, run, obj); err != nil {
			return proceed, err
		}
	}
	return proceed, nil
}

// retireOldGenerations stops an edited run's old load before the run queues again: the
// old generation's Job, its load-tester group's Service (named alike, when it had one) and
// the group's NetworkPolicy. Left running, it would load nodes the queue then gives away.
func (r *Reconciler) retireOldGenerations(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	if run.Generation == 1 {
		return proceed, nil // no older generation
	}
	var jobs batchv1.JobList
	if err := r.List(ctx, &jobs, client.InNamespace(run.Namespace), client.MatchingLabels{workload.LabelRun: run.Name}); err != nil {
		return proceed, err
	}
	gen := strconv.FormatInt(run.Generation, 10)
	for i := range jobs.Items {
		if old := &jobs.Items[i]; old.Labels[workload.LabelGeneration] != gen {
			group := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: old.Name, Namespace: old.Namespace}}
			groupPolicy := &networkingv1.NetworkPolicy{ObjectMeta: metav1.ObjectMeta{Name: old.Name + "-group", Namespace: old.Namespace}}
			for _, obj := range []client.Object{old, group, groupPolicy} {
				if err := r.deleteChild(ctx, run, obj); err != nil {
					return proceed, err
				}
			}
		}
	}
	return proceed, nil
}

// deleteUnwantedTargets removes the targets of sidecar variants the spec no longer names.
func (r *Reconciler) deleteUnwantedTargets(ctx context.Context, run *perfv1alpha1.PerfRun) error {
	if len(run.Spec.Variants) == 0 && run.Generation == 1 {
		return nil // one target, named as ever: nothing can be left over
	}
	var deployments appsv1.DeploymentList
	if err := r.List(ctx, &deployments, client.InNamespace(run.Namespace),
		client.MatchingLabels(workload.Selector(run, workload.RoleTarget))); err != nil {
		return err
	}
	wanted := map[string]bool{}
	for _, v := range workload.VariantTargets(run) {
		wanted[v.Deployment] = true
	}
	for i := range deployments.Items {
		if d := &deployments.Items[i]; !wanted[d.Name] {
			if err := r.deleteChild(ctx, run, d); err != nil {
				return err
			}
		}
	}
	return nil
}
