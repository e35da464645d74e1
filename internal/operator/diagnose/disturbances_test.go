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
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

var loadBegan = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func podAt(name string, created time.Time) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(created)}}
}

func TestDisturbancesReadsWhatEachPodShows(t *testing.T) {
	// The placement pod's successor, created 15 s into the load and ready 3 s later.
	placement := podAt("dapr-placement-server-0", loadBegan.Add(15*time.Second))
	placement.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
		LastTransitionTime: metav1.NewTime(loadBegan.Add(18 * time.Second))}}
	// The target's daprd, killed 20 s in.
	target := podAt("t-target-abc", loadBegan.Add(-time.Minute))
	target.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "app"}, {Name: "daprd", RestartCount: 1,
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled",
			FinishedAt: metav1.NewTime(loadBegan.Add(20 * time.Second))}}}}
	// The sentry pod, deleted 25 s in with a 30 s grace: the stamp is the deadline.
	sentry := podAt("dapr-sentry-x", loadBegan.Add(-time.Hour))
	sentry.DeletionTimestamp = ptr.To(metav1.NewTime(loadBegan.Add(55 * time.Second)))
	sentry.DeletionGracePeriodSeconds = ptr.To(int64(30))
	// A restart before the load is provisioning, not a disturbance.
	old := podAt("dapr-operator-y", loadBegan.Add(-time.Hour))
	old.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "dapr-operator", RestartCount: 3,
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{FinishedAt: metav1.NewTime(loadBegan.Add(-time.Minute))}}}}

	got := Disturbances([]WatchedPod{
		{"controlPlane/dapr-placement-server", placement}, {"target", target}, {"controlPlane/dapr-sentry", sentry}, {"controlPlane/dapr-operator", old},
	}, loadBegan)

	want := []string{
		"10:00:15 Created controlPlane/dapr-placement-server dapr-placement-server-0  ready after 3s",
		"10:00:20 Restarted target t-target-abc daprd exit 137 OOMKilled, restart 1",
		"10:00:25 Deleted controlPlane/dapr-sentry dapr-sentry-x  ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d disturbances, want %d: %+v", len(got), len(want), got)
	}
	for i, d := range got {
		if s := line(d); s != want[i] {
			t.Errorf("disturbance %d = %q, want %q", i, s, want[i])
		}
	}
}

func line(d perfv1alpha1.Disturbance) string {
	return fmt.Sprintf("%s %s %s %s %s %s", d.Time.UTC().Format(time.TimeOnly), d.Kind, d.Role, d.Pod, d.Container, d.Detail)
}

func TestMergeDisturbancesKeepsEachOnceWithItsNewestDetail(t *testing.T) {
	created := func(pod, detail string, at time.Duration) perfv1alpha1.Disturbance {
		return perfv1alpha1.Disturbance{Time: metav1.NewTime(loadBegan.Add(at)), Kind: perfv1alpha1.DisturbanceCreated, Pod: pod, Detail: detail}
	}
	have := []perfv1alpha1.Disturbance{created("p-2", "not ready yet", 20*time.Second)}
	got := MergeDisturbances(have, []perfv1alpha1.Disturbance{created("p-2", "ready after 4s", 20*time.Second), created("p-1", "", 5*time.Second)})
	if len(got) != 2 || got[0].Pod != "p-1" || got[1].Detail != "ready after 4s" {
		t.Fatalf("merged = %+v, want p-1 then p-2 with its newer detail", got)
	}
	if have[0].Detail != "not ready yet" {
		t.Error("merging changed the caller's slice")
	}

	var crashLoop []perfv1alpha1.Disturbance
	for i := range 2 * MaxDisturbances {
		crashLoop = append(crashLoop, created("p", "", time.Duration(i)*time.Second))
	}
	if got := MergeDisturbances(nil, crashLoop); len(got) != MaxDisturbances || !got[0].Time.Equal(&crashLoop[0].Time) {
		t.Errorf("a crash loop kept %d disturbances from %v, want the earliest %d", len(got), got[0].Time, MaxDisturbances)
	}
}
