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

package workflow

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

// side is Workflow's operator side: no target app. The load tester starts the
// instances through its own daprd and hosts the workflows itself (Dapr's Go SDK), since
// daprd binds a workflow to the app ID that started it; Dapr keeps their state in an actor
// state store — an in-memory one the run creates, or the Component the run names — and
// schedules their timers and retries through Dapr's scheduler. No baseline: a workflow
// cannot run without Dapr.
type side struct{}

func (side) Children(run *perfv1alpha1.PerfRun, _ workload.Options) []client.Object {
	if run.Spec.WorkflowSettings().StateStore != "" {
		return nil
	}
	return []client.Object{workload.StateStoreComponent(run)}
}

func (side) Waited(*perfv1alpha1.PerfRun) []string { return nil }

func (side) Demands(*perfv1alpha1.PerfRun, workload.Options) []workload.PodDemand { return nil }

// pathEnv is the Dapr path: the pattern, its activities and their delay; started over the
// caller protocol, hosted and awaited over daprd's gRPC API (the SDK's only one).
func (side) PathEnv(run *perfv1alpha1.PerfRun, _ string) []corev1.EnvVar {
	w := run.Spec.WorkflowSettings()
	q := url.Values{"activities": {strconv.Itoa(int(w.Activities))}}
	if w.ActivityDelay != nil && w.ActivityDelay.Duration > 0 {
		q.Set("delay", w.ActivityDelay.Duration.String())
	}
	scheme, port := "dapr-workflow+grpc", workload.SidecarGRPCPort
	if run.Spec.CallerProtocol() != perfv1alpha1.ProtocolGRPC {
		scheme, port = "dapr-workflow+http", workload.SidecarHTTPPort
		q.Set("grpc", fmt.Sprintf("localhost:%d", workload.SidecarGRPCPort))
	}
	return []corev1.EnvVar{workload.Setting(ls.DaprURL, fmt.Sprintf("%s://localhost:%d/%s?%s", scheme, port, w.Pattern, q.Encode()))}
}

// unwanted: the in-memory store of an earlier generation, once the run names its own.
func (side) Unwanted(run *perfv1alpha1.PerfRun) []client.Object {
	if run.Spec.WorkflowSettings().StateStore == "" {
		return nil
	}
	return []client.Object{workload.DaprObject(run, workload.ComponentGVK, workload.NamesFor(run).StateStore)}
}

// peer: none (admission keeps placement Any); the target role names no pod of the run.
func (side) Peer(*perfv1alpha1.PerfRun) workload.Role { return workload.RoleTarget }

func (side) NeedsTargetIP(*perfv1alpha1.PerfRun) bool { return false }

func (side) TesterAppPort(*perfv1alpha1.PerfRun) int { return 0 }
