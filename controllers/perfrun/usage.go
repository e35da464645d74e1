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
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/usage"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// metricsTimeout bounds one reading of the metrics API: an aggregated API that hangs (its
// backend gone) must not hold the reconcile, which the whole run waits on.
const metricsTimeout = 10 * time.Second

// usageTailWait bounds how long a finished run waits for the metrics API to serve the
// windows that cover the end of its load (metrics-server serves a window up to one
// resolution, ~15 s, after it ends).
const usageTailWait = 45 * time.Second

// sampleUsage records the metrics API's newest windows in status.liveUsage from the load
// tester's start on. A failing metrics API only sets ResourceUsageAvailable=False: a run
// never fails for want of metrics.
func (r *Reconciler) sampleUsage(ctx context.Context, s *runScope, testers []corev1.Pod) {
	run := s.run
	if r.Usage == nil && r.Counters == nil {
		return
	}
	since, ok := loadStart(testers)
	if !ok || !r.memory.sampleDue(run, r.Clock.Now(), r.UsageInterval) {
		return
	}
	r.sampleCounters(ctx, s, testers)
	if r.Usage == nil {
		return
	}
	if run.Status.LiveUsage == nil {
		run.Status.LiveUsage = &perfv1alpha1.LiveUsage{}
	}
	ctx, cancel := context.WithTimeout(ctx, metricsTimeout)
	defer cancel()
	if _, err := r.Usage.Sample(ctx, run, run.Status.LiveUsage, since); err != nil {
		log.FromContext(ctx).Info("Metrics API unavailable", "error", err.Error())
		setCondition(run, perfv1alpha1.ConditionResourceUsageAvailable, metav1.ConditionFalse, perfv1alpha1.ReasonMetricsUnavailable, err.Error())
		return
	}
	if len(run.Status.LiveUsage.Windows) > 0 {
		// No count here: a message that changed with every window would be a new condition
		// message (and a status write) per window.
		setCondition(run, perfv1alpha1.ConditionResourceUsageAvailable, metav1.ConditionTrue, perfv1alpha1.ReasonSampled,
			fmt.Sprintf("recording metrics windows since %s; each is attributed to the measured run that contains it when the load ends",
				since.UTC().Format(time.RFC3339)))
	}
}

// awaitingTail is true while a finished load's last readings may still come, bounded by
// usageTailWait: metrics flow but no window reaches the end of the last measured run yet
// (metrics-server serves a window up to a resolution after it ends), or a container that
// still runs has no counter reading after it (without one, a short last phase gets no CPU
// figure at all).
func (r *Reconciler) awaitingTail(run *perfv1alpha1.PerfRun, sum *result.Summary, finishedAt time.Time) bool {
	live := run.Status.LiveUsage
	phases := assess.Phases(sum)
	if live == nil || len(phases) == 0 || !r.Clock.Now().Before(finishedAt.Add(usageTailWait)) {
		return false
	}
	lastEnd := phases[len(phases)-1].End.Add(-assess.PhaseEdge)
	windowsBehind := r.Usage != nil && len(live.Windows) > 0 &&
		!slices.ContainsFunc(live.Windows, func(w perfv1alpha1.UsageWindow) bool { return !w.End.Time.Before(lastEnd) })
	countersBehind := r.Counters != nil && len(live.Counters) > 0 && usage.CountersBehind(live.Counters, lastEnd) != ""
	return windowsBehind || countersBehind
}

// metricsFailed is true when sampling already found the metrics API failing.
func metricsFailed(run *perfv1alpha1.PerfRun) bool {
	c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionResourceUsageAvailable)
	return c != nil && c.Status == metav1.ConditionFalse
}

// loadStart is when the load tester's container started (running or since terminated).
func loadStart(testers []corev1.Pod) (time.Time, bool) {
	for _, p := range testers {
		for _, s := range p.Status.ContainerStatuses {
			if s.Name != workload.ContainerTester {
				continue
			}
			switch {
			case s.State.Running != nil:
				return s.State.Running.StartedAt.Time, true
			case s.State.Terminated != nil:
				return s.State.Terminated.StartedAt.Time, true
			}
		}
	}
	return time.Time{}, false
}
