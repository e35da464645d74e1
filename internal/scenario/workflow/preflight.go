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

package workflow

import (
	"context"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
)

// check is Workflow's preflight: a Dapr whose workflows the load tester's Go SDK (v1.13,
// Dapr 1.16's) can host, a scheduler running (Dapr 1.15+ keeps a workflow's timers and
// retries there), and the state store the run names.
type check struct{}

func (check) Refusal(ctx context.Context, c preflight.Cluster, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	if reason, msg, err := preflight.SchedulerRefusal(ctx, c, run, "workflows on Dapr's scheduler, as the load tester's Go SDK expects"); reason != "" || err != nil {
		return reason, msg, err
	}
	return preflight.ActorStoreRefusal(ctx, c, run, "spec.workflow.stateStore", run.Spec.WorkflowSettings().StateStore)
}
