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
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// nonRootUID is the "nonroot" user of distroless images.
const nonRootUID = 65532

// podSecurity meets the restricted Pod Security Standard.
func podSecurity() *corev1.PodSecurityContext {
	return &corev1.PodSecurityContext{
		RunAsNonRoot:   ptr.To(true),
		RunAsUser:      ptr.To[int64](nonRootUID),
		RunAsGroup:     ptr.To[int64](nonRootUID),
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

func containerSecurity() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr.To(false),
		ReadOnlyRootFilesystem:   ptr.To(true),
		RunAsNonRoot:             ptr.To(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
}

// daprAnnotations are the sidecar-injector annotations of a Dapr-enabled pod. appPort 0
// leaves dapr.io/app-port out, as a Job-style caller needs.
func daprAnnotations(run *perfv1alpha1.PerfRun, appID string, appPort int) map[string]string {
	d := run.Spec.Dapr
	a := map[string]string{
		AnnotationDaprEnabled: "true",
		"dapr.io/app-id":      appID,
		"dapr.io/config":      ConfigurationName(run),
		"dapr.io/log-level":   string(d.LogLevel),
		// Without an API token the built-in Kubernetes secret store cannot start, and a
		// benchmark reads no secrets.
		"dapr.io/disable-builtin-k8s-secret-store": "true",
	}
	if d.LogLevel == "" {
		a["dapr.io/log-level"] = "info"
	}
	if appPort > 0 {
		a["dapr.io/app-port"] = strconv.Itoa(appPort)
	}
	setSidecarResources(a, d.Sidecar)
	return a
}

// sidecarResourceKeys are the annotations setSidecarResources writes.
var sidecarResourceKeys = []string{"dapr.io/sidecar-cpu-limit", "dapr.io/sidecar-cpu-request", "dapr.io/sidecar-memory-limit", "dapr.io/sidecar-memory-request"}

func setSidecarResources(a map[string]string, s perfv1alpha1.SidecarSpec) {
	for i, q := range []*resource.Quantity{s.CPULimit, s.CPURequest, s.MemoryLimit, s.MemoryRequest} {
		setQuantity(a, sidecarResourceKeys[i], q)
	}
}

func setQuantity(a map[string]string, key string, q *resource.Quantity) {
	if q != nil {
		a[key] = q.String()
	}
}

// loadTesterAffinity adds spec.placement's rule, relative to the target's pods, to the
// user's own affinity.
func loadTesterAffinity(run *perfv1alpha1.PerfRun) *corev1.Affinity {
	aff := run.Spec.LoadTester.Affinity.Core()
	term := corev1.PodAffinityTerm{
		LabelSelector: &metav1.LabelSelector{MatchLabels: Selector(run, sideOf(run).Peer(run))},
		TopologyKey:   corev1.LabelHostname,
	}
	switch run.Spec.Placement {
	case perfv1alpha1.PlacementSameNode:
		if aff == nil {
			aff = &corev1.Affinity{}
		}
		if aff.PodAffinity == nil {
			aff.PodAffinity = &corev1.PodAffinity{}
		}
		aff.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(aff.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, term)
	case perfv1alpha1.PlacementDifferentNodes:
		if aff == nil {
			aff = &corev1.Affinity{}
		}
		if aff.PodAntiAffinity == nil {
			aff.PodAntiAffinity = &corev1.PodAntiAffinity{}
		}
		aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, term)
	}
	return aff
}

// baselineAffinity prefers the target's node for the sidecar-free twin, so both paths
// cross the same network.
func baselineAffinity(run *perfv1alpha1.PerfRun) *corev1.Affinity {
	aff := run.Spec.Target.Affinity.Core()
	if aff == nil {
		aff = &corev1.Affinity{}
	}
	if aff.PodAffinity == nil {
		aff.PodAffinity = &corev1.PodAffinity{}
	}
	aff.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(aff.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
		corev1.WeightedPodAffinityTerm{Weight: 100, PodAffinityTerm: corev1.PodAffinityTerm{
			LabelSelector: &metav1.LabelSelector{MatchLabels: Selector(run, RoleTarget)},
			TopologyKey:   corev1.LabelHostname,
		}})
	return aff
}

// podSpec is the skeleton every pod of a run shares.
func podSpec(run *perfv1alpha1.PerfRun, w perfv1alpha1.WorkloadSpec, c corev1.Container, o Options) corev1.PodSpec {
	c.SecurityContext = containerSecurity()
	c.ImagePullPolicy = corev1.PullPolicy(o.PullPolicy)
	c.Resources = *w.Resources.DeepCopy()
	c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	c.TerminationMessagePath = TerminationLog
	var pullSecrets []corev1.LocalObjectReference
	for _, name := range o.PullSecrets {
		pullSecrets = append(pullSecrets, corev1.LocalObjectReference{Name: name})
	}
	return corev1.PodSpec{
		Containers:         []corev1.Container{c},
		ImagePullSecrets:   pullSecrets,
		SecurityContext:    podSecurity(),
		NodeSelector:       w.NodeSelector,
		Tolerations:        w.Tolerations,
		Affinity:           w.Affinity.Core(),
		EnableServiceLinks: ptr.To(false),
		// The run's own ServiceAccount, bound to nothing, and no API token in the pod: the
		// target and the load tester never call the API server (daprd gets its own token for
		// Dapr's sentry from the injector, in a volume of its own).
		ServiceAccountName:           NamesFor(run).ServiceAccount,
		AutomountServiceAccountToken: ptr.To(false),
	}
}

// RunServiceAccount is the identity of the run's pods: no role is bound to it and it
// mounts no token, so the namespace's default ServiceAccount's bindings never reach them.
func RunServiceAccount(run *perfv1alpha1.PerfRun) *corev1.ServiceAccount {
	return &corev1.ServiceAccount{
		ObjectMeta:                   metav1.ObjectMeta{Name: NamesFor(run).ServiceAccount, Namespace: run.Namespace, Labels: Labels(run, RoleTarget)},
		AutomountServiceAccountToken: ptr.To(false),
	}
}
