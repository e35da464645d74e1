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

package scheduler

import (
	"context"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
)

// check is Scheduler's preflight: a Dapr whose scheduler keeps jobs and reminders. Timers are
// kept by the daprd hosting their actor, in every Dapr: nothing to check.
type check struct{}

func (check) Refusal(ctx context.Context, c preflight.Cluster, run *perfv1alpha1.PerfRun) (string, string, error) {
	if run.Spec.SchedulerSettings().API == perfv1alpha1.SchedulerActorTimers {
		return "", "", nil
	}
	return preflight.SchedulerRefusal(ctx, c, run, "jobs and actor reminders on Dapr's scheduler")
}
