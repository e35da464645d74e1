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

// Package state is the State scenario: daprd's state API (Get, Save, Delete, the bulk
// operations and transactions) on Redis the run deploys or the namespace's own Component,
// against the same Redis called directly. What it supports (its admission rules) is its
// entry of api/v1alpha1's ScenarioCapabilities.
package state

import (
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

func init() {
	workload.RegisterSide(perfv1alpha1.ScenarioState, side{})
	preflight.Register(perfv1alpha1.ScenarioState, check{})
}
