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

package actors

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// check is ActorActivation's preflight: the state store the run names exists, and no other
// run's target hosts the actor type it names.
type check struct{}

func (check) Refusal(ctx context.Context, c preflight.Cluster, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	if reason, msg, err := preflight.ActorStoreRefusal(ctx, c, run, "spec.actors.stateStore", run.Spec.ActorSettings().StateStore); reason != "" || err != nil {
		return reason, msg, err
	}
	host, err := actorTypeHost(ctx, c, run)
	if err != nil || host == "" {
		return "", "", err
	}
	return perfv1alpha1.ReasonActorTypeInUse, fmt.Sprintf("spec.actors.actorType %q is hosted by %s: Dapr's placement would spread this run's calls over both targets. "+
		"Leave actorType empty (each run then gets a type of its own) or wait for that target to go", run.ActorType(), host), nil
}

// actorTypeHost names another run's target Deployment in the namespace that hosts the
// actor type this run names explicitly (empty: none, or the type is the run's own).
// Finished runs count while their target stands (spec.cleanup may keep it): it is still
// registered with placement.
func actorTypeHost(ctx context.Context, c preflight.Cluster, run *perfv1alpha1.PerfRun) (string, error) {
	if run.Spec.ActorSettings().ActorType == "" {
		return "", nil
	}
	var targets appsv1.DeploymentList
	if err := c.Cached.List(ctx, &targets, client.InNamespace(run.Namespace), client.HasLabels{workload.LabelRun}); err != nil {
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
