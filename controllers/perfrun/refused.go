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

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
)

// When the API server refuses a run's pods (Pod Security admission, a ResourceQuota, a
// LimitRange, a policy webhook, an invalid object), no pod ever exists: the workload
// controllers only say so in a ReplicaFailure condition (Deployments) or a FailedCreate
// event (Jobs). These helpers read those words, so the run can repeat them.

// +kubebuilder:rbac:groups="",resources=events,verbs=list

// jobRefusal is the latest FailedCreate event of job, read past the cache (events are not
// cached: there are too many of them). Empty when none.
func (r *Reconciler) jobRefusal(ctx context.Context, job *batchv1.Job) (string, error) {
	var events corev1.EventList
	err := r.APIReader.List(ctx, &events, client.InNamespace(job.Namespace), client.MatchingFields{
		"involvedObject.kind": "Job", "involvedObject.name": job.Name, "reason": "FailedCreate",
	})
	if err != nil {
		return "", fmt.Errorf("reading the events of Job %s: %w", job.Name, err)
	}
	var latest *corev1.Event
	for i := range events.Items {
		if latest == nil || diagnose.EventTime(events.Items[i]).After(diagnose.EventTime(*latest)) {
			latest = &events.Items[i]
		}
	}
	if latest == nil {
		return "", nil
	}
	return latest.Message, nil
}

// refused handles a refusal of what's pods, for an object created at created: report says
// so while the run waits; once the image-start grace has passed (a quota may free up, an
// admission policy will not) the run fails with PodsRefused.
func (r *Reconciler) refused(run *perfv1alpha1.PerfRun, what, refusal string, created metav1.Time, report func(msg string)) stepResult {
	msg := fmt.Sprintf("the cluster refuses to create the %s's pods: %s", what, refusal)
	waiting := r.Clock.Now().Sub(created.Time) < r.ImageStartGrace
	if report != nil {
		if waiting {
			report(msg + fmt.Sprintf(" (the run fails if this lasts %v)", r.ImageStartGrace))
		} else {
			report(msg)
		}
	}
	if waiting {
		return waitFor(r.PollInterval)
	}
	markFailed(run, r.now(), perfv1alpha1.ReasonPodsRefused, "%s", msg)
	return stopHere
}
