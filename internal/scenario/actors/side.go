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

package actors

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// side is ActorActivation's operator side: a target app hosting the run's actor type
// behind Dapr, an in-memory actor state store unless the run names one, and the load
// tester's daprd calling a fresh actor id on every request. No baseline: an actor cannot be
// called without a sidecar.
type side struct{}

func (side) Children(run *perfv1alpha1.PerfRun, o workload.Options) []client.Object {
	var objs []client.Object
	if run.Spec.DaprEnabled() && run.Spec.ActorSettings().StateStore == "" {
		objs = append(objs, workload.StateStoreComponent(run))
	}
	objs = append(objs, workload.TargetService(run))
	for _, d := range workload.TargetDeployments(run, o) {
		objs = append(objs, d)
	}
	return objs
}

func (side) Waited(run *perfv1alpha1.PerfRun) []string { return workload.TargetDeploymentNames(run) }

func (side) Demands(run *perfv1alpha1.PerfRun, o workload.Options) []workload.PodDemand {
	return workload.TargetDemands(run, o)
}

func (side) PathEnv(run *perfv1alpha1.PerfRun, _ string) []corev1.EnvVar {
	url := fmt.Sprintf("%s/v1.0/actors/%s/{uuid}/method/%s", workload.SidecarHTTPURL(), run.ActorType(), run.Spec.ActorSettings().Method)
	return []corev1.EnvVar{workload.Setting(ls.DaprURL, url)}
}

func (side) Unwanted(*perfv1alpha1.PerfRun) []client.Object { return nil }

func (side) Peer(*perfv1alpha1.PerfRun) workload.Role { return workload.RoleTarget }

func (side) NeedsTargetIP(run *perfv1alpha1.PerfRun) bool {
	return workload.ProfiledTarget(run) || workload.SoakedTarget(run)
}

func (side) TesterAppPort(*perfv1alpha1.PerfRun) int { return 0 }

// targetApp makes the target app host the run's actor type, with the run's actor host, and
// marks its Deployment with the type (preflight finds another run's host by it). The
// default host, Minimal, is the app's own default and is not passed: a target image built
// before the flag keeps starting.
func (side) TargetApp(run *perfv1alpha1.PerfRun) ([]string, map[string]string) {
	args := []string{"--actor-type=" + run.ActorType()}
	if host := run.Spec.ActorSettings().Host; host != perfv1alpha1.ActorHostMinimal {
		args = append(args, "--actor-host="+string(host))
	}
	return args, map[string]string{workload.AnnotationActorType: run.ActorType()}
}
