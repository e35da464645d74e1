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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// enforceTimeout ends a run that has passed spec.timeout, saying where it was stuck. A Job
// that already finished is collected instead: its result beats the deadline.
func (r *Reconciler) enforceTimeout(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	if r.Clock.Now().Before(r.deadline(run)) {
		return proceed, nil
	}
	job, err := s.Job(ctx)
	if err != nil {
		return proceed, err
	}
	if job != nil && jobFinished(job) {
		return proceed, nil
	}
	timeout := run.Spec.EffectiveTimeout()
	if !run.ConditionTrue(perfv1alpha1.ConditionWorkloadsReady) {
		pods, err := s.Pods(ctx, workload.RoleTarget, workload.RoleBaseline, workload.RoleStore)
		if err != nil {
			return proceed, err
		}
		msg := fmt.Sprintf("the target did not become Available within the run's timeout (%v): %s", timeout, diagnose.Describe(pods))
		setWorkloadsReady(run, false, perfv1alpha1.ReasonTargetNotAvailable, msg)
		markFailed(run, r.now(), perfv1alpha1.ReasonTargetNotAvailable, "%s", msg)
		return stopHere, nil
	}
	pods, err := s.Pods(ctx, workload.RoleLoadTester)
	if err != nil {
		return proceed, err
	}
	markFailed(run, r.now(), perfv1alpha1.ReasonTimeout,
		"the run did not finish within its timeout (%v; set spec.timeout to allow more): load tester %s", timeout, diagnose.Describe(pods))
	return stopHere, nil
}
