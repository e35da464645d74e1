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
	"slices"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/internal/assess"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// runScope is the cluster as one reconcile of a PerfRun sees it, read once on first use:
// the load-tester Job of the current generation and the pods the run's own workloads
// control. Pods are matched by owner, never by labels alone: anyone who may create a pod
// in the namespace can copy a run's labels, and such a pod must not become its result,
// its target node or its sidecar image.
type runScope struct {
	run    *perfv1alpha1.PerfRun
	reader client.Reader

	job     *batchv1.Job // nil: this generation has no Job (yet)
	jobRead bool
	pods    []corev1.Pod // newest first
	podRead bool

	// events are the pass's own events, emitted once its status is written.
	events *pass.Events
	// evidence is what collect gathered of a finished load, for judge; nil until then.
	// histograms and profiles are the report's, for the result document.
	evidence   *assess.Evidence
	histograms []perfv1alpha1.PathHistograms
	profiles   *perfv1alpha1.ProfilesStatus
	// document is the result document judge wrote (or rejudge), for the exporter.
	document *perfv1alpha1.ResultDocument
}

func newRunScope(run *perfv1alpha1.PerfRun, reader client.Reader) *runScope {
	return &runScope{run: run, reader: reader}
}

// Job is the load-tester Job of the current generation that the run controls, nil when
// there is none.
func (s *runScope) Job(ctx context.Context) (*batchv1.Job, error) {
	if s.jobRead {
		return s.job, nil
	}
	job := &batchv1.Job{}
	err := s.reader.Get(ctx, client.ObjectKey{Namespace: s.run.Namespace, Name: workload.NamesFor(s.run).Job}, job)
	switch {
	case apierrors.IsNotFound(err):
		job = nil
	case err != nil:
		return nil, err
	case !metav1.IsControlledBy(job, s.run):
		job = nil // named like the run's Job, made by someone else: applying will say so
	}
	s.job, s.jobRead = job, true
	return job, nil
}

// Pods are the run's pods playing any of roles, newest first.
func (s *runScope) Pods(ctx context.Context, roles ...workload.Role) ([]corev1.Pod, error) {
	if !s.podRead {
		pods, err := s.ownPods(ctx)
		if err != nil {
			return nil, err
		}
		s.pods, s.podRead = pods, true
	}
	var out []corev1.Pod
	for _, p := range s.pods {
		if slices.Contains(roles, workload.Role(p.Labels[workload.LabelComponent])) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Forget drops what was read, for a step that has just created the Job or the workloads.
func (s *runScope) Forget() { s.jobRead, s.podRead = false, false }

// ownPods lists the pods labelled as the run's and keeps those whose controller is the
// current Job or a ReplicaSet of a Deployment the run controls.
func (s *runScope) ownPods(ctx context.Context) ([]corev1.Pod, error) {
	owners, err := s.podOwners(ctx)
	if err != nil {
		return nil, err
	}
	var list corev1.PodList
	if err := s.reader.List(ctx, &list, client.InNamespace(s.run.Namespace), client.MatchingLabels{workload.LabelRun: s.run.Name}); err != nil {
		return nil, fmt.Errorf("listing pods: %w", err)
	}
	var pods []corev1.Pod
	for _, p := range list.Items {
		if ref := metav1.GetControllerOf(&p); ref != nil && owners[ref.UID] {
			pods = append(pods, p)
		}
	}
	slices.SortFunc(pods, func(a, b corev1.Pod) int { return b.CreationTimestamp.Compare(a.CreationTimestamp.Time) })
	return pods, nil
}

// podOwners are the UIDs that may control the run's pods: the current Job, and every
// ReplicaSet of a Deployment the run controls.
func (s *runScope) podOwners(ctx context.Context) (map[types.UID]bool, error) {
	owners := map[types.UID]bool{}
	job, err := s.Job(ctx)
	if err != nil {
		return nil, err
	}
	if job != nil {
		owners[job.UID] = true
	}
	sets, err := workload.ReplicaSetRoles(ctx, s.reader, s.run)
	if err != nil {
		return nil, err
	}
	for uid := range sets {
		owners[uid] = true
	}
	return owners, nil
}
