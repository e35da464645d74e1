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

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// daprConfigurations records the Dapr Configuration each of the run's sidecars uses: the
// run's own from its spec, a named one as read from the cluster. A named Configuration
// that does not exist is a refusal: the sidecar injector would start daprd with Dapr's
// defaults and the run would measure a setup nobody asked for.
func (r *Reconciler) daprConfigurations(ctx context.Context, run *perfv1alpha1.PerfRun) ([]perfv1alpha1.DaprConfigurationRecord, *refusal, error) {
	named := map[string]*unstructured.Unstructured{}
	for _, name := range workload.NamedConfigurations(run) {
		cfg := &unstructured.Unstructured{}
		cfg.SetGroupVersionKind(workload.ConfigurationGVK)
		err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, cfg)
		if apierrors.IsNotFound(err) {
			return nil, &refusal{perfv1alpha1.ReasonConfigurationNotFound, fmt.Sprintf("the run names Dapr Configuration %q, which does not "+
				"exist in namespace %q (a Configuration is read from the pod's own namespace): create it there, or leave "+
				"spec.dapr.configuration (and the variants' configuration) empty for one the run writes", name, run.Namespace)}, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("reading Dapr Configuration %s/%s: %w", run.Namespace, name, err)
		}
		named[name] = cfg
	}

	var records []perfv1alpha1.DaprConfigurationRecord
	index := map[string]int{}
	use := func(name, variant string) {
		i, seen := index[name]
		if !seen {
			i = len(records)
			index[name] = i
			records = append(records, configurationRecord(run, name, named[name]))
		}
		if variant != "" {
			records[i].Variants = append(records[i].Variants, variant)
		}
	}
	use(workload.ConfigurationName(run), "") // the load tester's sidecar, and the target's without variants
	for _, v := range workload.VariantTargets(run) {
		use(v.Tracing, v.Name)
	}
	return records, nil, nil
}

// configurationRecord is what a figure depends on in one Configuration: cfg is nil for one
// the run writes, whose settings are its spec's.
func configurationRecord(run *perfv1alpha1.PerfRun, name string, cfg *unstructured.Unstructured) perfv1alpha1.DaprConfigurationRecord {
	if cfg == nil {
		owned := workload.TracingConfigurations(run)
		for _, c := range owned {
			if c.GetName() == name {
				cfg = c
			}
		}
		rec := perfv1alpha1.DaprConfigurationRecord{Name: name, OwnedByRun: true}
		if cfg != nil {
			rec.TracingSamplingRate, _, _ = unstructured.NestedString(cfg.Object, "spec", "tracing", "samplingRate")
		}
		return rec
	}
	rec := perfv1alpha1.DaprConfigurationRecord{Name: name, Generation: cfg.GetGeneration()}
	rec.TracingSamplingRate, _, _ = unstructured.NestedString(cfg.Object, "spec", "tracing", "samplingRate")
	rec.Middleware = append(pipelineHandlers(cfg, "httpPipeline", ""), pipelineHandlers(cfg, "appHttpPipeline", "app: ")...)
	features, _, _ := unstructured.NestedSlice(cfg.Object, "spec", "features")
	for _, f := range features {
		m, _ := f.(map[string]any)
		if on, _ := m["enabled"].(bool); on {
			name, _ := m["name"].(string)
			rec.Features = append(rec.Features, name)
		}
	}
	_, allowed, _ := unstructured.NestedFieldNoCopy(cfg.Object, "spec", "api", "allowed")
	_, denied, _ := unstructured.NestedFieldNoCopy(cfg.Object, "spec", "api", "denied")
	rec.APIAllowlist = allowed || denied
	rec.Middleware = capped(rec.Middleware, 16)
	rec.Features = capped(rec.Features, 16)
	return rec
}

// pipelineHandlers are one pipeline's handlers, "name (type)", each prefixed.
func pipelineHandlers(cfg *unstructured.Unstructured, pipeline, prefix string) []string {
	handlers, _, _ := unstructured.NestedSlice(cfg.Object, "spec", pipeline, "handlers")
	var out []string
	for _, h := range handlers {
		m, _ := h.(map[string]any)
		name, _ := m["name"].(string)
		typ, _ := m["type"].(string)
		out = append(out, fmt.Sprintf("%s%s (%s)", prefix, name, typ))
	}
	return out
}

// capped keeps a record's list inside the status's bound (most items): a longer one says so
// in its last item.
func capped(items []string, most int) []string {
	return cappedKeeping(items, most, func(string) bool { return false }, func(n int) string { return fmt.Sprintf("… and %d more", n) })
}

// cappedKeeping is capped that leaves out the items keep does not want first: the items
// kept stay in their order, and more(n) says how many were left out.
func cappedKeeping[T any](items []T, most int, keep func(T) bool, more func(n int) T) []T {
	if len(items) <= most {
		return items
	}
	wanted := 0
	for _, it := range items {
		if keep(it) {
			wanted++
		}
	}
	others := max(most-1-wanted, 0)
	out := make([]T, 0, most)
	for _, it := range items {
		if len(out) == most-1 {
			break
		}
		if keep(it) {
			out = append(out, it)
		} else if others > 0 {
			out, others = append(out, it), others-1
		}
	}
	return append(out, more(len(items)-len(out)))
}
