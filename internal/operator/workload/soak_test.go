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
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	. "github.com/daprbench/daprbench/internal/operator/workload"
)

// A soak through Dapr without a baseline still reads the target's daprd (its gauges and CPU
// counter) on the target pod's address, which the operator then looks up; a short run, one
// that kills its target, or a State run (no target app) does not.
func TestASoakReadsTheTargetsDaprdOnItsAddress(t *testing.T) {
	soak := func(s *perfv1alpha1.PerfRunSpec) {
		s.Load.Duration = &metav1.Duration{Duration: 12 * time.Minute}
		s.Load.Repetitions = 1
		s.Baseline = ptr.To(false)
	}
	for _, scenario := range []perfv1alpha1.Scenario{perfv1alpha1.ScenarioServiceInvocation, perfv1alpha1.ScenarioActorActivation} {
		run := newRun(scenario, soak)
		if !NeedsTargetIP(run) {
			t.Errorf("a %s soak does not look up the target's address", scenario)
		}
		if env := envMap(LoadTesterEnv(run, "10.244.0.7")); env[ls.Env(ls.DaprdMetricsServerURL)] != "http://10.244.0.7:9090/metrics" {
			t.Errorf("a %s soak reads the target's daprd at %q", scenario, env[ls.Env(ls.DaprdMetricsServerURL)])
		}
	}
	short := newRun(perfv1alpha1.ScenarioServiceInvocation, soak, func(s *perfv1alpha1.PerfRunSpec) { s.Load.Duration = &metav1.Duration{Duration: 9 * time.Minute} })
	killed := newRun(perfv1alpha1.ScenarioServiceInvocation, soak, func(s *perfv1alpha1.PerfRunSpec) {
		s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
			At: metav1.Duration{Duration: time.Minute}, Duration: metav1.Duration{Duration: 20 * time.Second}}}
	})
	for name, run := range map[string]*perfv1alpha1.PerfRun{"a 9-minute run": short, "a soak that kills its target": killed} {
		if SoakedTarget(run) {
			t.Errorf("%s reads the target's gauges", name)
		}
	}
	if NeedsTargetIP(short) {
		t.Error("a 9-minute run without a baseline looks up the target's address")
	}
}
