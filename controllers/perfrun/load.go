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

	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// startLoad creates the load-tester Job of an admitted run (admit) whose workloads are
// ready; a run whose Job exists goes on to watch it.
func (r *Reconciler) startLoad(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	job, err := s.Job(ctx)
	if err != nil {
		return proceed, err
	}
	if job != nil {
		return proceed, nil
	}
	// Starting load is the one costly act: confirm with the API server itself (not the
	// cache, which may lag behind a deletion) that the run still stands.
	live := &perfv1alpha1.PerfRun{}
	if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(run), live); err != nil || !live.DeletionTimestamp.IsZero() || live.Generation != run.Generation {
		return stopHere, client.IgnoreNotFound(err)
	}
	if run.Spec.LoadTester.EffectiveReplicas() > 1 {
		if err := r.apply(ctx, run, workload.LoadTesterGroupService(run)); err != nil {
			return proceed, err
		}
	}
	// The target pod's IP: a same-pod baseline calls it, so does a four-path run's
	// server-only path, the load tester takes the target daprd's profile there, and orders
	// a fault run's faults from its app (and from each further sidecar variant's).
	targetIP, variantIPs := "", []string(nil)
	if workload.NeedsTargetIP(run) {
		targets, err := s.Pods(ctx, workload.RoleTarget)
		if err != nil {
			return proceed, err
		}
		pod := firstTargetPod(targets)
		if pod == nil {
			return waitFor(r.PollInterval), nil // the Deployment is Available: its pod's IP is on its way
		}
		targetIP = pod.Status.PodIP
		if workload.FaultsFromTarget(run) {
			var all bool
			if variantIPs, all = variantTargetIPs(run, targets); !all {
				return waitFor(r.PollInterval), nil
			}
		}
		r.recordNodes(run, targets, nil)
		if run.Spec.BaselineEnabled() && !run.Spec.BaselineTwinEnabled() {
			run.Status.Environment.BaselinePod = podPlace(pod)
		}
	}
	if err := r.apply(ctx, run, workload.LoadTesterJob(run, r.Workload, targetIP, variantIPs...)); err != nil {
		return proceed, err
	}
	s.Forget()
	setRunning(run)
	return waitFor(r.PollInterval), nil
}

// watchLoad holds the run while its load-tester Job works: progress, usage, counters and
// disturbances recorded on every poll, and a load tester that cannot start (refused, not
// injected, its image never pulled) fails the run.
func (r *Reconciler) watchLoad(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	job, err := s.Job(ctx)
	if err != nil || job == nil {
		return waitFor(r.PollInterval), err
	}
	if jobFinished(job) {
		return proceed, nil
	}
	setRunning(run)
	pods, err := s.Pods(ctx, workload.RoleLoadTester)
	if err != nil {
		return proceed, err
	}
	if len(pods) == 0 {
		refusal, err := r.jobRefusal(ctx, job)
		if err != nil || refusal == "" {
			return waitFor(r.PollInterval), err
		}
		return r.refused(run, "load-tester Job "+job.Name, refusal, job.CreationTimestamp, nil), nil
	}
	r.recordNodes(run, nil, pods)
	r.recordProgress(run, pods)
	if pod := diagnose.MissingSidecar(pods); pod != "" {
		return r.failNotInjected(run, "load tester", pod), nil
	}
	r.sampleUsage(ctx, s, pods)
	r.observeDisturbances(ctx, s, pods)
	if reason, what, failure := r.cannotStart(pods); failure != "" {
		markFailed(run, r.now(), reason, "the load tester %s: %s", what, failure)
		return stopHere, nil
	}
	return waitFor(r.PollInterval), nil
}
