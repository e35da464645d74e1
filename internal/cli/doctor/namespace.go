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
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/config/samples"
	"github.com/daprbench/daprbench/internal/operator/queue"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// namespaceChecks ask about the namespace a run goes in: the operator's reach, the user's
// right to create a run there (the smoke sample, dry-run), whether its pods fit a node and
// the namespace's quotas.
func namespaceChecks(ctx context.Context, c Cluster, op operator) []Check {
	ns := c.Namespace
	if err := c.Client.Get(ctx, client.ObjectKey{Name: ns}, &corev1.Namespace{}); apierrors.IsNotFound(err) {
		return []Check{{Name: "namespace", Status: Fail, Detail: "namespace " + ns + " does not exist",
			Fix: "kubectl create namespace " + ns + ", then add it to the operator's namespaces (Helm value rbac.namespaces)"}}
	}
	checks := []Check{operatorReach(op, ns)}
	if checks[0].Status == Pass {
		checks = append(checks, operatorRights(ctx, c, op, ns))
	}
	run, admitted := smokeAdmitted(ctx, c)
	checks = append(checks, admitted)
	if run == nil {
		return checks
	}
	demands := workload.PodDemands(run, workload.Options{})
	return append(checks, fits(ctx, c, demands), quotas(ctx, c, demands))
}

func operatorReach(op operator, ns string) Check {
	switch {
	case op.deployment == nil:
		return Check{Name: "namespace", Status: Warn, Detail: "no operator to ask whether it runs benchmarks in " + ns}
	case len(op.watchNamespaces) == 0 && !op.restricted:
		return Check{Name: "namespace", Status: Pass, Detail: "the operator runs benchmarks in every namespace, " + ns + " included"}
	case slices.Contains(op.watchNamespaces, ns):
		return Check{Name: "namespace", Status: Pass, Detail: "the operator runs benchmarks in " + ns}
	}
	detail := fmt.Sprintf("the operator runs benchmarks in %s only: a run in %s would never start", strings.Join(op.watchNamespaces, ", "), ns)
	if len(op.notNamespaces) > 0 {
		detail += fmt.Sprintf(" (%d more of its --watch-namespaces cannot be namespaces: left out)", len(op.notNamespaces))
	}
	// Every name is a DNS label (readFlags; ns only when it is one): the JSON needs no
	// escaping, and the single quotes hold no quote.
	names := slices.Clone(op.watchNamespaces)
	if len(validation.IsDNS1123Label(ns)) == 0 {
		names = append(names, ns)
	}
	list, _ := json.Marshal(names)
	return Check{Name: "namespace", Status: Fail, Detail: detail,
		Fix: fmt.Sprintf(`helm upgrade daprbench charts/daprbench -n %s --reset-then-reuse-values --set-json 'rbac.namespaces=%s'`,
			op.deployment.Namespace, list)}
}

// smokeAdmitted creates the smoke sample in the namespace, server-side dry run: the user's
// RBAC, the CRDs' validation and any admission policy answer as for a real run. The
// admitted object (defaults applied) is what the fit and quota checks ask about.
func smokeAdmitted(ctx context.Context, c Cluster) (*perfv1alpha1.PerfRun, Check) {
	run := &perfv1alpha1.PerfRun{}
	if err := yaml.UnmarshalStrict(samples.Smoke, run); err != nil {
		return nil, Check{Name: "admission", Status: Fail, Detail: "the embedded smoke sample does not parse: " + err.Error()}
	}
	run.Namespace = c.Namespace
	err := c.Client.Create(ctx, run, client.DryRunAll)
	switch {
	case apierrors.IsForbidden(err):
		return nil, Check{Name: "admission", Status: Fail, Detail: "you may not create PerfRuns in " + c.Namespace + ": " + err.Error(),
			Fix: "ask for the chart's daprbench-perfrun-editor-role ClusterRole, bound in " + c.Namespace + " (docs/multi-tenancy.md)"}
	case err != nil:
		return nil, Check{Name: "admission", Status: Fail, Detail: "the smoke sample is refused: " + err.Error(),
			Fix: "the CRDs may be older than the plugin: upgrade the chart (docs/operations.md)"}
	}
	return run, Check{Name: "admission", Status: Pass, Detail: "the smoke sample is admitted in " + c.Namespace + " (server-side dry run)"}
}

// fits asks, as preflight does, whether some node could ever hold each of the smoke run's pods.
func fits(ctx context.Context, c Cluster, demands []workload.PodDemand) Check {
	var nodes corev1.NodeList
	if err := c.Client.List(ctx, &nodes); err != nil {
		return Check{Name: "fit", Status: Warn, Detail: "cannot list nodes to tell (" + err.Error() + "); the run's preflight will"}
	}
	if len(nodes.Items) == 0 {
		return Check{Name: "fit", Status: Fail, Detail: "the cluster has no nodes", Fix: "add a node"}
	}
	if msg := queue.NeverFits(demands, nodes.Items); msg != "" {
		return Check{Name: "fit", Status: Fail, Detail: "the smoke sample: " + msg, Fix: "add a node with room, or lower the run's requests"}
	}
	return Check{Name: "fit", Status: Pass, Detail: fmt.Sprintf("every pod of the smoke sample fits a node (%d nodes)", len(nodes.Items))}
}

// quotaKeys are the quota resources a run's pods count against, each with the request it
// sums.
var quotaKeys = map[corev1.ResourceName]corev1.ResourceName{
	corev1.ResourceRequestsCPU: corev1.ResourceCPU, corev1.ResourceCPU: corev1.ResourceCPU,
	corev1.ResourceRequestsMemory: corev1.ResourceMemory, corev1.ResourceMemory: corev1.ResourceMemory,
}

// quotas checks that the namespace's ResourceQuotas leave room for the smoke run's pods.
func quotas(ctx context.Context, c Cluster, demands []workload.PodDemand) Check {
	var list corev1.ResourceQuotaList
	if err := c.Client.List(ctx, &list, client.InNamespace(c.Namespace)); err != nil {
		return Check{Name: "quota", Status: Warn, Detail: "cannot list ResourceQuotas (" + err.Error() + ")"}
	}
	want := corev1.ResourceList{corev1.ResourcePods: *resource.NewQuantity(int64(len(demands)), resource.DecimalSI)}
	for _, d := range demands {
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			q := want[name]
			q.Add(d.Requests[name])
			want[name] = q
		}
	}
	for _, quota := range list.Items {
		hardLimits := quota.Status.Hard
		if len(hardLimits) == 0 {
			hardLimits = quota.Spec.Hard // not yet counted by the quota controller: nothing used
		}
		for key, hard := range hardLimits {
			request, counted := quotaKeys[key]
			if key == corev1.ResourcePods {
				request, counted = corev1.ResourcePods, true
			}
			if !counted {
				continue
			}
			left := hard.DeepCopy()
			left.Sub(quota.Status.Used[key])
			if need := want[request]; need.Cmp(left) > 0 {
				return Check{Name: "quota", Status: Fail,
					Detail: fmt.Sprintf("ResourceQuota %s leaves %s of %s, the smoke sample's pods ask for %s", quota.Name, left.String(), key, need.String()),
					Fix:    "raise the quota, or give runs smaller requests (spec.target.resources, spec.loadTester.resources, spec.dapr.sidecar)"}
			}
		}
	}
	if len(list.Items) == 0 {
		return Check{Name: "quota", Status: Pass, Detail: "no ResourceQuota in " + c.Namespace}
	}
	return Check{Name: "quota", Status: Pass, Detail: fmt.Sprintf("%d ResourceQuotas leave room for the smoke sample", len(list.Items))}
}
