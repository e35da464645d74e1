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

package invocation

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// side is ServiceInvocation's operator side: a target app (one per sidecar
// variant) behind Dapr, optionally a sidecar-free twin, and the load tester's daprd invoking
// the target's method; the baseline calls the app directly.
type side struct{}

func (side) Children(run *perfv1alpha1.PerfRun, o workload.Options) []client.Object {
	objs := []client.Object{workload.TargetService(run)}
	for _, d := range workload.TargetDeployments(run, o) {
		objs = append(objs, d)
	}
	if run.Spec.BaselineTwinEnabled() {
		objs = append(objs, workload.BaselineService(run), workload.BaselineDeployment(run, o))
	}
	return objs
}

func (side) Waited(run *perfv1alpha1.PerfRun) []string {
	want := workload.TargetDeploymentNames(run)
	if run.Spec.BaselineTwinEnabled() {
		want = append(want, workload.NamesFor(run).Baseline)
	}
	return want
}

func (side) Demands(run *perfv1alpha1.PerfRun, o workload.Options) []workload.PodDemand {
	out := workload.TargetDemands(run, o)
	if run.Spec.BaselineTwinEnabled() {
		d := workload.BaselineDeployment(run, o)
		out = append(out, workload.PodDemand{Pod: "baseline twin", Field: "spec.target.resources", NodeSelector: d.Spec.Template.Spec.NodeSelector,
			Requests: workload.PodRequests(&d.Spec.Template.Spec, d.Spec.Template.Annotations), Daprd: workload.Injected(d.Spec.Template.Annotations)})
	}
	return out
}

func (side) PathEnv(run *perfv1alpha1.PerfRun, targetIP string) []corev1.EnvVar {
	spec := run.Spec
	names := workload.NamesFor(run)
	grpcCaller := spec.CallerProtocol() == perfv1alpha1.ProtocolGRPC
	direct := func(host string) string {
		if grpcCaller {
			return fmt.Sprintf("grpc://%s/%s", net.JoinHostPort(host, strconv.Itoa(workload.AppGRPCPort)), workload.InvokeMethod)
		}
		return fmt.Sprintf("http://%s/%s", net.JoinHostPort(host, strconv.Itoa(workload.AppPort)), workload.InvokeMethod)
	}
	viaDapr := func(appID string) string {
		if grpcCaller {
			return fmt.Sprintf("dapr-grpc://localhost:%d/%s/%s", workload.SidecarGRPCPort, appID, workload.InvokeMethod)
		}
		return fmt.Sprintf("%s/v1.0/invoke/%s/method/%s", workload.SidecarHTTPURL(), appID, workload.InvokeMethod)
	}
	if !spec.DaprEnabled() {
		return []corev1.EnvVar{workload.Setting(ls.DirectURL, direct(names.Target))}
	}
	targets := workload.VariantTargets(run)
	env := []corev1.EnvVar{workload.Setting(ls.DaprURL, viaDapr(targets[0].AppID))}
	var more []string
	for _, t := range targets[1:] {
		more = append(more, viaDapr(t.AppID))
	}
	if len(more) > 0 {
		env = append(env, workload.Setting(ls.VariantURLs, strings.Join(more, ",")))
	}
	if spec.BaselineEnabled() {
		host := targetIP
		if spec.BaselineTwinEnabled() || host == "" {
			host = names.Baseline
		}
		env = append(env, workload.Setting(ls.BaselineURL, direct(host)))
		if spec.FourPaths() {
			env = append(env, workload.OnePathSettings(run, host, targetIP)...)
		}
	}
	return env
}

func (side) Unwanted(run *perfv1alpha1.PerfRun) []client.Object {
	if run.Spec.BaselineTwinEnabled() {
		return nil
	}
	names := workload.NamesFor(run)
	return []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: names.Baseline, Namespace: run.Namespace}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: names.Baseline, Namespace: run.Namespace}},
	}
}

func (side) Peer(*perfv1alpha1.PerfRun) workload.Role { return workload.RoleTarget }

// needsTargetIP: a same-pod baseline and a four-path run's server-only path call the target
// pod; a profile and a soak's gauges are read from its daprd.
func (side) NeedsTargetIP(run *perfv1alpha1.PerfRun) bool {
	s := &run.Spec
	return (s.BaselineEnabled() && !s.BaselineTwinEnabled()) || s.FourPaths() || workload.ProfiledTarget(run) || workload.SoakedTarget(run)
}

func (side) TesterAppPort(*perfv1alpha1.PerfRun) int { return 0 }
