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

package configuration

import (
	"context"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/preflight"
)

// check is Configuration's preflight: the store is the run's own, guarded by the run's
// NetworkPolicy and password; it records the store in status.environment.
type check struct{}

var store = preflight.RedisBacked{Scenario: "Configuration", What: "configuration store", TypePrefix: "configuration.", RedisType: "configuration.redis"}

func (check) Refusal(ctx context.Context, c preflight.Cluster, run *perfv1alpha1.PerfRun) (reason, msg string, err error) {
	return store.Refusal(ctx, c, run, ComponentName(run), false)
}
