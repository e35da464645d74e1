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

package configuration

import (
	"fmt"
	"net/url"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// side is Configuration's operator side: no target app. The run deploys Redis (a
// Deployment, a Service) and a configuration.redis Component for it, scoped to the load
// tester, whose own daprd reads its items; the baseline reads the same Redis with its Go
// client from the same pod, and writes every item into it before the load (admission keeps
// the baseline on).
type side struct{}

func (side) Children(run *perfv1alpha1.PerfRun, o workload.Options) []client.Object {
	return []client.Object{workload.StoreService(run), workload.StoreDeployment(run, o), StoreComponent(run)}
}

func (side) Waited(run *perfv1alpha1.PerfRun) []string {
	return []string{workload.NamesFor(run).Store}
}

func (side) Demands(run *perfv1alpha1.PerfRun, o workload.Options) []workload.PodDemand {
	return workload.StoreDemands(run, o)
}

func (side) PathEnv(run *perfv1alpha1.PerfRun, _ string) []corev1.EnvVar {
	q := url.Values{"keys": {strconv.Itoa(int(run.Spec.ConfigurationSettings().Keys))}}.Encode()
	dapr := fmt.Sprintf("dapr-configuration+http://localhost:%d/%s?%s", workload.SidecarHTTPPort, ComponentName(run), q)
	if run.Spec.CallerProtocol() == perfv1alpha1.ProtocolGRPC {
		dapr = fmt.Sprintf("dapr-configuration+grpc://localhost:%d/%s?%s", workload.SidecarGRPCPort, ComponentName(run), q)
	}
	env := []corev1.EnvVar{workload.Setting(ls.DaprURL, dapr)}
	if run.Spec.BaselineEnabled() {
		env = append(env, workload.Setting(ls.BaselineURL, fmt.Sprintf("redis-configuration://%s/?%s", workload.StoreAddress(run), q)))
	}
	return env
}

func (side) Unwanted(*perfv1alpha1.PerfRun) []client.Object { return nil }

// DaprLeftovers: the configuration store's Component, which cleanup deletes with the run's
// other Dapr objects.
func (side) DaprLeftovers(run *perfv1alpha1.PerfRun) []client.Object {
	return []client.Object{workload.DaprObject(run, workload.ComponentGVK, ComponentName(run))}
}

// Peer: the load tester is placed relative to the store the run deploys.
func (side) Peer(*perfv1alpha1.PerfRun) workload.Role { return workload.RoleStore }

// NeedsTargetIP: no target app (admission refuses profiling on a Configuration run).
func (side) NeedsTargetIP(*perfv1alpha1.PerfRun) bool { return false }

func (side) TesterAppPort(*perfv1alpha1.PerfRun) int { return 0 }

// ComponentName is the configuration store Component the run deploys and reads.
func ComponentName(run *perfv1alpha1.PerfRun) string { return run.Name + "-configstore" }

// StoreComponent is the configuration.redis Component for the store the run deploys,
// scoped to the load tester, whose daprd is the only one that reads it.
func StoreComponent(run *perfv1alpha1.PerfRun) *unstructured.Unstructured {
	return workload.RedisComponent(run, ComponentName(run), "configuration.redis")
}
