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
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// TargetDeployment is the app under test (the first variant's), with a Dapr sidecar when
// Dapr is enabled.
func TargetDeployment(run *perfv1alpha1.PerfRun, o Options) *appsv1.Deployment {
	return variantDeployment(run, VariantTargets(run)[0], o)
}

// BaselineDeployment is the target's sidecar-free twin: same image, args and resources,
// no Dapr annotations, preferring the target's node.
func BaselineDeployment(run *perfv1alpha1.PerfRun, o Options) *appsv1.Deployment {
	d := appDeployment(run, NamesFor(run).Baseline, RoleBaseline, o)
	d.Spec.Template.Spec.Affinity = baselineAffinity(run)
	return d
}

// TargetService and BaselineService expose the apps for direct calls (the baseline and
// the Dapr-less path); Dapr's own invocation does not need them.
func TargetService(run *perfv1alpha1.PerfRun) *corev1.Service {
	svc := appService(run, NamesFor(run).Target, RoleTarget)
	if len(run.Spec.Variants) > 0 {
		svc.Spec.Selector[LabelVariant] = string(result.DaprVariant(0))
	}
	return svc
}

// BaselineService exposes the sidecar-free twin.
func BaselineService(run *perfv1alpha1.PerfRun) *corev1.Service {
	return appService(run, NamesFor(run).Baseline, RoleBaseline)
}

func appDeployment(run *perfv1alpha1.PerfRun, name string, role Role, o Options) *appsv1.Deployment {
	args := []string{"--port=" + strconv.Itoa(AppPort), "--grpc-port=" + strconv.Itoa(AppGRPCPort)}
	var hosted map[string]string
	if h, ok := sideOf(run).(TargetHoster); ok {
		extra, annotations := h.TargetApp(run)
		args, hosted = append(args, extra...), annotations
	}
	if d, err := run.KnownAnswerDelay(); err == nil && d > 0 && role == RoleTarget {
		args = append(args, "--dapr-delay="+d.String()) // preflight refused a bad value
	}
	c := corev1.Container{
		Name:    ContainerTarget,
		Image:   imageFor(run.Spec.Target.Image, o),
		Command: []string{perfappBinary},
		Args:    args,
		Ports: []corev1.ContainerPort{
			{Name: "http", ContainerPort: AppPort, Protocol: corev1.ProtocolTCP},
			{Name: "grpc", ContainerPort: AppGRPCPort, Protocol: corev1.ProtocolTCP},
		},
		ReadinessProbe: &corev1.Probe{
			ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(AppPort)}},
			PeriodSeconds: 2,
		},
	}
	d := roleDeployment(run, name, role, podSpec(run, run.Spec.Target, c, o))
	if role == RoleTarget {
		d.Annotations = hosted
	}
	return d
}

// roleDeployment is one pod of role, named name, selected by the run's and the role's labels.
func roleDeployment(run *perfv1alpha1.PerfRun, name string, role Role, spec corev1.PodSpec) *appsv1.Deployment {
	labels := Labels(run, role)
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: run.Namespace, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: Selector(run, role)},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: spec},
		},
	}
}

func appService(run *perfv1alpha1.PerfRun, name string, role Role) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: run.Namespace, Labels: Labels(run, role)},
		Spec: corev1.ServiceSpec{
			Selector: Selector(run, role),
			Ports: []corev1.ServicePort{
				{Name: "http", Port: AppPort, TargetPort: intstr.FromInt32(AppPort), Protocol: corev1.ProtocolTCP},
				{Name: "grpc", Port: AppGRPCPort, TargetPort: intstr.FromInt32(AppGRPCPort), Protocol: corev1.ProtocolTCP},
			},
		},
	}
}

// TargetDeploymentNames are the Deployments of every variant's target.
func TargetDeploymentNames(run *perfv1alpha1.PerfRun) []string {
	var out []string
	for _, v := range VariantTargets(run) {
		out = append(out, v.Deployment)
	}
	return out
}

// TargetDemands are what every variant's target pod will request.
func TargetDemands(run *perfv1alpha1.PerfRun, o Options) []PodDemand {
	var out []PodDemand
	targets := VariantTargets(run)
	for i, d := range TargetDeployments(run, o) {
		pod := "target"
		if len(targets) > 1 {
			pod = "target of variant " + targets[i].Spec.Name
		}
		out = append(out, PodDemand{Pod: pod, Field: "spec.target.resources", NodeSelector: d.Spec.Template.Spec.NodeSelector,
			Requests: PodRequests(&d.Spec.Template.Spec, d.Spec.Template.Annotations), Target: true, Daprd: Injected(d.Spec.Template.Annotations)})
	}
	return out
}

// SidecarHTTPURL is the load tester's own daprd's HTTP API.
func SidecarHTTPURL() string { return fmt.Sprintf("http://localhost:%d", SidecarHTTPPort) }

// ProfiledTarget: the load tester takes the target daprd's profile on the target pod's IP.
func ProfiledTarget(run *perfv1alpha1.PerfRun) bool {
	return run.Spec.Profiling != nil && run.Spec.DaprEnabled()
}

// SoakedTarget: a measured load long enough for trends (a soak), through Dapr: the load
// tester reads the target daprd's gauges and CPU counter on the target pod's IP, unless a
// fault kills that pod (its replacement has another).
func SoakedTarget(run *perfv1alpha1.PerfRun) bool {
	s := &run.Spec
	span := s.Load.EffectiveDuration() * time.Duration(int(s.Load.EffectiveRepetitions())*len(MeasuredPaths(s)))
	return s.DaprEnabled() && result.GaugeInterval(span) > 0 && !killsTarget(run)
}
