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
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Thresholds only judge the result, the run's own and its variants' alike: an edit of
// either re-judges, an edit of what is measured measures again.
func TestMeasuredSpecLeavesOutEveryThreshold(t *testing.T) {
	spec := func(mutate func(*perfv1alpha1.PerfRunSpec)) string {
		s := &perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000},
			Variants: []perfv1alpha1.SidecarVariant{{Name: "base"}, {Name: "fast"}}}
		mutate(s)
		return measuredSpec(s)
	}
	plain := spec(func(*perfv1alpha1.PerfRunSpec) {})
	gated := spec(func(s *perfv1alpha1.PerfRunSpec) {
		s.Thresholds = &perfv1alpha1.Thresholds{MaxP90: &metav1.Duration{Duration: time.Millisecond}}
		s.Variants[1].Thresholds = &perfv1alpha1.VariantThresholds{MaxSlowdownP90: &metav1.Duration{Duration: 200 * time.Microsecond}}
	})
	if gated != plain {
		t.Errorf("thresholds changed the fingerprint: %s, without %s", gated, plain)
	}
	if other := spec(func(s *perfv1alpha1.PerfRunSpec) { s.Variants[1].LogLevel = "debug" }); other == plain {
		t.Error("a variant's sidecar setting is measured: it must change the fingerprint")
	}
	s := &perfv1alpha1.PerfRunSpec{Variants: []perfv1alpha1.SidecarVariant{{Name: "base"}, {Name: "fast", Thresholds: &perfv1alpha1.VariantThresholds{}}}}
	measuredSpec(s)
	if s.Variants[1].Thresholds == nil {
		t.Error("measuredSpec changed the spec it fingerprints")
	}
}
