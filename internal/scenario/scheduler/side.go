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
	"fmt"
	"net/url"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// side is Scheduler's operator side: no target app. The load tester registers
// one-shot jobs, actor reminders or actor timers through its own daprd, and Dapr's scheduler
// (a timer: that daprd) triggers them back through that daprd to the load tester's app
// server (its app port: the subscriber's). Reminders and timers need the load tester to
// host an actor type (the run's own), and so an actor state store: an in-memory one the run
// creates. No baseline.
type side struct{}

func (side) Children(run *perfv1alpha1.PerfRun, _ workload.Options) []client.Object {
	if !run.Spec.SchedulerSettings().API.HostsActors() {
		return nil
	}
	return []client.Object{workload.StateStoreComponent(run)}
}

func (side) Waited(*perfv1alpha1.PerfRun) []string { return nil }

func (side) Demands(*perfv1alpha1.PerfRun, workload.Options) []workload.PodDemand { return nil }

func (side) PathEnv(run *perfv1alpha1.PerfRun, _ string) []corev1.EnvVar {
	c := run.Spec.SchedulerSettings()
	q := url.Values{"due": {c.DueTime.Duration.String()}}
	u := fmt.Sprintf("dapr-jobs+http://localhost:%d/", workload.SidecarHTTPPort)
	switch c.API {
	case perfv1alpha1.SchedulerActorReminders, perfv1alpha1.SchedulerActorTimers:
		q.Set("actors", strconv.Itoa(int(c.Actors)))
		scheme := "dapr-reminders+http"
		if c.API == perfv1alpha1.SchedulerActorTimers {
			scheme = "dapr-timers+http"
		}
		u = fmt.Sprintf("%s://localhost:%d/%s", scheme, workload.SidecarHTTPPort, run.ActorType())
	}
	return []corev1.EnvVar{workload.Setting(ls.DaprURL, u+"?"+q.Encode())}
}

// unwanted: an earlier generation's actor store, once the run registers jobs.
func (side) Unwanted(run *perfv1alpha1.PerfRun) []client.Object {
	if run.Spec.SchedulerSettings().API.HostsActors() {
		return nil
	}
	return []client.Object{workload.DaprObject(run, workload.ComponentGVK, workload.NamesFor(run).StateStore)}
}

// peer: none (admission keeps placement Any).
func (side) Peer(*perfv1alpha1.PerfRun) workload.Role { return workload.RoleTarget }

func (side) NeedsTargetIP(*perfv1alpha1.PerfRun) bool { return false }

// testerAppPort: daprd triggers the jobs and reminders on the load tester's app server.
func (side) TesterAppPort(*perfv1alpha1.PerfRun) int { return ls.SubscriberPort }
