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
	"fmt"
	"maps"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// A Resiliency governs a variant's invocations when the caller's sidecar (the load tester's)
// loads it and it targets that variant's app id, or names a default every invocation takes;
// a policy loaded by the target's own sidecar shapes that sidecar's calls, not calls to it.
// Side by side, each variant's result names the policies it ran under.
func TestEachVariantNamesTheResilienciesItsInvocationsRanUnder(t *testing.T) {
	records := []perfv1alpha1.DaprResiliencyRecord{
		{Name: "retry-second", Generation: 1, Scopes: []string{"sides-loadtester"}, Targets: []string{"app sides-target-retried"}},
		{Name: "first-unscoped", Generation: 1, Targets: []string{"app sides-target"}},
		{Name: "defaults", Generation: 1, Targets: []string{"default DefaultAppRetryPolicy"}},
		{Name: "built-in", Generation: 1, Scopes: []string{"sides-loadtester"}, Targets: []string{"built-in DaprBuiltInServiceRetries"}},
		{Name: "targets-own", Generation: 1, Scopes: []string{"sides-target-retried"}, Targets: []string{"app sides-target-retried"}},
		{Name: "actors-only", Generation: 1, Targets: []string{"default DefaultActorRetryPolicy", "component statestore"}},
	}
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "sides", Namespace: "team"},
		Spec:   perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{{Name: "plain"}, {Name: "retried"}}},
		Status: perfv1alpha1.PerfRunStatus{Environment: &perfv1alpha1.Environment{DaprResiliencies: records}}}
	want := map[string][]string{
		"plain":   {"first-unscoped", "defaults", "built-in"},
		"retried": {"retry-second", "defaults", "built-in"},
	}
	if got := variantResiliencies(run); !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("variants under %v, want %v", got, want)
	}
	alone := run.DeepCopy()
	alone.Spec.Variants = nil
	if got := variantResiliencies(alone); got != nil {
		t.Errorf("a run without variants: %v, want none (its environment's records say it all)", got)
	}
}

// The status keeps at most 16 records of at most 16 targets each: a long list loses the
// entries that say nothing of the run first, so a variant's policy is still named. Sorted by
// name, the policy came last and fell off both lists.
func TestTheCapsKeepWhatSaysWhichVariantRanUnderAPolicy(t *testing.T) {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "sides", Namespace: "team"},
		Spec: perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{{Name: "plain"}, {Name: "retried"}}}}
	apps := map[string]any{"sides-target-retried": map[string]any{"retry": "r"}}
	for i := range 20 {
		apps[fmt.Sprintf("other-%02d", i)] = map[string]any{"retry": "r"}
	}
	res := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "zz-many"},
		"spec": map[string]any{"targets": map[string]any{"apps": apps}}}}
	rec, applies := resiliencyRecord(res, workload.AppIDs(run))
	if !applies || len(rec.Targets) != 16 || !slices.Contains(rec.Targets, "app sides-target-retried") || rec.Targets[15] != "… and 6 more" {
		t.Fatalf("targets %q: want 16, the variant's app id among them, the rest counted", rec.Targets)
	}
	if rec.Targets[0] != "app other-00" {
		t.Errorf("targets %q: want those kept in their order", rec.Targets)
	}

	var records []perfv1alpha1.DaprResiliencyRecord
	for i := range 20 {
		records = append(records, perfv1alpha1.DaprResiliencyRecord{Name: fmt.Sprintf("a-%02d", i), Targets: []string{"app elsewhere"}})
	}
	records = append(records, rec)
	kept := cappedRecords(run, records)
	if len(kept) != 16 || kept[14].Name != "zz-many" || kept[15].Name != "… and 6 more" {
		t.Fatalf("records %v: want 15, the one that governs a variant among them, and the rest counted", recordNames(kept))
	}
	run.Status.Environment = &perfv1alpha1.Environment{DaprResiliencies: kept}
	if got := variantResiliencies(run); !slices.Equal(got["retried"], []string{"zz-many"}) || len(got["plain"]) != 0 {
		t.Errorf("variants under %v, want retried under zz-many", got)
	}
	alone := run.DeepCopy()
	alone.Spec.Variants = nil
	if kept := cappedRecords(alone, records); kept[14].Name != "a-14" {
		t.Errorf("without variants the first by name are kept: %v", recordNames(kept))
	}
}

func recordNames(records []perfv1alpha1.DaprResiliencyRecord) []string {
	var out []string
	for _, r := range records {
		out = append(out, r.Name)
	}
	return out
}
