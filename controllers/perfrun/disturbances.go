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

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/usage"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// observeDisturbances merges into status.disturbances what happened since the load began to
// the run's pods and to Dapr's control-plane pods. Called on every poll of a loaded run: a
// pod shows only its latest restart, and a deleted pod vanishes. Reading the control plane
// can fail (RBAC, a namespace gone); that is logged, never a reason to fail the run.
func (r *Reconciler) observeDisturbances(ctx context.Context, s *runScope, testers []corev1.Pod) {
	run := s.run
	since, ok := loadStart(testers)
	if !ok || since.IsZero() {
		return
	}
	own, err := s.Pods(ctx, workload.RoleTarget, workload.RoleBaseline, workload.RoleStore, workload.RoleLoadTester)
	if err != nil {
		log.FromContext(ctx).Info("Cannot list the run's pods for disturbances", "error", err.Error())
		return
	}
	var watched []diagnose.WatchedPod
	for i := range own {
		watched = append(watched, diagnose.WatchedPod{Role: own[i].Labels[workload.LabelComponent], Pod: &own[i]})
	}
	if run.Spec.DaprEnabled() {
		// Past the cache, which holds only the runs' own pods.
		var cp corev1.PodList
		if err := r.APIReader.List(ctx, &cp, client.InNamespace(r.DaprNamespace)); err != nil {
			log.FromContext(ctx).Info("Cannot list Dapr's control-plane pods for disturbances", "error", err.Error())
		}
		for i := range cp.Items {
			if app := cp.Items[i].Labels[usage.ControlPlaneLabel]; app != "" {
				watched = append(watched, diagnose.WatchedPod{Role: roles.ControlPlanePrefix + app, Pod: &cp.Items[i]})
			}
		}
	}
	run.Status.Disturbances = diagnose.MergeDisturbances(run.Status.Disturbances, diagnose.Disturbances(watched, since))
}
