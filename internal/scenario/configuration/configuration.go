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

// Package configuration is the Configuration scenario: daprd's configuration API reading
// items of a Redis configuration store the run deploys, against the same Redis read
// directly. It is the smallest scenario on the registry: a side, a preflight, this init
// and the load tester's path family (loadgen/configuration.go). What it supports (its
// admission rules) is its entry of api/v1alpha1's ScenarioCapabilities.
package configuration

import (
	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

func init() {
	workload.RegisterSide(perfv1alpha1.ScenarioConfiguration, side{})
	preflight.Register(perfv1alpha1.ScenarioConfiguration, check{})
}
