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

package workload_test

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	. "github.com/daprbench/daprbench/api/v1alpha1"
	. "github.com/daprbench/daprbench/internal/operator/workload"
)

// The load tester runs the paths A B on even repetitions and B A on odd ones.
func TestProgressFollowsTheLoadTestersAlternatingOrder(t *testing.T) {
	spec := PerfRunSpec{Scenario: ScenarioServiceInvocation, Variants: []SidecarVariant{{Name: "a"}, {Name: "b"}},
		Load: LoadSpec{QPS: 100, Repetitions: 2, Duration: &metav1.Duration{Duration: time.Minute}, Warmup: &metav1.Duration{Duration: 10 * time.Second}}}
	start := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	var got []string
	for _, at := range []time.Duration{5, 15, 75, 135, 195, 255, 315, 375, 999} {
		p := ProgressAt(&spec, start, start.Add(at*time.Second))
		got = append(got, fmt.Sprintf("%d %s", p.Repetition, p.Path))
	}
	want := []string{"0 warm-up", "1 baseline", "1 dapr (a)", "1 dapr (b)", "2 dapr (b)", "2 dapr (a)", "2 baseline", "2 baseline", "2 baseline"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("paths over time\n got %v\nwant %v", got, want)
	}
	if p := ProgressAt(&spec, start, start); p.ExpectedEndTime.Sub(start) != 10*time.Second+6*time.Minute || p.Repetitions != 2 {
		t.Errorf("expected end %v, repetitions %d", p.ExpectedEndTime.Sub(start), p.Repetitions)
	}
}

// Every mode combination names as many paths as it measures: progress indexes the names
// by the load tester's phase order, which Paths sizes.
func TestPathNamesCountWhatPathsCounts(t *testing.T) {
	for _, dapr := range []bool{true, false} {
		for _, baseline := range []bool{true, false} {
			for _, variants := range [][]SidecarVariant{nil, {{Name: "a"}, {Name: "b"}}} {
				for _, paths := range []InvocationPaths{PathsStandard, PathsFour} {
					spec := PerfRunSpec{Scenario: ScenarioServiceInvocation, Dapr: DaprSpec{Enabled: &dapr}, Baseline: &baseline,
						Variants: variants, ServiceInvocation: &ServiceInvocationSpec{Paths: paths}}
					if !dapr && (len(variants) > 0 || paths == PathsFour) {
						continue // refused at admission
					}
					if names := PathNames(&spec); len(names) != spec.Paths() && dapr {
						t.Errorf("dapr %v baseline %v variants %d %s: names %v, Paths() %d", dapr, baseline, len(variants), paths, names, spec.Paths())
					}
				}
			}
		}
	}
	four := PerfRunSpec{Scenario: ScenarioServiceInvocation, ServiceInvocation: &ServiceInvocationSpec{Paths: PathsFour},
		Load: LoadSpec{QPS: 100, Repetitions: 1, Duration: &metav1.Duration{Duration: time.Minute}, Warmup: &metav1.Duration{Duration: 10 * time.Second}}}
	start := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	var got []string
	// One repetition runs in halves, each path 30 s, then the order reversed.
	for _, at := range []time.Duration{15, 45, 75, 105} {
		got = append(got, ProgressAt(&four, start, start.Add(at*time.Second)).Path)
	}
	if want := []string{"baseline", PathClientSidecarOnly, PathServerSidecarOnly, "dapr"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("a four-path run's progress %v, want the load tester's order %v", got, want)
	}
}
