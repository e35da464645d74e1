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

package v1alpha1

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func TestScenarioDependentDefaults(t *testing.T) {
	minute := &metav1.Duration{Duration: time.Minute}
	cases := []struct {
		name          string
		spec          PerfRunSpec
		baseline      bool
		randomBytes   int
		literal       *string
		loadTime      time.Duration
		timeout       time.Duration
		actorSettings ActorsSpec
	}{
		{
			name:     "invocation: baseline on, 1 KiB random body",
			spec:     PerfRunSpec{Scenario: ScenarioServiceInvocation},
			baseline: true, randomBytes: 1024,
			// three repetitions (the default) of two paths of 60 s
			loadTime: 10*time.Second + 6*time.Minute, timeout: 10*time.Second + 6*time.Minute + 5*time.Minute, actorSettings: ActorsSpec{Host: ActorHostMinimal, Method: "activate"},
		},
		{
			name:     "actors: no baseline, {} body",
			spec:     PerfRunSpec{Scenario: ScenarioActorActivation, Load: LoadSpec{Repetitions: 3, Duration: minute, Warmup: &metav1.Duration{}}},
			literal:  ptr.To("{}"),
			loadTime: 3 * time.Minute, timeout: 8 * time.Minute, actorSettings: ActorsSpec{Host: ActorHostMinimal, Method: "activate"},
		},
		{
			name: "Dapr off: no baseline; explicit payload, timeout and control plane",
			spec: PerfRunSpec{Scenario: ScenarioServiceInvocation, Dapr: DaprSpec{Enabled: ptr.To(false), ControlPlaneNamespace: "dapr"},
				Load: LoadSpec{PayloadBytes: ptr.To[int32](0)}, Timeout: &metav1.Duration{Duration: time.Hour}},
			randomBytes: 0, loadTime: 10*time.Second + 3*time.Minute, timeout: time.Hour, actorSettings: ActorsSpec{Host: ActorHostMinimal, Method: "activate"},
		},
		{
			name: "explicit baseline off, literal wins, actor overrides",
			spec: PerfRunSpec{Scenario: ScenarioServiceInvocation, Baseline: ptr.To(false), Load: LoadSpec{Payload: ptr.To("x")},
				Actors: &ActorsSpec{Method: "bump", StateStore: "redis"}},
			literal: ptr.To("x"), loadTime: 10*time.Second + 3*time.Minute, timeout: 10*time.Second + 3*time.Minute + 5*time.Minute, actorSettings: ActorsSpec{Host: ActorHostMinimal, Method: "bump", StateStore: "redis"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.spec
			if got := s.BaselineEnabled(); got != tc.baseline {
				t.Errorf("BaselineEnabled = %v", got)
			}
			n, literal := s.Body()
			if n != tc.randomBytes || (literal == nil) != (tc.literal == nil) || literal != nil && *literal != *tc.literal {
				t.Errorf("Body = %d, %v", n, literal)
			}
			if got := s.LoadTime(); got != tc.loadTime {
				t.Errorf("LoadTime = %v, want %v", got, tc.loadTime)
			}
			if got := s.EffectiveTimeout(); got != tc.timeout {
				t.Errorf("EffectiveTimeout = %v, want %v", got, tc.timeout)
			}
			if got := s.ActorSettings(); got != tc.actorSettings {
				t.Errorf("ActorSettings = %+v", got)
			}
		})
	}
}
