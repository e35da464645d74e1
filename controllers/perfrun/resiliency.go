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

package perfrun

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// +kubebuilder:rbac:groups=dapr.io,resources=resiliencies,verbs=list

// daprResiliencies records the Dapr Resiliency objects that apply to the run's sidecars:
// daprd loads every Resiliency of its namespace that is unscoped or scoped to its app id,
// and its timeouts, retries and circuit breakers then shape the run's figures. No Resiliency
// is refused: a team's own policies are what it wants measured. A cluster without Dapr's
// Resiliency CRD has none.
func (r *Reconciler) daprResiliencies(ctx context.Context, run *perfv1alpha1.PerfRun) ([]perfv1alpha1.DaprResiliencyRecord, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(workload.ResiliencyGVK.GroupVersion().WithKind(workload.ResiliencyGVK.Kind + "List"))
	if err := r.List(ctx, list, client.InNamespace(run.Namespace)); err != nil {
		if meta.IsNoMatchError(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("listing Dapr Resiliencies in %s: %w", run.Namespace, err)
	}
	appIDs := workload.AppIDs(run)
	var records []perfv1alpha1.DaprResiliencyRecord
	for i := range list.Items {
		if rec, applies := resiliencyRecord(&list.Items[i], appIDs); applies {
			records = append(records, rec)
		}
	}
	slices.SortFunc(records, func(a, b perfv1alpha1.DaprResiliencyRecord) int { return strings.Compare(a.Name, b.Name) })
	return cappedRecords(run, records), nil
}

// cappedRecords keeps the records inside the status's bound (16: the last one left says how
// many more applied), leaving out first those that govern no variant's invocations: a
// variant's result names its policies from the records kept.
func cappedRecords(run *perfv1alpha1.PerfRun, records []perfv1alpha1.DaprResiliencyRecord) []perfv1alpha1.DaprResiliencyRecord {
	caller, variants := workload.NamesFor(run).TesterAppID, workload.VariantTargets(run)
	return cappedKeeping(records, 16, func(rec perfv1alpha1.DaprResiliencyRecord) bool {
		return len(run.Spec.Variants) > 0 && slices.ContainsFunc(variants, func(v workload.VariantTarget) bool { return governs(rec, caller, v.AppID) })
	}, func(n int) perfv1alpha1.DaprResiliencyRecord {
		return perfv1alpha1.DaprResiliencyRecord{Name: fmt.Sprintf("… and %d more", n)}
	})
}

// resiliencyRecord is what one Resiliency sets, and whether it applies to one of appIDs.
func resiliencyRecord(res *unstructured.Unstructured, appIDs []string) (perfv1alpha1.DaprResiliencyRecord, bool) {
	rec := perfv1alpha1.DaprResiliencyRecord{Name: res.GetName(), Generation: res.GetGeneration()}
	scopes, _, _ := unstructured.NestedStringSlice(res.Object, "scopes")
	for _, s := range scopes {
		if slices.Contains(appIDs, s) {
			rec.Scopes = append(rec.Scopes, s)
		}
	}
	if len(scopes) > 0 && len(rec.Scopes) == 0 {
		return rec, false // scoped to other apps only
	}
	for _, kind := range []struct{ field, word string }{{"apps", "app"}, {"actors", "actor"}, {"components", "component"}} {
		targets, _, _ := unstructured.NestedMap(res.Object, "spec", "targets", kind.field)
		for _, name := range slices.Sorted(maps.Keys(targets)) {
			rec.Targets = append(rec.Targets, kind.word+" "+name)
		}
	}
	// Policies named as Dapr's defaults or built-in overrides apply without a target.
	for _, kind := range []string{"timeouts", "retries", "circuitBreakers"} {
		policies, _, _ := unstructured.NestedMap(res.Object, "spec", "policies", kind)
		for _, name := range slices.Sorted(maps.Keys(policies)) {
			switch {
			case strings.HasPrefix(name, "Default") && strings.HasSuffix(name, "Policy"):
				rec.Targets = append(rec.Targets, "default "+name)
			case strings.HasPrefix(name, "DaprBuiltIn"):
				rec.Targets = append(rec.Targets, "built-in "+name)
			}
		}
	}
	rec.Scopes = capped(rec.Scopes, 8)
	// The run's own app ids and the defaults every invocation takes are kept first: they say
	// which variant ran under the policy.
	rec.Targets = cappedKeeping(rec.Targets, 16, func(t string) bool {
		return invocationDefaults[t] || slices.ContainsFunc(appIDs, func(id string) bool { return t == "app "+id })
	}, func(n int) string { return fmt.Sprintf("… and %d more", n) })
	return rec, true
}

// variantResiliencies names, for each sidecar variant of the run, the recorded Resiliencies
// (status.environment.daprResiliencies) that set a policy on its invocations: daprd applies
// a Resiliency's policies to the calls its own sidecar makes, so one must apply to the load
// tester's (unscoped, or scoped to its app id) and target the variant's app id, or name a
// policy every invocation takes (Dapr's defaults for apps, the built-in service retries).
// Nil for a run without spec.variants.
func variantResiliencies(run *perfv1alpha1.PerfRun) map[string][]string {
	if len(run.Spec.Variants) == 0 || run.Status.Environment == nil {
		return nil
	}
	caller := workload.NamesFor(run).TesterAppID
	out := map[string][]string{}
	for _, rec := range run.Status.Environment.DaprResiliencies {
		for _, v := range workload.VariantTargets(run) {
			if governs(rec, caller, v.AppID) {
				out[v.Name] = append(out[v.Name], rec.Name)
			}
		}
	}
	return out
}

// governs reports whether a recorded Resiliency sets a policy on the caller's invocations of
// app: the caller's sidecar loads it (unscoped, or scoped to the caller; one scoped to the
// target alone shapes that sidecar's calls, not calls to it), and it targets the app or
// names a policy every invocation takes.
func governs(rec perfv1alpha1.DaprResiliencyRecord, caller, app string) bool {
	if len(rec.Scopes) > 0 && !slices.Contains(rec.Scopes, caller) {
		return false
	}
	return slices.Contains(rec.Targets, "app "+app) || slices.ContainsFunc(rec.Targets, func(t string) bool { return invocationDefaults[t] })
}

// invocationDefaults are the targets a record lists (resiliencyRecord) for policies Dapr
// applies to every service invocation: its defaults for all calls and for apps, and its
// built-in service retries.
var invocationDefaults = map[string]bool{
	"default DefaultRetryPolicy": true, "default DefaultTimeoutPolicy": true, "default DefaultCircuitBreakerPolicy": true,
	"default DefaultAppRetryPolicy": true, "default DefaultAppTimeoutPolicy": true, "default DefaultAppCircuitBreakerPolicy": true,
	"built-in DaprBuiltInServiceRetries": true,
}
