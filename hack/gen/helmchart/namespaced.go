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

package main

import (
	"fmt"
	"slices"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"

	"github.com/daprbench/daprbench/internal/operator/rbacscope"
)

const (
	managerRole        = "daprbench-manager-role"
	managerRoleBinding = "daprbench-manager-rolebinding"
)

// withNamespacedMode wraps the manager's ClusterRole and its binding (the kustomize
// install, kept as rbac.namespaced=false) and adds the namespaced mode beside them: the
// rules rbacscope.Split places, as a smaller ClusterRole, a Role in each of
// rbac.namespaces (default: the release's namespace), a read-only Role in Dapr's
// control-plane namespace (and pod deletion there with faults.allowControlPlane), and the
// kubelet's API only with kubeletCounters.
func withNamespacedMode(role, binding string) (string, error) {
	var cr rbacv1.ClusterRole
	if err := yaml.Unmarshal([]byte(role), &cr); err != nil {
		return "", err
	}
	s := rbacscope.Split(cr.Rules)
	rules := func(r []rbacv1.PolicyRule) (string, error) {
		b, err := yaml.Marshal(map[string]any{"rules": r})
		return string(b), err
	}
	cluster, err := rules(s.Cluster)
	if err != nil {
		return "", err
	}
	namespaced, err := rules(s.Namespaced)
	if err != nil {
		return "", err
	}
	controlPlane, err := rules(s.ControlPlane)
	if err != nil {
		return "", err
	}
	kubelet, err := rules(s.KubeletProxy)
	if err != nil {
		return "", err
	}
	clusterRole, err := kubeletProxyOnlyWithCounters(role, cr.Rules)
	if err != nil {
		return "", err
	}
	if clusterRole, err = templatize(clusterRole); err != nil {
		return "", err
	}
	if binding, err = templatize(binding); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{{- if not .Values.rbac.namespaced }}\n%s---\n%s{{- else }}\n", clusterRole, binding)
	b.WriteString(clusterRoleAndBinding("manager-cluster-role", "manager-cluster-rolebinding", cluster))
	b.WriteString("{{- if .Values.kubeletCounters }}\n---\n")
	b.WriteString(clusterRoleAndBinding("kubelet-reader", "kubelet-reader-binding", kubelet))
	b.WriteString("{{- end }}\n")
	b.WriteString("{{- range $ns := .Values.rbac.namespaces | default (list $.Release.Namespace) }}\n---\n")
	b.WriteString(roleAndBinding(strings.TrimPrefix(managerRole, namePrefix), strings.TrimPrefix(managerRoleBinding, namePrefix), "{{ $ns }}", namespaced))
	b.WriteString("{{- end }}\n---\n")
	b.WriteString(roleAndBinding("control-plane-reader", "control-plane-reader-binding", "{{ $.Values.daprNamespace }}", controlPlane))
	b.WriteString("{{- if .Values.faults.allowControlPlane }}\n---\n")
	b.WriteString(roleAndBinding("control-plane-killer", "control-plane-killer-binding", "{{ $.Values.daprNamespace }}", controlPlaneKiller))
	b.WriteString("{{- end }}\n")
	b.WriteString("{{- end }}\n")
	return b.String(), nil
}

// controlPlaneKiller is what a control-plane PodKill needs in Dapr's namespace beyond the
// reader's list: deleting the service's pods (faults.allowControlPlane only).
const controlPlaneKiller = "rules:\n- apiGroups:\n  - \"\"\n  resources:\n  - pods\n  verbs:\n  - delete\n"

// kubeletProxyOnlyWithCounters keeps nodes/proxy in the cluster-wide mode's ClusterRole only
// when kubeletCounters is set: the kubelet's API is far more than the counters. The
// resource shares a rule with others (controller-gen groups by verbs), so its one line is
// wrapped; a rule of nodes/proxy alone would be left empty, and is refused here.
func kubeletProxyOnlyWithCounters(role string, rules []rbacv1.PolicyRule) (string, error) {
	for _, r := range rules {
		if slices.Contains(r.Resources, "nodes/proxy") && len(r.Resources) == 1 {
			return "", fmt.Errorf("nodes/proxy is a rule of its own in the manager's role: wrap the whole rule in hack/gen/helmchart")
		}
	}
	const line = "  - nodes/proxy\n"
	if strings.Count(role, line) != 1 {
		return "", fmt.Errorf("the manager's role lists nodes/proxy %d times, want once", strings.Count(role, line))
	}
	return strings.Replace(role, line, "{{- if .Values.kubeletCounters }}\n"+line+"{{- end }}\n", 1), nil
}

const subject = "subjects:\n- kind: ServiceAccount\n  name: " + saName + "\n  namespace: {{ $.Release.Namespace }}\n"

// clusterRoleAndBinding and roleAndBinding make the namespaced mode's objects, named
// <fullname>-name like the rest (templatize).
func clusterRoleAndBinding(name, bindingName, rules string) string {
	return "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n" + chartLabels + "  name: " + fullname + name + "\n" + rules +
		"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n" + chartLabels + "  name: " + fullname + bindingName + "\n" +
		"roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: " + fullname + name + "\n" + subject
}

func roleAndBinding(name, bindingName, namespace, rules string) string {
	meta := chartLabels + "  name: " + fullname + "%s\n  namespace: " + namespace + "\n"
	return "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n" + fmt.Sprintf(meta, name) + rules +
		"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n" + fmt.Sprintf(meta, bindingName) +
		"roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: " + fullname + name + "\n" + subject
}
