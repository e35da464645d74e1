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

// Package all registers every scenario: a binary or test that builds a run's workloads, or
// checks a cluster for one, imports it once. A scenario's folder is one line here.
package all

import (
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"

	// Configuration: daprd's configuration API against Redis read directly.
	_ "github.com/daprbench/daprbench/internal/scenario/configuration"
	// ActorActivation: a fresh actor activated on every request.
	_ "github.com/daprbench/daprbench/internal/scenario/actors"
	// PubSub: messages published and delivered through daprd, against Redis streams.
	_ "github.com/daprbench/daprbench/internal/scenario/pubsub"
	// Scheduler: jobs, actor reminders and actor timers.
	_ "github.com/daprbench/daprbench/internal/scenario/scheduler"
	// ServiceInvocation: a method invoked through two sidecars, against the app called directly.
	_ "github.com/daprbench/daprbench/internal/scenario/invocation"
	// State: daprd's state API against Redis called directly.
	_ "github.com/daprbench/daprbench/internal/scenario/state"
	// Workflow: workflow instances of a pattern, hosted by the load tester.
	_ "github.com/daprbench/daprbench/internal/scenario/workflow"
)

// Unregistered are the scenarios admission admits with no operator side or no preflight
// registered: each is a folder missing its line above. A binary that builds runs refuses to
// start with any, rather than refuse those runs one by one.
func Unregistered() []perfv1alpha1.Scenario {
	var missing []perfv1alpha1.Scenario
	for _, c := range perfv1alpha1.ScenarioCapabilities {
		if _, ok := preflight.Of(c.Scenario); !workload.Registered(c.Scenario) || !ok {
			missing = append(missing, c.Scenario)
		}
	}
	return missing
}
