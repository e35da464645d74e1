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

package state

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

// side is State's operator side: no target app. The load tester's own daprd calls the
// state API of a store — Redis the run deploys (a Deployment, a Service and a state.redis
// Component, owned by the run) or the user's Component the run names — and the baseline
// calls the same Redis with its Go client from the same pod.
type side struct{}

func (side) Children(run *perfv1alpha1.PerfRun, o workload.Options) []client.Object {
	if run.Spec.StateSettings().Component != "" {
		return nil // the user's own store: nothing to deploy
	}
	return []client.Object{workload.StoreService(run), workload.StoreDeployment(run, o), StoreComponent(run)}
}

func (side) Waited(run *perfv1alpha1.PerfRun) []string {
	if run.Spec.StateSettings().Component != "" {
		return nil
	}
	return []string{workload.NamesFor(run).Store}
}

func (side) Demands(run *perfv1alpha1.PerfRun, o workload.Options) []workload.PodDemand {
	if run.Spec.StateSettings().Component != "" {
		return nil
	}
	return workload.StoreDemands(run, o)
}

func (side) PathEnv(run *perfv1alpha1.PerfRun, _ string) []corev1.EnvVar {
	st := run.Spec.StateSettings()
	q := url.Values{"op": {string(st.Operation)}, "keys": {strconv.Itoa(int(st.Keys))}}
	if st.Operation.Bulk() {
		q.Set("bulk", strconv.Itoa(int(st.BulkSize)))
	}
	query := q.Encode()
	dapr := fmt.Sprintf("dapr-state+http://localhost:%d/%s?%s", workload.SidecarHTTPPort, ComponentName(run), query)
	if run.Spec.CallerProtocol() == perfv1alpha1.ProtocolGRPC {
		dapr = fmt.Sprintf("dapr-state+grpc://localhost:%d/%s?%s", workload.SidecarGRPCPort, ComponentName(run), query)
	}
	env := []corev1.EnvVar{workload.Setting(ls.DaprURL, dapr)}
	if run.Spec.BaselineEnabled() {
		env = append(env, workload.Setting(ls.BaselineURL, fmt.Sprintf("redis://%s/?%s", workload.StoreAddress(run), query)))
	}
	return env
}

func (side) Unwanted(run *perfv1alpha1.PerfRun) []client.Object {
	if run.Spec.StateSettings().Component == "" {
		return nil
	}
	return workload.DeployedStore(run, workload.NamesFor(run).StateStore)
}

// peer: the load tester is placed relative to the store the run deploys (admission refuses a
// placement on a named Component, whose store is not the run's to place).
func (side) Peer(*perfv1alpha1.PerfRun) workload.Role { return workload.RoleStore }

// needsTargetIP: no target app (admission refuses profiling on a State run).
func (side) NeedsTargetIP(*perfv1alpha1.PerfRun) bool { return false }

func (side) TesterAppPort(*perfv1alpha1.PerfRun) int { return 0 }

// ComponentName is the state store Component a State run calls: the one it names, or
// the one it deploys.
func ComponentName(run *perfv1alpha1.PerfRun) string {
	if c := run.Spec.StateSettings().Component; c != "" {
		return c
	}
	return workload.NamesFor(run).StateStore
}

// StoreComponent is the state.redis Component for the store the run deploys, scoped to the
// load tester, whose daprd is the only one that calls it.
func StoreComponent(run *perfv1alpha1.PerfRun) *unstructured.Unstructured {
	return workload.RedisComponent(run, workload.NamesFor(run).StateStore, "state.redis")
}
