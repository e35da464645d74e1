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

package podkill

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// killControlPlane deletes every pod of the Dapr control-plane service app at once (an
// outage, not a lost replica: the service has none left), and until holdEnd every pod of it
// that appears (an outage that lasts: none is ready meanwhile); it answers when as many new
// pods of it as it first had are ready, or at deadline. Every tenant's sidecars use the
// service, so it is done only where the platform team allowed it (the caller checks), for a
// run admission held the whole cluster for.
func (s *Server) killControlPlane(ctx context.Context, run *perfv1alpha1.PerfRun, app string, holdEnd, deadline time.Time) (ls.KillAnswer, error) {
	var ans ls.KillAnswer
	pods, err := s.controlPlanePods(ctx, app)
	if err != nil {
		return ans, err
	}
	if !slices.ContainsFunc(pods, func(p corev1.Pod) bool { return ready(&p) }) {
		return ans, refuse(http.StatusConflict, "Dapr's %s has no ready pod in namespace %s to kill", app, s.DaprNamespace)
	}
	before := map[types.UID]bool{}
	// At once, every one, as a lost node or a crash of the whole service ends them.
	deleted, err := s.deleteEvery(ctx, pods, before, 0)
	if err != nil {
		return ans, err
	}
	// Held down: each pod its StatefulSet or Deployment makes meanwhile goes as it comes, with
	// a second's grace (a StatefulSet then makes the next only once its container has
	// stopped: the hold never runs two of one name, as the grace-0 deletion above may, for a
	// moment, as a crash would), and unnamed: a Deployment's get a new name each time. The
	// hold ends early when its run stops measuring: an outage outlives no run.
	for time.Now().Before(holdEnd) {
		select {
		case <-ctx.Done():
			return ans, ctx.Err()
		case <-time.After(s.poll()):
		}
		// Looked at after the wait, right before deleting: a pod made once the run stopped stays.
		if !time.Now().Before(holdEnd) || !s.stillRunning(ctx, run) {
			break
		}
		pods, err := s.controlPlanePods(ctx, app)
		if err != nil {
			return ans, err
		}
		if _, err := s.deleteEvery(ctx, pods, before, 1); err != nil {
			return ans, err
		}
	}
	slices.Sort(deleted)
	ans.Deleted = ls.JoinPodNames(deleted)
	made, allReady := s.awaitControlPlane(ctx, app, before, len(deleted), deadline)
	ans.Replacement, ans.Ready = ls.JoinPodNames(made), allReady
	return ans, nil
}

// deleteEvery deletes each of pods not deleted before, with grace seconds, noting its UID in
// before, and returns the names of those it deleted.
func (s *Server) deleteEvery(ctx context.Context, pods []corev1.Pod, before map[types.UID]bool, grace int64) ([]string, error) {
	var deleted []string
	for i := range pods {
		p := &pods[i]
		if before[p.UID] {
			continue
		}
		before[p.UID] = true
		if err := s.Client.Delete(ctx, p, client.GracePeriodSeconds(grace), client.Preconditions{UID: &p.UID}); client.IgnoreNotFound(err) != nil {
			return deleted, fmt.Errorf("deleting Dapr's pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		deleted = append(deleted, p.Name)
	}
	return deleted, nil
}

// stillRunning reports whether run is still measuring, as the manager's cache has it.
func (s *Server) stillRunning(ctx context.Context, run *perfv1alpha1.PerfRun) bool {
	var now perfv1alpha1.PerfRun
	return s.Client.Get(ctx, client.ObjectKeyFromObject(run), &now) == nil && now.UID == run.UID &&
		now.DeletionTimestamp == nil && now.Status.Phase == perfv1alpha1.PhaseRunning
}

// controlPlanePods are the pods of Dapr's service app not already being deleted, read past
// the manager's cache (which holds only the runs' own pods).
func (s *Server) controlPlanePods(ctx context.Context, app string) ([]corev1.Pod, error) {
	var list corev1.PodList
	if err := s.APIReader.List(ctx, &list, client.InNamespace(s.DaprNamespace), client.MatchingLabels{"app": app}); err != nil {
		return nil, fmt.Errorf("listing Dapr's %s pods in %s: %w", app, s.DaprNamespace, err)
	}
	return slices.DeleteFunc(list.Items, func(p corev1.Pod) bool { return p.DeletionTimestamp != nil }), nil
}

// awaitControlPlane is the new pods of app (not among before), sorted, and whether want of
// them were ready by deadline.
func (s *Server) awaitControlPlane(ctx context.Context, app string, before map[types.UID]bool, want int, deadline time.Time) ([]string, bool) {
	var made []string
	allReady := s.pollUntil(ctx, deadline, func(ctx context.Context) bool {
		pods, err := s.controlPlanePods(ctx, app)
		if err != nil {
			return false
		}
		made = made[:0]
		readyCount := 0
		for i := range pods {
			if before[pods[i].UID] {
				continue
			}
			made = append(made, pods[i].Name)
			if ready(&pods[i]) {
				readyCount++
			}
		}
		slices.Sort(made)
		return readyCount >= want
	})
	return made, allReady
}
