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

// Package pubsub is the PubSub scenario: messages published through the load tester's daprd
// and delivered back to its subscriber, each timed from its scheduled publish to its
// delivery, against the same Redis streams used directly. What it supports (its admission
// rules) is its entry of api/v1alpha1's ScenarioCapabilities.
package pubsub

import (
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

func init() {
	workload.RegisterSide(perfv1alpha1.ScenarioPubSub, side{})
	preflight.Register(perfv1alpha1.ScenarioPubSub, check{})
}
