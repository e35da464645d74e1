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

package all

import (
	"testing"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Every scenario admission admits has a folder registered here: its operator side and its
// preflight.
func TestEveryScenarioIsRegistered(t *testing.T) {
	if missing := Unregistered(); len(missing) > 0 {
		t.Errorf("Unregistered() = %v, want none", missing)
	}
	for _, c := range perfv1alpha1.ScenarioCapabilities {
		if !workload.Registered(c.Scenario) {
			t.Errorf("scenario %s has no operator side: register one from its folder and import the folder here", c.Scenario)
		}
		if _, ok := preflight.Of(c.Scenario); !ok {
			t.Errorf("scenario %s has no preflight: register one (preflight.None when it checks nothing)", c.Scenario)
		}
	}
	if workload.Registered("Bindings") {
		t.Error("a scenario with no folder is registered")
	}
}
