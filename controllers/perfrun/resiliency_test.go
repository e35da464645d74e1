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
	"maps"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
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
