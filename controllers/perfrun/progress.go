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
	"time"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// recordProgress writes where the load is (status.progress) once every load-tester
// container runs: from the last one's start, as the group starts together. The figures
// change only when the repetition or path does, so they add a status write per measured
// run, not per poll.
func (r *Reconciler) recordProgress(run *perfv1alpha1.PerfRun, testers []corev1.Pod) {
	start, ok := groupStart(testers, int(run.Spec.LoadTester.EffectiveReplicas()))
	if !ok {
		return
	}
	p := workload.ProgressAt(&run.Spec, start, r.Clock.Now())
	run.Status.Progress = &p
}

// groupStart is when the last of want load-tester containers started running; ok is false
// until all of them run.
func groupStart(pods []corev1.Pod, want int) (time.Time, bool) {
	var last time.Time
	running := 0
	for i := range pods {
		for _, cs := range pods[i].Status.ContainerStatuses {
			if cs.Name != workload.ContainerTester || cs.State.Running == nil {
				continue
			}
			running++
			if t := cs.State.Running.StartedAt.Time; t.After(last) {
				last = t
			}
		}
	}
	return last, running >= want && running > 0
}
