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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// workflowPreflight is Workflow's check: a Dapr whose workflows the load tester's Go SDK
// (v1.13, Dapr 1.16's) can host, a scheduler running (Dapr 1.15+ keeps a workflow's timers
// and retries there), and the state store the run names.
type workflowPreflight struct{}

func (workflowPreflight) refusal(ctx context.Context, r *Reconciler, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	if reason, msg, err := preflight.SchedulerRefusal(ctx, r.preflightCluster(), run, "workflows on Dapr's scheduler, as the load tester's Go SDK expects"); reason != "" || err != nil {
		return reason, msg, err
	}
	name := run.Spec.WorkflowSettings().StateStore
	if name == "" {
		return "", "", nil
	}
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(workload.ComponentGVK)
	err = r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, store)
	if apierrors.IsNotFound(err) {
		return perfv1alpha1.ReasonStateStoreNotFound, fmt.Sprintf("spec.workflow.stateStore names Component %q, which does not exist in namespace %q: create it "+
			"(with metadata actorStateStore: \"true\") or leave stateStore empty for an in-memory one", name, run.Namespace), nil
	}
	return "", "", err
}
