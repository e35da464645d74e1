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
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A LoadTester kill takes the running pod of the highest completion index, Ready or not
// (a replacement sends before its daprd's probe passes), never pod 0 (the leader holds the
// clock and orders the kills), and none when only the leader runs.
func TestALoadTesterKillTakesTheLastRunningReplicaNeverTheLeader(t *testing.T) {
	pod := func(name, index string, running bool) corev1.Pod {
		phase := corev1.PodPending
		if running {
			phase = corev1.PodRunning
		}
		return corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{batchv1.JobCompletionIndexAnnotation: index}},
			Status: corev1.PodStatus{Phase: phase, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}}}
	}
	for _, tc := range []struct {
		name string
		pods []corev1.Pod
		want string
	}{
		{"the highest index", []corev1.Pod{pod("l-0", "0", true), pod("l-2", "2", true), pod("l-1", "1", true)}, "l-2"},
		{"the highest running one", []corev1.Pod{pod("l-0", "0", true), pod("l-1", "1", true), pod("l-2", "2", false)}, "l-1"},
		{"never the leader", []corev1.Pod{pod("l-0", "0", true), pod("l-1", "1", false)}, ""},
		{"no pod without an index", []corev1.Pod{pod("l-0", "0", true), pod("l", "", true)}, ""},
	} {
		got := ""
		if p := lastReplica(tc.pods); p != nil {
			got = p.Name
		}
		if got != tc.want {
			t.Errorf("%s: killed %q, want %q", tc.name, got, tc.want)
		}
	}
}
