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

package preflight

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// SchedulerRefusal refuses, with DaprFeatureMissing, a Dapr older than 1.15 or one whose
// scheduler runs no pod; why says what the run's scenario needs the scheduler for.
func SchedulerRefusal(ctx context.Context, c Cluster, run *perfv1alpha1.PerfRun, why string) (reason, msg string, err error) {
	version := run.Status.Environment.DaprVersion
	if ok, known := diagnose.AtLeast(version, 1, 15); known && !ok {
		return perfv1alpha1.ReasonDaprFeatureMissing, fmt.Sprintf("scenario %s needs Dapr 1.15 or later (%s), "+
			"but the control plane is Dapr %s: upgrade Dapr", run.Spec.Scenario, why, version), nil
	}
	var pods corev1.PodList
	if err := c.APIReader.List(ctx, &pods, client.InNamespace(c.DaprNamespace), client.MatchingLabels{"app": workload.SchedulerApp}); err != nil {
		return "", "", err
	}
	if !anyRunning(pods.Items) {
		return perfv1alpha1.ReasonDaprFeatureMissing, fmt.Sprintf("scenario %s needs Dapr's scheduler, and no pod labelled app=%s runs in "+
			"namespace %q: install Dapr 1.15+ with its scheduler (Helm value dapr_scheduler.enabled)", run.Spec.Scenario, workload.SchedulerApp, c.DaprNamespace), nil
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
