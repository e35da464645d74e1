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

package policy

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// The platform team's ceiling on what a run holds in Dapr's shared scheduler: a run of
// 1000 rps × 2 s × 64 KiB (125 MiB, under admission's 256 MiB) is refused at the default
// 64 MiB and names the figures; its twin at 1 s (62.5 MiB) runs; timers hold nothing there;
// 0 leaves admission's cap alone.
func TestTheSchedulerLoadCeiling(t *testing.T) {
	run := func(api perfv1alpha1.SchedulerAPI, due time.Duration) *perfv1alpha1.PerfRun {
		return &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioScheduler,
			Load:      perfv1alpha1.LoadSpec{QPS: 1000, PayloadBytes: ptr.To[int32](65536)},
			Scheduler: &perfv1alpha1.SchedulerSpec{API: api, DueTime: &metav1.Duration{Duration: due}}}}
	}
	p := Policy{MaxSchedulerHeldBytes: DefaultMaxSchedulerHeldBytes}
	if msg := p.SchedulerLoadRefusal(run(perfv1alpha1.SchedulerJobs, 2*time.Second)); !strings.Contains(msg, "would hold 125Mi at once") ||
		!strings.Contains(msg, "allows a run 64Mi (--max-scheduler-held-bytes, Helm value maxSchedulerHeldBytes)") {
		t.Errorf("125 MiB of jobs: %q", msg)
	}
	for name, r := range map[string]*perfv1alpha1.PerfRun{
		"62.5 MiB of jobs":          run(perfv1alpha1.SchedulerJobs, time.Second),
		"timers":                    run(perfv1alpha1.SchedulerActorTimers, 2*time.Second),
		"an invocation run":         {Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100000}}},
		"reminders under a ceiling": run(perfv1alpha1.SchedulerActorReminders, 100*time.Millisecond),
	} {
		if msg := p.SchedulerLoadRefusal(r); msg != "" {
			t.Errorf("%s refused: %s", name, msg)
		}
	}
	if msg := (Policy{}).SchedulerLoadRefusal(run(perfv1alpha1.SchedulerJobs, 2*time.Second)); msg != "" {
		t.Errorf("no ceiling: %s", msg)
	}
}
