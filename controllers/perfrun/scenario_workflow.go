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

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// schedulerApp is the app label of Dapr's scheduler pods (its chart's dapr-scheduler-server).
const schedulerApp = "dapr-scheduler-server"

// workflowPreflight is Workflow's check: a Dapr whose workflows the load tester's Go SDK
// (v1.13, Dapr 1.16's) can host, a scheduler running (Dapr 1.15+ keeps a workflow's timers
// and retries there), and the state store the run names.
type workflowPreflight struct{}

func (workflowPreflight) refusal(ctx context.Context, r *Reconciler, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	if reason, msg, err := schedulerRefusal(ctx, r, run, "workflows on Dapr's scheduler, as the load tester's Go SDK expects"); reason != "" || err != nil {
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

// schedulerPreflight is Scheduler's check: a Dapr whose scheduler keeps jobs and reminders.
// Timers are kept by the daprd hosting their actor, in every Dapr: nothing to check.
type schedulerPreflight struct{}

func (schedulerPreflight) refusal(ctx context.Context, r *Reconciler, run *perfv1alpha1.PerfRun) (string, string, error) {
	if run.Spec.SchedulerSettings().API == perfv1alpha1.SchedulerActorTimers {
		return "", "", nil
	}
	return schedulerRefusal(ctx, r, run, "jobs and actor reminders on Dapr's scheduler")
}

// schedulerRefusal refuses, with DaprFeatureMissing, a Dapr older than 1.15 or one whose
// scheduler runs no pod; why says what the run's scenario needs the scheduler for.
func schedulerRefusal(ctx context.Context, r *Reconciler, run *perfv1alpha1.PerfRun, why string) (reason, msg string, err error) {
	version := run.Status.Environment.DaprVersion
	if ok, known := diagnose.AtLeast(version, 1, 15); known && !ok {
		return perfv1alpha1.ReasonDaprFeatureMissing, fmt.Sprintf("scenario %s needs Dapr 1.15 or later (%s), "+
			"but the control plane is Dapr %s: upgrade Dapr", run.Spec.Scenario, why, version), nil
	}
	var pods corev1.PodList
	if err := r.APIReader.List(ctx, &pods, client.InNamespace(r.DaprNamespace), client.MatchingLabels{"app": schedulerApp}); err != nil {
		return "", "", err
	}
	if !anyRunning(pods.Items) {
		return perfv1alpha1.ReasonDaprFeatureMissing, fmt.Sprintf("scenario %s needs Dapr's scheduler, and no pod labelled app=%s runs in "+
			"namespace %q: install Dapr 1.15+ with its scheduler (Helm value dapr_scheduler.enabled)", run.Spec.Scenario, schedulerApp, r.DaprNamespace), nil
	}
	return "", "", nil
}

func anyRunning(pods []corev1.Pod) bool {
	for i := range pods {
		if pods[i].Status.Phase == corev1.PodRunning {
			return true
		}
	}
	return false
}
