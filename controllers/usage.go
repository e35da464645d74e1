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

package controllers

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/usage"
	"github.com/daprbench/daprbench/internal/workload"
)

// usageThrottle remembers when each run was last sampled, so the metrics API is read once
// per interval however often the run is reconciled. Losing it on restart costs one early read.
type usageThrottle struct {
	mu   sync.Mutex
	last map[types.UID]time.Time
}

func (t *usageThrottle) due(uid types.UID, now time.Time, interval time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last == nil {
		t.last = map[types.UID]time.Time{}
	}
	if last, ok := t.last[uid]; ok && now.Sub(last) < interval {
		return false
	}
	t.last[uid] = now
	return true
}

func (t *usageThrottle) forget(uid types.UID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.last, uid)
}

// sampleUsage folds the metrics API's newest windows into status.liveUsage while the load
// is measured (from the load tester's start plus the warm-up). A failing metrics API only
// sets ResourceUsageAvailable=False: a run never fails for want of metrics.
func (r *PerfRunReconciler) sampleUsage(ctx context.Context, run *perfv1alpha1.PerfRun, testers []corev1.Pod) {
	if r.Usage == nil {
		return
	}
	since, ok := measureStart(run, testers)
	if !ok || !r.throttle.due(run.UID, r.Clock.Now(), r.UsageInterval) {
		return
	}
	if run.Status.LiveUsage == nil {
		run.Status.LiveUsage = &perfv1alpha1.ResourceUsage{}
	}
	if _, err := r.Usage.Sample(ctx, run, run.Status.LiveUsage, since); err != nil {
		log.FromContext(ctx).Info("Metrics API unavailable", "error", err.Error())
		setCondition(run, perfv1alpha1.ConditionResourceUsageAvailable, metav1.ConditionFalse, perfv1alpha1.ReasonMetricsUnavailable, err.Error())
		return
	}
	if samples(run.Status.LiveUsage) > 0 {
		setCondition(run, perfv1alpha1.ConditionResourceUsageAvailable, metav1.ConditionTrue, perfv1alpha1.ReasonSampled,
			fmt.Sprintf("metrics windows per role since %s: %s", since.UTC().Format(time.RFC3339), sampleCounts(run.Status.LiveUsage)))
	}
}

// finishUsage moves the live usage into the result, with the sidecar's usage per 1000 rps.
func (r *PerfRunReconciler) finishUsage(run *perfv1alpha1.PerfRun, actualQPS float64) {
	defer r.throttle.forget(run.UID)
	live := run.Status.LiveUsage
	run.Status.LiveUsage = nil
	if r.Usage == nil {
		return
	}
	if samples(live) == 0 {
		if c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionResourceUsageAvailable); c == nil || c.Status != metav1.ConditionFalse {
			setCondition(run, perfv1alpha1.ConditionResourceUsageAvailable, metav1.ConditionFalse, perfv1alpha1.ReasonMetricsUnavailable,
				"no metrics window fell within the measured load: metrics-server reports every ~15s and a pod's first metrics come ~20s after it starts; run longer")
		}
		return
	}
	if run.Status.Result != nil {
		live.SidecarPer1kQPS = usage.Per1kQPS(live.ServerSidecar, actualQPS)
		run.Status.Result.Resources = live
	}
}

// measureStart is when the measured load began: the load tester's start plus the warm-up.
func measureStart(run *perfv1alpha1.PerfRun, testers []corev1.Pod) (time.Time, bool) {
	for _, p := range testers {
		for _, s := range p.Status.ContainerStatuses {
			if s.Name != workload.ContainerTester {
				continue
			}
			if s.State.Running != nil {
				return s.State.Running.StartedAt.Add(run.Spec.Load.EffectiveWarmup()), true
			}
		}
	}
	return time.Time{}, false
}

// sampleCounts says how many windows each sampled role has, e.g. "serverApp 2, loadTester 2".
func sampleCounts(u *perfv1alpha1.ResourceUsage) string {
	var parts []string
	for _, r := range []struct {
		name  string
		usage *perfv1alpha1.RoleUsage
	}{{"serverApp", u.ServerApp}, {"serverSidecar", u.ServerSidecar}, {"clientSidecar", u.ClientSidecar},
		{"loadTester", u.LoadTester}, {"baselineApp", u.BaselineApp}} {
		if r.usage != nil && r.usage.Samples > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r.name, r.usage.Samples))
		}
	}
	for _, c := range u.ControlPlane {
		parts = append(parts, fmt.Sprintf("%s %d", c.Component, c.Usage.Samples))
	}
	return strings.Join(parts, ", ")
}

func samples(u *perfv1alpha1.ResourceUsage) int32 {
	if u == nil {
		return 0
	}
	var n int32
	for _, r := range []*perfv1alpha1.RoleUsage{u.ServerApp, u.ServerSidecar, u.ClientSidecar, u.LoadTester, u.BaselineApp} {
		if r != nil {
			n += r.Samples
		}
	}
	for _, c := range u.ControlPlane {
		n += c.Usage.Samples
	}
	return n
}
