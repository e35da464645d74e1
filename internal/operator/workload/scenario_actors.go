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

package workload

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// actorsSide is ActorActivation's operator side: a target app hosting the run's actor type
// behind Dapr, an in-memory actor state store unless the run names one, and the load
// tester's daprd calling a fresh actor id on every request. No baseline: an actor cannot be
// called without a sidecar.
type actorsSide struct{}

func (actorsSide) Children(run *perfv1alpha1.PerfRun, o Options) []client.Object {
	var objs []client.Object
	if run.Spec.DaprEnabled() && run.Spec.ActorSettings().StateStore == "" {
		objs = append(objs, StateStoreComponent(run))
	}
	objs = append(objs, TargetService(run))
	for _, d := range TargetDeployments(run, o) {
		objs = append(objs, d)
	}
	return objs
}

func (actorsSide) Waited(run *perfv1alpha1.PerfRun) []string { return targetDeploymentNames(run) }

func (actorsSide) Demands(run *perfv1alpha1.PerfRun, o Options) []PodDemand {
	return targetDemands(run, o)
}

func (actorsSide) PathEnv(run *perfv1alpha1.PerfRun, _ string) []corev1.EnvVar {
	url := fmt.Sprintf("%s/v1.0/actors/%s/{uuid}/method/%s", sidecarHTTPURL(), run.ActorType(), run.Spec.ActorSettings().Method)
	return []corev1.EnvVar{Setting(ls.DaprURL, url)}
}

func (actorsSide) Unwanted(*perfv1alpha1.PerfRun) []client.Object { return nil }

func (actorsSide) Peer(*perfv1alpha1.PerfRun) Role { return RoleTarget }

func (actorsSide) NeedsTargetIP(run *perfv1alpha1.PerfRun) bool { return profiledTarget(run) }

func (actorsSide) TesterAppPort(*perfv1alpha1.PerfRun) int { return 0 }

// targetApp makes the target app host the run's actor type, with the run's actor host, and
// marks its Deployment with the type (preflight finds another run's host by it). The
// default host, Minimal, is the app's own default and is not passed: a target image built
// before the flag keeps starting.
func (actorsSide) TargetApp(run *perfv1alpha1.PerfRun) ([]string, map[string]string) {
	args := []string{"--actor-type=" + run.ActorType()}
	if host := run.Spec.ActorSettings().Host; host != perfv1alpha1.ActorHostMinimal {
		args = append(args, "--actor-host="+string(host))
	}
	return args, map[string]string{AnnotationActorType: run.ActorType()}
}
