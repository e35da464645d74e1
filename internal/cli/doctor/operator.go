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

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
)

// managerLabels select the operator's Deployment, from the chart or the kustomize build.
var managerLabels = client.MatchingLabels{"app.kubernetes.io/name": "daprbench", "app.kubernetes.io/component": "manager"}

// operator is the daprbench manager found, and the settings of its flags that decide what
// a run may do.
type operator struct {
	deployment *appsv1.Deployment
	// lookup is why no Deployment was found (empty when one was).
	lookup string
	// unreadable: the user may not list Deployments there, so nothing can be told.
	unreadable bool
	// unsure says why the Deployment found may not be the operator: found outside the
	// namespace it is installed in, where anyone who may create a Deployment can copy its
	// labels (empty: found where asked, or in DefaultOperatorNamespace).
	unsure string
	// notNamespaces are the names in its --watch-namespaces that cannot be namespaces.
	notNamespaces []string
	// watchNamespaces are the namespaces it runs benchmarks in; empty: every namespace,
	// unless restricted (its flag named only what cannot be a namespace).
	watchNamespaces []string
	restricted      bool
	daprNamespace   string
	kubeletCounters bool
	networkPolicies bool
}

// DefaultOperatorNamespace is where the chart's instructions and the kustomize build
// install the operator: looked in first.
const DefaultOperatorNamespace = "daprbench-system"

// findOperator finds the manager's Deployment: in c.OperatorNamespace when given; else in
// DefaultOperatorNamespace, and only then in any namespace — where a look-alike with the
// same labels may be anyone's, so one found there is named unsure and several are not
// chosen between.
func findOperator(ctx context.Context, c Cluster) operator {
	op := operator{daprNamespace: perfv1alpha1.DefaultControlPlaneNamespace, kubeletCounters: true, networkPolicies: true}
	if c.OperatorNamespace != "" {
		op.find(ctx, c, c.OperatorNamespace)
		return op
	}
	if op.find(ctx, c, DefaultOperatorNamespace); op.deployment != nil {
		return op
	}
	var list appsv1.DeploymentList
	if err := c.Client.List(ctx, &list, managerLabels); err != nil {
		op.lookup = fmt.Sprintf("cannot list Deployments in any namespace: %v", err)
		op.unreadable = apierrors.IsForbidden(err)
		return op
	}
	switch len(list.Items) {
	case 0:
		op.lookup = "no Deployment labelled " + managerLabelText + " in any namespace"
	case 1:
		op.deployment = &list.Items[0]
		op.unsure = fmt.Sprintf("found in namespace %s, not %s, by its labels alone (which any Deployment can carry)", op.deployment.Namespace, DefaultOperatorNamespace)
		op.readFlags()
	default:
		var names []string
		for _, d := range list.Items {
			names = append(names, d.Namespace+"/"+d.Name)
		}
		op.lookup = fmt.Sprintf("%d Deployments carry the operator's labels (%s): which is the operator cannot be told by labels", len(names), strings.Join(names, ", "))
		op.unreadable = true // not a broken cluster: an ambiguous one, told with --operator-namespace
	}
	return op
}

const managerLabelText = "app.kubernetes.io/name=daprbench, app.kubernetes.io/component=manager"

// find looks for the manager's Deployment in namespace ns.
func (op *operator) find(ctx context.Context, c Cluster, ns string) {
	var list appsv1.DeploymentList
	if err := c.Client.List(ctx, &list, managerLabels, client.InNamespace(ns)); err != nil {
		op.lookup = fmt.Sprintf("cannot list Deployments in namespace %s: %v", ns, err)
		op.unreadable = apierrors.IsForbidden(err)
		return
	}
	if len(list.Items) == 0 {
		op.lookup = "no Deployment labelled " + managerLabelText + " in namespace " + ns
		return
	}
	op.deployment, op.lookup, op.unreadable = &list.Items[0], "", false
	op.readFlags()
}

// readFlags reads the manager container's flags and their environment twins, with the
// manager's own defaults (cmd/manager/flags.go).
func (op *operator) readFlags() {
	for _, c := range op.deployment.Spec.Template.Spec.Containers {
		if c.Name != "manager" {
			continue
		}
		flags := map[string]string{}
		for _, e := range c.Env {
			flags[strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(e.Name, "DAPRBENCH_"), "_", "-"))] = e.Value
		}
		for _, a := range c.Args {
			name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if !hasValue {
				value = "true"
			}
			flags[name] = value
		}
		if v := flags["watch-namespaces"]; v != "" {
			// Only names that can be namespaces: the value goes into a command doctor
			// suggests, and a look-alike's flags are anyone's text.
			op.restricted = true
			for _, ns := range strings.Split(v, ",") {
				if ns = strings.TrimSpace(ns); ns == "" {
					continue
				}
				if len(validation.IsDNS1123Label(ns)) == 0 {
					op.watchNamespaces = append(op.watchNamespaces, ns)
				} else {
					op.notNamespaces = append(op.notNamespaces, ns)
				}
			}
		}
		if v := flags["dapr-namespace"]; v != "" {
			op.daprNamespace = v
		}
		op.kubeletCounters = flags["kubelet-counters"] != "false"
		op.networkPolicies = flags["network-policies"] != "false"
	}
}

func (op operator) name() string {
	return op.deployment.Namespace + "/" + op.deployment.Name
}

// image is the manager container's image.
func (op operator) image() string {
	for _, c := range op.deployment.Spec.Template.Spec.Containers {
		if c.Name == "manager" {
			return c.Image
		}
	}
	return ""
}

const installFix = "install the operator from a clone: helm install daprbench charts/daprbench -n daprbench-system --create-namespace --wait " +
	"--set image.repository=<registry>/daprbench --set image.tag=<tag> " +
	`--set-json 'rbac.namespaces=["<namespace>"]' (README, "Quickstart on your cluster"); installed elsewhere than daprbench-system: --operator-namespace`

func (op operator) check() Check {
	if op.deployment == nil && op.unreadable {
		// A tenant who may only create runs in their namespace: not a broken cluster.
		return Check{Name: "operator", Status: Warn, Detail: "cannot tell: " + op.lookup,
			Fix: "give --operator-namespace (where the operator runs, e.g. daprbench-system), or ask whoever installed daprbench"}
	}
	if op.deployment != nil && op.unsure != "" {
		return Check{Name: "operator", Status: Warn, Detail: fmt.Sprintf("%s, image %s: %s", op.name(), op.image(), op.unsure),
			Fix: "give --operator-namespace " + op.deployment.Namespace + " if that is where the operator runs"}
	}
	if op.deployment == nil {
		return Check{Name: "operator", Status: Fail, Detail: op.lookup, Fix: installFix}
	}
	for _, cond := range op.deployment.Status.Conditions {
		if cond.Type == appsv1.DeploymentAvailable && cond.Status == corev1.ConditionTrue {
			return Check{Name: "operator", Status: Pass, Detail: fmt.Sprintf("%s available, image %s", op.name(), op.image())}
		}
	}
	return Check{Name: "operator", Status: Fail,
		Detail: fmt.Sprintf("%s is not available (%d of %d replicas ready)", op.name(), op.deployment.Status.ReadyReplicas, op.deployment.Status.Replicas),
		Fix:    fmt.Sprintf("kubectl -n %s describe deployment %s; kubectl -n %s logs deployment/%s", op.deployment.Namespace, op.deployment.Name, op.deployment.Namespace, op.deployment.Name)}
}

// versions compares the plugin's version with the operator image's tag: a plugin newer
// than the operator may send fields its CRDs do not know (admission refuses them).
func versions(c Cluster, op operator) Check {
	if op.deployment == nil {
		return Check{Name: "versions", Status: Warn, Detail: "plugin " + c.PluginVersion + "; no operator to compare with"}
	}
	operatorVersion := diagnose.ImageTag(op.image())
	detail := fmt.Sprintf("plugin %s, operator %s", c.PluginVersion, orUnknown(operatorVersion))
	switch {
	case slices.Contains([]string{"", "dev", "latest"}, operatorVersion) || c.PluginVersion == "dev":
		return Check{Name: "versions", Status: Warn, Detail: detail + ": a development build on one side, not compared",
			Fix: "use the plugin of the operator's release: go install github.com/daprbench/daprbench/cmd/kubectl-daprbench@<operator's version>"}
	case strings.TrimPrefix(operatorVersion, "v") != strings.TrimPrefix(c.PluginVersion, "v"):
		return Check{Name: "versions", Status: Warn, Detail: detail + ": they differ",
			Fix: "install the plugin of the operator's release: go install github.com/daprbench/daprbench/cmd/kubectl-daprbench@" + operatorVersion}
	}
	return Check{Name: "versions", Status: Pass, Detail: detail}
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
