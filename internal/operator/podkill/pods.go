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

package podkill

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// hasVariant reports whether code names a further sidecar variant of the run (d1, d2, …):
// an order names one to kill its target; the first's names none.
func hasVariant(run *perfv1alpha1.PerfRun, code string) bool {
	for i := 1; i < len(run.Spec.Variants); i++ {
		if string(result.DaprVariant(i)) == code {
			return true
		}
	}
	return false
}

// runPods are the pods of role that the run's own Deployment made (its own Job, for the
// load tester); of a run with sidecar variants, a target's are those of the variant whose
// path code is variant ("" the first's).
func runPods(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun, role workload.Role, variant string) ([]corev1.Pod, error) {
	if role == workload.RoleLoadTester {
		return jobPods(ctx, c, run)
	}
	owners, err := workload.ReplicaSetRoles(ctx, c, run)
	if err != nil {
		return nil, err
	}
	selector := workload.Selector(run, role)
	if role == workload.RoleTarget && len(run.Spec.Variants) > 0 {
		selector[workload.LabelVariant] = cmp.Or(variant, string(result.Dapr)) // each variant's Deployment labels its pods
	}
	var list corev1.PodList
	if err := c.List(ctx, &list, client.InNamespace(run.Namespace), client.MatchingLabels(selector)); err != nil {
		return nil, fmt.Errorf("listing the run's pods: %w", err)
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if ref := metav1.GetControllerOf(&p); ref != nil && owners[ref.UID] == role && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// oldestReady is the ready pod created first (by name between equals): the one a kill
// deletes, so a run of several replicas loses the same one each time it asks.
func oldestReady(pods []corev1.Pod) *corev1.Pod {
	var pick *corev1.Pod
	for i := range pods {
		p := &pods[i]
		if !ready(p) {
			continue
		}
		if pick == nil || p.CreationTimestamp.Before(&pick.CreationTimestamp) ||
			(p.CreationTimestamp.Equal(&pick.CreationTimestamp) && p.Name < pick.Name) {
			pick = p
		}
	}
	return pick
}

// ready: the pod's Ready condition is True, so its Service sends it traffic.
func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// jobPods are the pods the run's own load-tester Job made, not being deleted.
func jobPods(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun) ([]corev1.Pod, error) {
	var job batchv1.Job
	if err := c.Get(ctx, types.NamespacedName{Namespace: run.Namespace, Name: workload.NamesFor(run).Job}, &job); err != nil || !metav1.IsControlledBy(&job, run) {
		return nil, fmt.Errorf("the run's load-tester Job: %v", cmp.Or(err, errors.New("not the run's")))
	}
	var list corev1.PodList
	if err := c.List(ctx, &list, client.InNamespace(run.Namespace), client.MatchingLabels{batchv1.JobNameLabel: job.Name}); err != nil {
		return nil, fmt.Errorf("listing the run's load-tester pods: %w", err)
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if metav1.IsControlledBy(&p, &job) && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// lastReplica is the running load-tester pod of the highest completion index above 0: the
// group's leader (pod 0) holds the clock and applies the faults, and is never the one
// killed; the same index is killed each time. Running, not Ready: no Service sends a
// load tester traffic, and a replacement that met the others at a phase's barrier is
// sending its share before its daprd's readiness probe has passed. (The answer still waits
// for a Ready replacement, as for every role: the fault's end is the same event for all.)
func lastReplica(pods []corev1.Pod) *corev1.Pod {
	var pick *corev1.Pod
	best := 0
	for i := range pods {
		n, err := strconv.Atoi(pods[i].Annotations[batchv1.JobCompletionIndexAnnotation])
		if err == nil && n > best && pods[i].Status.Phase == corev1.PodRunning {
			pick, best = &pods[i], n
		}
	}
	return pick
}
