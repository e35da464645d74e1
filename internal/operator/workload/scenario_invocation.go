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
	"net"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// invocationSide is ServiceInvocation's operator side: a target app (one per sidecar
// variant) behind Dapr, optionally a sidecar-free twin, and the load tester's daprd invoking
// the target's method; the baseline calls the app directly.
type invocationSide struct{}

func (invocationSide) Children(run *perfv1alpha1.PerfRun, o Options) []client.Object {
	objs := []client.Object{TargetService(run)}
	for _, d := range TargetDeployments(run, o) {
		objs = append(objs, d)
	}
	if run.Spec.BaselineTwinEnabled() {
		objs = append(objs, BaselineService(run), BaselineDeployment(run, o))
	}
	return objs
}

func (invocationSide) Waited(run *perfv1alpha1.PerfRun) []string {
	want := targetDeploymentNames(run)
	if run.Spec.BaselineTwinEnabled() {
		want = append(want, NamesFor(run).Baseline)
	}
	return want
}

func (invocationSide) Demands(run *perfv1alpha1.PerfRun, o Options) []PodDemand {
	out := targetDemands(run, o)
	if run.Spec.BaselineTwinEnabled() {
		d := BaselineDeployment(run, o)
		out = append(out, PodDemand{Pod: "baseline twin", Field: "spec.target.resources", NodeSelector: d.Spec.Template.Spec.NodeSelector,
			Requests: podRequests(&d.Spec.Template.Spec, d.Spec.Template.Annotations), Daprd: injected(d.Spec.Template.Annotations)})
	}
	return out
}

func (invocationSide) PathEnv(run *perfv1alpha1.PerfRun, targetIP string) []corev1.EnvVar {
	spec := run.Spec
	names := NamesFor(run)
	grpcCaller := spec.CallerProtocol() == perfv1alpha1.ProtocolGRPC
	direct := func(host string) string {
		if grpcCaller {
			return fmt.Sprintf("grpc://%s/%s", net.JoinHostPort(host, strconv.Itoa(AppGRPCPort)), InvokeMethod)
		}
		return fmt.Sprintf("http://%s/%s", net.JoinHostPort(host, strconv.Itoa(AppPort)), InvokeMethod)
	}
	viaDapr := func(appID string) string {
		if grpcCaller {
			return fmt.Sprintf("dapr-grpc://localhost:%d/%s/%s", SidecarGRPCPort, appID, InvokeMethod)
		}
		return fmt.Sprintf("%s/v1.0/invoke/%s/method/%s", sidecarHTTPURL(), appID, InvokeMethod)
	}
	if !spec.DaprEnabled() {
		return []corev1.EnvVar{Setting(ls.DirectURL, direct(names.Target))}
	}
	targets := VariantTargets(run)
	env := []corev1.EnvVar{Setting(ls.DaprURL, viaDapr(targets[0].AppID))}
	var more []string
	for _, t := range targets[1:] {
		more = append(more, viaDapr(t.AppID))
	}
	if len(more) > 0 {
		env = append(env, Setting(ls.VariantURLs, strings.Join(more, ",")))
	}
	if spec.BaselineEnabled() {
		host := targetIP
		if spec.BaselineTwinEnabled() || host == "" {
			host = names.Baseline
		}
		env = append(env, Setting(ls.BaselineURL, direct(host)))
		if spec.FourPaths() {
			env = append(env, onePathSettings(run, host, targetIP)...)
		}
	}
	return env
}

func (invocationSide) Unwanted(run *perfv1alpha1.PerfRun) []client.Object {
	if run.Spec.BaselineTwinEnabled() {
		return nil
	}
	names := NamesFor(run)
	return []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: names.Baseline, Namespace: run.Namespace}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: names.Baseline, Namespace: run.Namespace}},
	}
}

func (invocationSide) Peer(*perfv1alpha1.PerfRun) Role { return RoleTarget }

// needsTargetIP: a same-pod baseline and a four-path run's server-only path call the target pod.
func (invocationSide) NeedsTargetIP(run *perfv1alpha1.PerfRun) bool {
	s := &run.Spec
	return (s.BaselineEnabled() && !s.BaselineTwinEnabled()) || s.FourPaths() || profiledTarget(run)
}

func (invocationSide) TesterAppPort(*perfv1alpha1.PerfRun) int { return 0 }

// targetDeploymentNames are the Deployments of every variant's target.
func targetDeploymentNames(run *perfv1alpha1.PerfRun) []string {
	var out []string
	for _, v := range VariantTargets(run) {
		out = append(out, v.Deployment)
	}
	return out
}

// targetDemands are what every variant's target pod will request.
func targetDemands(run *perfv1alpha1.PerfRun, o Options) []PodDemand {
	var out []PodDemand
	targets := VariantTargets(run)
	for i, d := range TargetDeployments(run, o) {
		pod := "target"
		if len(targets) > 1 {
			pod = "target of variant " + targets[i].Spec.Name
		}
		out = append(out, PodDemand{Pod: pod, Field: "spec.target.resources", NodeSelector: d.Spec.Template.Spec.NodeSelector,
			Requests: podRequests(&d.Spec.Template.Spec, d.Spec.Template.Annotations), Target: true, Daprd: injected(d.Spec.Template.Annotations)})
	}
	return out
}

// sidecarHTTPURL is the load tester's own daprd's HTTP API.
func sidecarHTTPURL() string { return fmt.Sprintf("http://localhost:%d", SidecarHTTPPort) }
