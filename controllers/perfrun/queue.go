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
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/queue"
)

// The run queue: two benchmarks measuring at once on the same nodes corrupt each other, so
// a run is admitted only when no conflicting run (one of the two exclusive) holds, and none
// waits ahead of it, on a node it may use. Admission comes before anything that holds
// resources (as in Kueue): a queued run has no pods, so any number of runs applied at once
// on a small cluster take their turns instead of failing for want of the CPU the targets
// of runs still waiting would hold. An admitted run holds its nodes from its first pod to
// its end. The queue is not stored anywhere: it is
// the PerfRuns themselves, in turns by namespace then by creation, so it survives a manager
// restart and a deleted run leaves it. Before any of that, a namespace may hold only
// --max-runs-per-namespace unfinished runs: the rest wait without creating anything.

// activeRunsIndex indexes unfinished PerfRuns, so the queue reads the runs that can hold
// it, not every PerfRun the cluster has kept.
const activeRunsIndex = "perf.daprbench.io/active"

func indexActiveRuns(obj client.Object) []string {
	if run, ok := obj.(*perfv1alpha1.PerfRun); ok && !run.Finished() {
		return []string{"true"}
	}
	return nil
}

// activeRuns lists the unfinished runs (of one namespace, when given) from the cache's
// index, without copying them: the queue only reads.
func (r *Reconciler) activeRuns(ctx context.Context, namespace string) ([]perfv1alpha1.PerfRun, error) {
	var runs perfv1alpha1.PerfRunList
	opts := []client.ListOption{client.MatchingFields{activeRunsIndex: "true"}, client.UnsafeDisableDeepCopy}
	if namespace != "" {
		opts = append(opts, client.InNamespace(namespace))
	}
	if err := r.List(ctx, &runs, opts...); err != nil {
		return nil, err
	}
	return runs.Items, nil
}

// waitForNamespaceShare lets a run past only while its namespace has fewer earlier
// unfinished runs than --max-runs-per-namespace; otherwise it sets Queued=True
// (NamespaceLimit) and creates nothing. Earlier runs keep their share, so the order is
// stable and needs no memory.
func (r *Reconciler) waitForNamespaceShare(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	queued := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionQueued)
	if r.MaxRunsPerNamespace <= 0 || queued != nil && queued.Reason != perfv1alpha1.ReasonNamespaceLimit {
		return proceed, nil
	}
	runs, err := r.activeRuns(ctx, run.Namespace)
	if err != nil {
		return proceed, err
	}
	earlier := 0
	for i := range runs {
		if runs[i].UID != run.UID && queue.Before(&runs[i], run) {
			earlier++
		}
	}
	if earlier < r.MaxRunsPerNamespace {
		if queued != nil { // its wait counts as queue time, not towards its timeout
			addQueueWait(run, r.Clock.Since(queued.LastTransitionTime.Time))
			meta.RemoveStatusCondition(&run.Status.Conditions, perfv1alpha1.ConditionQueued)
		}
		return proceed, nil
	}
	if queued != nil {
		if waited := r.Clock.Since(queued.LastTransitionTime.Time); waited >= run.Spec.EffectiveMaxQueueWait() {
			markFailed(run, r.now(), perfv1alpha1.ReasonQueueTimeout,
				"waited %v behind %d earlier unfinished runs of namespace %s, past spec.maxQueueWait (%v); the operator allows %d at once (--max-runs-per-namespace)",
				waited.Round(time.Second), earlier, run.Namespace, run.Spec.EffectiveMaxQueueWait(), r.MaxRunsPerNamespace)
			return stopHere, nil
		}
	}
	setCondition(run, perfv1alpha1.ConditionQueued, metav1.ConditionTrue, perfv1alpha1.ReasonNamespaceLimit,
		fmt.Sprintf("namespace %s has %d earlier unfinished runs and the operator allows %d at once (--max-runs-per-namespace): "+
			"nothing is created until one finishes", run.Namespace, earlier, r.MaxRunsPerNamespace))
	run.Status.Phase = perfv1alpha1.PhasePending
	return waitFor(r.PollInterval), nil
}

// admit lets the run on to create its workloads once its turn has come (Queued=False,
// Admitted); until then it creates nothing. A run whose Job exists was admitted by the
// pass that created it, which may have lost its status write to a conflict.
func (r *Reconciler) admit(ctx context.Context, s *runScope) (stepResult, error) {
	if s.run.Admitted() {
		return proceed, nil
	}
	job, err := s.Job(ctx)
	if err != nil {
		return proceed, err
	}
	if job != nil {
		setCondition(s.run, perfv1alpha1.ConditionQueued, metav1.ConditionFalse, perfv1alpha1.ReasonAdmitted, admittedMessage)
		return proceed, nil
	}
	if mayStart, err := r.waitForTurn(ctx, s.run); err != nil || !mayStart {
		return waitFor(r.PollInterval), err
	}
	return proceed, nil
}

// waitForTurn reports whether the run may start now; otherwise it has set Queued=True
// naming what it waits for.
func (r *Reconciler) waitForTurn(ctx context.Context, run *perfv1alpha1.PerfRun) (bool, error) {
	queued := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionQueued)
	if queued != nil && queued.Status == metav1.ConditionFalse {
		return true, nil
	}
	// One admission at a time, so two runs never both see the other not yet measuring.
	r.memory.admitting.Lock()
	defer r.memory.admitting.Unlock()
	ahead, err := r.runAhead(ctx, run)
	if err != nil {
		return false, err
	}
	if ahead != nil {
		what := ahead.DescribeFor(run.Namespace)
		if queue.WaitsForTurn(run) {
			if waited := r.Clock.Since(queued.LastTransitionTime.Time); waited >= run.Spec.EffectiveMaxQueueWait() {
				markFailed(run, r.now(), perfv1alpha1.ReasonQueueTimeout,
					"waited %v for its turn, past spec.maxQueueWait (%v), behind %s; keep tenants' runs apart with load-tester and target nodeSelectors, or raise maxQueueWait",
					waited.Round(time.Second), run.Spec.EffectiveMaxQueueWait(), what)
				return false, nil
			}
		}
		setQueued(run, what)
		return false, nil
	}
	if queued != nil && queued.Status == metav1.ConditionTrue {
		addQueueWait(run, r.Clock.Since(queued.LastTransitionTime.Time))
	}
	setCondition(run, perfv1alpha1.ConditionQueued, metav1.ConditionFalse, perfv1alpha1.ReasonAdmitted, admittedMessage)
	r.memory.admit(run, r.Clock.Now())
	return true, nil
}

const admittedMessage = "no conflicting run holds or waits ahead on this run's nodes: the run creates its workloads and measures"

// addQueueWait adds to status.queueWait: a run may wait for its namespace's share, then for
// its nodes.
func addQueueWait(run *perfv1alpha1.PerfRun, waited time.Duration) {
	if run.Status.QueueWait != nil {
		waited += run.Status.QueueWait.Duration
	}
	run.Status.QueueWait = &metav1.Duration{Duration: waited.Round(time.Second)}
}

// admissionMemory is how long an admitted run counts as measuring whatever the cache says:
// far longer than the cache takes to show its Running status.
const admissionMemory = time.Minute

// runAhead is the earliest run this one must wait for, nil when none.
func (r *Reconciler) runAhead(ctx context.Context, run *perfv1alpha1.PerfRun) (*queue.Blocker, error) {
	runs, err := r.activeRuns(ctx, "")
	if err != nil {
		return nil, err
	}
	var nodes corev1.NodeList
	// Nodes are read past the cache: a queued run reads them once per poll, and the
	// manager keeps no informer of the cluster's nodes.
	nodeErr := r.APIReader.List(ctx, &nodes)
	now := r.Clock.Now()
	return queue.Ahead(run, runs, nodes.Items, nodeErr == nil, func(other *perfv1alpha1.PerfRun) (*perfv1alpha1.PerfRun, bool) {
		return r.memory.measuringSoon(other, now)
	}, r.memory.lastServed), nil
}
