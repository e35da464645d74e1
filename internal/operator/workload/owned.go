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

package workload

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// ReplicaSetRoles maps the UID of every ReplicaSet made by a Deployment the run controls to
// that Deployment's role. A pod is the run's when its controller is one of these (or the
// run's Job): its labels alone are not enough, since a tenant may label any pod of theirs so.
func ReplicaSetRoles(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun) (map[types.UID]Role, error) {
	sel := client.MatchingLabels{LabelRun: run.Name}
	var deployments appsv1.DeploymentList
	if err := c.List(ctx, &deployments, client.InNamespace(run.Namespace), sel); err != nil {
		return nil, fmt.Errorf("listing the run's Deployments: %w", err)
	}
	ours := map[types.UID]Role{}
	for i := range deployments.Items {
		if metav1.IsControlledBy(&deployments.Items[i], run) {
			ours[deployments.Items[i].UID] = Role(deployments.Items[i].Labels[LabelComponent])
		}
	}
	var sets appsv1.ReplicaSetList
	if err := c.List(ctx, &sets, client.InNamespace(run.Namespace), sel); err != nil {
		return nil, fmt.Errorf("listing the run's ReplicaSets: %w", err)
	}
	roles := map[types.UID]Role{}
	for i := range sets.Items {
		if ref := metav1.GetControllerOf(&sets.Items[i]); ref != nil {
			if role, ok := ours[ref.UID]; ok {
				roles[sets.Items[i].UID] = role
			}
		}
	}
	return roles, nil
}
