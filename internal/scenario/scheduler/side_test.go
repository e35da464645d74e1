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

package scheduler

import (
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/operator/workload/workloadtest"
)

// A Scheduler run of jobs deploys nothing; one of reminders or timers an actor store for the
// type the load tester hosts. Either way daprd triggers on the load tester's app server.
func TestASchedulerRunTakesItsTriggersOnTheLoadTestersAppServer(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioScheduler)
	if n := len(workload.ScenarioChildren(run, workload.Options{})); n != 0 || workload.HasTargetPod(run) || len(workload.UnwantedChildren(run)) != 1 {
		t.Fatalf("jobs: %d children, target pod %v: want none, and no actor store kept", n, workload.HasTargetPod(run))
	}
	job := workload.LoadTesterJob(run, workload.Options{}, "")
	if got := job.Spec.Template.Annotations["dapr.io/app-port"]; got != strconv.Itoa(ls.SubscriberPort) {
		t.Errorf("load tester's app port %q, want its app server's %d", got, ls.SubscriberPort)
	}
	env := workloadtest.EnvMap(job.Spec.Template.Spec.Containers[0].Env)
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-jobs+http://localhost:3500/?due=1s"; got != want {
		t.Errorf("dapr URL %q, want %q", got, want)
	}
	run.Spec.Scheduler = &perfv1alpha1.SchedulerSpec{API: perfv1alpha1.SchedulerActorReminders, DueTime: &metav1.Duration{Duration: 500 * time.Millisecond}}
	if n := len(workload.ScenarioChildren(run, workload.Options{})); n != 1 {
		t.Errorf("reminders: %d children, want the actor state store", n)
	}
	env = workloadtest.EnvMap(workload.LoadTesterJob(run, workload.Options{}, "").Spec.Template.Spec.Containers[0].Env)
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-reminders+http://localhost:3500/"+run.ActorType()+"?actors=100&due=500ms"; got != want {
		t.Errorf("dapr URL %q, want %q", got, want)
	}
	run.Spec.Scheduler.API, run.Spec.Scheduler.Actors = perfv1alpha1.SchedulerActorTimers, 7
	if n := len(workload.ScenarioChildren(run, workload.Options{})); n != 1 || len(workload.UnwantedChildren(run)) != 0 {
		t.Errorf("timers: %d children, want the actor state store, kept", n)
	}
	env = workloadtest.EnvMap(workload.LoadTesterJob(run, workload.Options{}, "").Spec.Template.Spec.Containers[0].Env)
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-timers+http://localhost:3500/"+run.ActorType()+"?actors=7&due=500ms"; got != want {
		t.Errorf("dapr URL %q, want %q", got, want)
	}
}
