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
	"strings"
)

// The kustomize build's names all carry config/default's namePrefix; the chart's carry
// daprbench.fullname (the same "daprbench" by default, fullnameOverride otherwise).
const (
	namePrefix = "daprbench-"
	fullname   = `{{ include "daprbench.fullname" $ }}-`
	saName     = `{{ include "daprbench.serviceAccountName" $ }}`
)

// chartLabels is the labels block of every RBAC object: the chart's standard labels
// (templates/_helpers.tpl) and the component. `$` is the root context, so the block also
// works inside the templates' ranges.
const chartLabels = `  labels:
    {{- include "daprbench.labels" $ | nindent 4 }}
    app.kubernetes.io/component: rbac
`

// kustomizeLabels is what config/default's labels put on every RBAC object.
const kustomizeLabels = `  labels:
    app.kubernetes.io/managed-by: kustomize
    app.kubernetes.io/name: daprbench
`

const kustomizeSubject = "- kind: ServiceAccount\n  name: " + namePrefix + "controller-manager\n"

// templatize turns one RBAC object of the kustomize build into a chart template: the release's
// namespace, the chart's labels, names that follow daprbench.fullname, and subjects that bind
// daprbench.serviceAccountName. Whatever it does not recognise fails the generator rather
// than being left as kustomize wrote it.
func templatize(doc string) (string, error) {
	switch {
	case strings.Count(doc, kustomizeLabels) == 1:
		doc = strings.Replace(doc, kustomizeLabels, chartLabels, 1)
	case !strings.Contains(doc, "  labels:\n") && strings.Count(doc, "metadata:\n  name: ") == 1:
		// controller-gen's manager-role, which config/rbac does not label
		doc = strings.Replace(doc, "metadata:\n", "metadata:\n"+chartLabels, 1)
	default:
		return "", fmt.Errorf("an RBAC object whose labels hack/gen/helmchart does not know:\n%s", doc)
	}
	doc = strings.ReplaceAll(doc, "namespace: "+namespace, "namespace: {{ $.Release.Namespace }}")
	doc = strings.ReplaceAll(doc, kustomizeSubject, "- kind: ServiceAccount\n  name: "+saName+"\n")
	// metadata.name and roleRef.name, both at two spaces.
	doc = strings.ReplaceAll(doc, "\n  name: "+namePrefix, "\n  name: "+fullname)
	if strings.Contains(doc, namePrefix) {
		return "", fmt.Errorf("a name left as kustomize wrote it (daprbench-…), not following fullnameOverride:\n%s", doc)
	}
	return doc, nil
}

// operatorUser is the operator's identity as the kustomize build names it in admission
// policies' CEL: its ServiceAccount's username.
const operatorUser = "system:serviceaccount:" + namespace + ":" + namePrefix + "controller-manager"

// policyTemplate makes an admission policy or binding of the kustomize build a chart
// template: cluster-scoped (kustomize gives every object its namespace), the operator's
// username and the policy's name following the release.
func policyTemplate(doc string) (string, error) {
	doc = strings.Replace(doc, "\n  namespace: "+namespace+"\n", "\n", 1)
	doc = strings.ReplaceAll(doc, operatorUser, "system:serviceaccount:{{ $.Release.Namespace }}:"+saName)
	doc = strings.ReplaceAll(doc, "policyName: "+namePrefix, "policyName: "+fullname)
	return templatize(doc)
}

// serviceAccount makes the templatized ServiceAccount optional (serviceAccount.create), names
// it daprbench.serviceAccountName and gives it serviceAccount.annotations.
func serviceAccount(doc string) string {
	doc = strings.Replace(doc, "\n  name: "+fullname+"controller-manager\n", "\n  name: "+saName+"\n", 1)
	doc = strings.Replace(doc, "metadata:\n", "metadata:\n  {{- with $.Values.serviceAccount.annotations }}\n  annotations:\n    {{- toYaml . | nindent 4 }}\n  {{- end }}\n", 1)
	return "{{- if $.Values.serviceAccount.create }}\n" + doc + "{{- end }}\n"
}

// crdTemplate makes a CRD of the kustomize build a template of the chart: rendered only with
// crds.install, so `helm upgrade` upgrades it with the manager that needs it (crds/, where
// 0.1.0 had it, is installed once and never upgraded); kept by `helm uninstall` (and by an
// upgrade with crds.install=false) with crds.keep, since deleting a CRD deletes every
// PerfRun, PerfSchedule and PerfSweep in the cluster; and labelled like the rest.
func crdTemplate(doc, name string) (string, error) {
	if strings.Contains(doc, "{{") || strings.Contains(doc, "}}") {
		return "", fmt.Errorf("CRD %s holds {{ or }}, which Helm would read as a template: escape it in hack/gen/helmchart", name)
	}
	const annotations = "metadata:\n  annotations:\n"
	nameLine := "\n  name: " + name + "\n"
	if strings.Count(doc, annotations) != 1 || strings.Count(doc, nameLine) != 1 || strings.Contains(doc, "\n  labels:\n") {
		return "", fmt.Errorf("CRD %s: metadata not as controller-gen writes it (annotations, no labels, name)", name)
	}
	doc = strings.Replace(doc, annotations, annotations+"    {{- if $.Values.crds.keep }}\n    helm.sh/resource-policy: keep\n    {{- end }}\n", 1)
	labels := strings.Replace(chartLabels, "component: rbac", "component: crds", 1)
	doc = strings.Replace(doc, nameLine, "\n"+labels+"  name: "+name+"\n", 1)
	return "# Generated by `make manifests` (hack/gen/helmchart) from config/crd: do not edit.\n" +
		"{{- if $.Values.crds.install }}\n" + doc + "{{- end }}\n", nil
}
