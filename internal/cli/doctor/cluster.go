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

package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/daprbench/daprbench/internal/operator/diagnose"
)

// minKubernetes is the chart's kubeVersion: the CRDs' CEL rules need 1.29.
const minKubernetesMajor, minKubernetesMinor = 1, 29

func kubernetesVersion(c Cluster) Check {
	info, err := c.Discovery.ServerVersion()
	if err != nil {
		return Check{Name: "kubernetes", Status: Fail, Detail: "the API server does not answer: " + err.Error(), Fix: "check the kubeconfig's context (kubectl cluster-info)"}
	}
	version := fmt.Sprintf("%s.%s", info.Major, strings.TrimSuffix(info.Minor, "+"))
	if atLeast, known := diagnose.AtLeast(version, minKubernetesMajor, minKubernetesMinor); known && !atLeast {
		return Check{Name: "kubernetes", Status: Fail, Detail: "Kubernetes " + info.GitVersion + " is older than 1.29",
			Fix: "the CRDs' validation rules need Kubernetes 1.29 or later"}
	}
	return Check{Name: "kubernetes", Status: Pass, Detail: "Kubernetes " + info.GitVersion}
}

// crdsServed checks that the API serves daprbench's three kinds at the version this plugin
// speaks.
func crdsServed(c Cluster) Check {
	const groupVersion = "perf.daprbench.io/v1alpha1"
	want := []string{"perfruns", "perfschedules", "perfsweeps"}
	list, err := c.Discovery.ServerResourcesForGroupVersion(groupVersion)
	var missing []string
	for _, r := range want {
		if err != nil || !slices.ContainsFunc(list.APIResources, func(a metav1.APIResource) bool { return a.Name == r }) {
			missing = append(missing, r+"."+strings.Split(groupVersion, "/")[0])
		}
	}
	if len(missing) > 0 {
		return Check{Name: "crds", Status: Fail, Detail: fmt.Sprintf("%s not served at %s", strings.Join(missing, ", "), groupVersion),
			Fix: "the chart installs them (crds.install, default on): " + installFix}
	}
	return Check{Name: "crds", Status: Pass, Detail: strings.Join(want, ", ") + " served at " + groupVersion}
}

// metricsAPI checks that metrics-server answers for the namespace: runs sample every pod's
// usage through it.
func metricsAPI(ctx context.Context, c Cluster) Check {
	const fix = "install metrics-server (kubectl apply -f https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml; " +
		"on kind and other clusters with self-signed kubelet certificates add --kubelet-insecure-tls to its args)"
	if _, err := c.Discovery.ServerResourcesForGroupVersion("metrics.k8s.io/v1beta1"); err != nil {
		return Check{Name: "metrics-api", Status: Fail, Detail: "metrics.k8s.io/v1beta1 is not served: " + err.Error(), Fix: fix}
	}
	pods := &unstructured.UnstructuredList{}
	pods.SetAPIVersion("metrics.k8s.io/v1beta1")
	pods.SetKind("PodMetricsList")
	err := c.Client.List(ctx, pods, client.InNamespace(c.Namespace), client.Limit(1))
	if apierrors.IsForbidden(err) {
		return Check{Name: "metrics-api", Status: Warn, Detail: "metrics.k8s.io is served; you may not read pod metrics in " + c.Namespace + " to see it answer",
			Fix: "runs read it with the operator's own rights; ask for pods.metrics.k8s.io list to check it here"}
	}
	if err != nil {
		return Check{Name: "metrics-api", Status: Fail, Detail: "metrics.k8s.io is registered but does not answer: " + err.Error(),
			Fix: "kubectl -n kube-system logs deployment/metrics-server; " + fix}
	}
	return Check{Name: "metrics-api", Status: Pass, Detail: "metrics.k8s.io answers"}
}

func kubeletCounters(op operator) Check {
	switch {
	case op.deployment == nil:
		return Check{Name: "kubelet-counters", Status: Warn, Detail: "no operator to ask"}
	case !op.kubeletCounters:
		return Check{Name: "kubelet-counters", Status: Warn,
			Detail: "off: CPU figures come from metrics-server's windows only, and runs say CPULimitBound=Unknown (CountersNotRead)",
			Fix:    "Helm value kubeletCounters=true (a ClusterRole with nodes/proxy get) reads CPU and CFS throttling at each phase's edges"}
	}
	return Check{Name: "kubelet-counters", Status: Pass, Detail: "on: CPU and throttling read at each phase's edges"}
}

// enforcingNetworkPlugins are the network plugins known to enforce NetworkPolicy, by the
// name their pods in kube-system start with.
var enforcingNetworkPlugins = []string{"calico-node", "cilium", "antrea-agent", "kube-router", "weave-net", "canal"}

// networkPolicies says whether the NetworkPolicies a run creates are enforced, as far as
// can be told: the API accepts them on any cluster, only the network plugin enforces them.
func networkPolicies(ctx context.Context, c Cluster, op operator) Check {
	if op.deployment != nil && !op.networkPolicies {
		return Check{Name: "network-policy", Status: Warn, Detail: "the operator creates no NetworkPolicy (--network-policies=false): FourPaths runs are refused (NetworkPoliciesOff)",
			Fix: "Helm value networkPolicies=true, on a network plugin that enforces them"}
	}
	var pods corev1.PodList
	if err := c.Client.List(ctx, &pods, client.InNamespace("kube-system")); err != nil {
		return Check{Name: "network-policy", Status: Warn, Detail: "cannot tell which network plugin runs (listing kube-system's pods: " + err.Error() + ")"}
	}
	for _, p := range pods.Items {
		for _, plugin := range enforcingNetworkPlugins {
			if strings.HasPrefix(p.Name, plugin) {
				return Check{Name: "network-policy", Status: Pass, Detail: "enforced by " + plugin}
			}
		}
	}
	return Check{Name: "network-policy", Status: Warn,
		Detail: "cannot tell whether the network plugin enforces NetworkPolicy (none of " + strings.Join(enforcingNetworkPlugins, ", ") + " in kube-system)",
		Fix:    "without enforcement a run's policies guard nothing: its daprd APIs rest on the run's API token alone"}
}
