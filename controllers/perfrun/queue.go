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
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/queue"
)

// The run queue: two benchmarks measuring at once on the same nodes corrupt each other, so
// an exclusive run starts its load only when no other exclusive run measures, and no
// earlier one waits, on a node it may use. The queue is not stored anywhere: it is the PerfRuns themselves,
// ordered by creation, so it survives a manager restart and a deleted run leaves it.

// waitForTurn reports whether the run may start its load now; otherwise it has set
// Queued=True naming the run it waits for.
func (r *Reconciler) waitForTurn(ctx context.Context, run *perfv1alpha1.PerfRun) (bool, error) {
	queued := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionQueued)
	if !run.Spec.IsExclusive() || queued != nil && queued.Status == metav1.ConditionFalse {
		return true, nil
	}
	// One admission at a time, so two runs never both see the other not yet measuring.
	r.memory.admitting.Lock()
	defer r.memory.admitting.Unlock()
	ahead, err := r.runAhead(ctx, run)
	if err != nil {
		return false, err
	}
	if ahead != "" {
		if queued != nil && queued.Status == metav1.ConditionTrue {
			if waited := r.Clock.Since(queued.LastTransitionTime.Time); waited >= run.Spec.EffectiveMaxQueueWait() {
				markFailed(run, r.now(), perfv1alpha1.ReasonQueueTimeout,
					"waited %v for its turn, past spec.maxQueueWait (%v), behind %s; keep tenants' runs apart with load-tester and target nodeSelectors, or raise maxQueueWait",
					waited.Round(time.Second), run.Spec.EffectiveMaxQueueWait(), ahead)
				return false, nil
			}
		}
		setQueued(run, ahead)
		return false, nil
	}
	if queued != nil && queued.Status == metav1.ConditionTrue {
		run.Status.QueueWait = &metav1.Duration{Duration: r.Clock.Since(queued.LastTransitionTime.Time).Round(1e9)}
	}
	setCondition(run, perfv1alpha1.ConditionQueued, metav1.ConditionFalse, perfv1alpha1.ReasonAdmitted,
		"no earlier run measures or waits on this run's nodes")
	r.memory.admit(run, r.Clock.Now())
	return true, nil
}

// admissionMemory is how long an admitted run counts as measuring whatever the cache says:
// far longer than the cache takes to show its Running status.
const admissionMemory = time.Minute

// runAhead names the earliest run this one must wait for, "" when none.
func (r *Reconciler) runAhead(ctx context.Context, run *perfv1alpha1.PerfRun) (string, error) {
	var runs perfv1alpha1.PerfRunList
	if err := r.List(ctx, &runs); err != nil {
		return "", err
	}
	var nodes corev1.NodeList
	// Nodes are read past the cache: a queued run reads them once per poll, and the
	// manager keeps no informer of the cluster's nodes.
	nodeErr := r.APIReader.List(ctx, &nodes)
	now := r.Clock.Now()
	return queue.Ahead(run, runs.Items, nodes.Items, nodeErr == nil, func(other *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r.memory.measuringSoon(other, now)
	}), nil
}
