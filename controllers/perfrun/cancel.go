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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
)

// honourCancel ends a run someone cancelled (perf.daprbench.io/cancel). It is the first
// step, so a queued run leaves the queue and a loading one is stopped by the cleanup that
// follows every finished run.
func (r *Reconciler) honourCancel(_ context.Context, s *runScope) (stepResult, error) {
	why, ok := perfv1alpha1.CancelRequested(s.run.Annotations)
	if !ok {
		return proceed, nil
	}
	if why == "" {
		why = "no reason given"
	}
	// The annotation may hold 256 KiB; a condition's message, 32 KiB.
	markFailed(s.run, r.now(), perfv1alpha1.ReasonCancelled, "cancelled: %s", diagnose.Quote(why, 1024))
	return stopHere, nil
}
