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

package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A pod shows only the last of what happened to it (its containers' last exit, its
// deletion stamp, its creation time), and a deleted pod vanishes. So disturbances are read
// from every pod each time the run is polled and merged (MergeDisturbances): a replaced
// placement pod is seen as its successor's creation even when the old one was gone before
// the next poll.

// WatchedPod is a pod whose disturbance would bias a run's figures, with its part in the run
// (target, loadtester, controlPlane/dapr-placement-server, ...).
type WatchedPod struct {
	Role string
	Pod  *corev1.Pod
}

// MaxDisturbances bounds status.disturbances: a crash-looping pod must not grow the object.
const MaxDisturbances = 20

// Disturbances is what the pods show happened from since on: a container's exit that the
// kubelet restarted, a requested deletion, a pod created.
func Disturbances(pods []WatchedPod, since time.Time) []perfv1alpha1.Disturbance {
	var out []perfv1alpha1.Disturbance
	for _, w := range pods {
		p := w.Pod
		at := func(t time.Time, kind perfv1alpha1.DisturbanceKind, container, detail string) {
			if t.Before(since) {
				return
			}
			out = append(out, perfv1alpha1.Disturbance{Time: metav1.NewTime(t.UTC().Truncate(time.Second)), Kind: kind,
				Role: w.Role, Pod: p.Name, Container: container, Detail: detail})
		}
		// Times are kept to the second: a pod created in the second the load began (the load
		// tester's own) is part of its start.
		if p.CreationTimestamp.After(since) {
			at(p.CreationTimestamp.Time, perfv1alpha1.DisturbanceCreated, "", readiness(p))
		}
		if p.DeletionTimestamp != nil {
			at(deletionRequested(p), perfv1alpha1.DisturbanceDeleted, "", "")
		}
		for _, s := range allStatuses(p) {
			if t := s.LastTerminationState.Terminated; t != nil {
				at(t.FinishedAt.Time, perfv1alpha1.DisturbanceRestarted, s.Name, fmt.Sprintf("exit %d %s, restart %d", t.ExitCode, t.Reason, s.RestartCount))
			}
		}
	}
	return out
}

// deletionRequested is when the pod's deletion was asked for: the API server stamps the
// deadline, the request plus the grace period.
func deletionRequested(p *corev1.Pod) time.Time {
	t := p.DeletionTimestamp.Time
	if g := p.DeletionGracePeriodSeconds; g != nil {
		t = t.Add(-time.Duration(*g) * time.Second)
	}
	return t
}

// readiness says how soon a pod was ready after its creation.
func readiness(p *corev1.Pod) string {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return fmt.Sprintf("ready after %v", c.LastTransitionTime.Sub(p.CreationTimestamp.Time).Round(time.Second))
		}
	}
	return "not ready yet"
}

// MergeDisturbances adds seen to have, each once (the same kind, pod and container at the
// same second is one disturbance; a later sighting brings its newer detail), sorted by
// time, the earliest MaxDisturbances kept.
func MergeDisturbances(have, seen []perfv1alpha1.Disturbance) []perfv1alpha1.Disturbance {
	out := slices.Clone(have)
	for _, d := range seen {
		i := slices.IndexFunc(out, func(o perfv1alpha1.Disturbance) bool {
			return o.Kind == d.Kind && o.Pod == d.Pod && o.Container == d.Container && o.Time.Equal(&d.Time)
		})
		if i < 0 {
			out = append(out, d)
			continue
		}
		out[i].Detail = d.Detail
	}
	slices.SortStableFunc(out, func(a, b perfv1alpha1.Disturbance) int {
		if c := a.Time.Compare(b.Time.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Pod, b.Pod)
	})
	if len(out) > MaxDisturbances {
		out = out[:MaxDisturbances]
	}
	return out
}
