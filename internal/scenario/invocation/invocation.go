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

// Package invocation is the ServiceInvocation scenario: the load tester's daprd invoking a
// method of the target app through the target's daprd (one target per sidecar variant),
// against the app called directly, and optionally the four paths that split what each
// sidecar adds. Its four-path check runs as a step of its own; its preflight has nothing more
// to check. What it supports (its admission rules) is its entry of api/v1alpha1's
// ScenarioCapabilities.
package invocation

import (
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

func init() {
	workload.RegisterSide(perfv1alpha1.ScenarioServiceInvocation, side{})
	preflight.Register(perfv1alpha1.ScenarioServiceInvocation, preflight.None{})
}
