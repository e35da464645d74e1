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
	"fmt"
	"strings"
)

// Describe is the record in one line, as reports and compare show it: "appconfig
// (generation 3): tracing 0.5; middleware ratelimit (middleware.http.ratelimit); features
// SchedulerReminders; API allowlist".
func (c DaprConfigurationRecord) Describe() string {
	who := fmt.Sprintf("generation %d", c.Generation)
	if c.OwnedByRun {
		who = "the run's own"
	}
	rate := c.TracingSamplingRate
	if rate == "" {
		rate = "unset (none sampled)"
	}
	parts := []string{"tracing " + rate}
	if len(c.Middleware) > 0 {
		parts = append(parts, "middleware "+strings.Join(c.Middleware, ", "))
	}
	if len(c.Features) > 0 {
		parts = append(parts, "features "+strings.Join(c.Features, ", "))
	}
	if c.APIAllowlist {
		parts = append(parts, "API allowlist")
	}
	return fmt.Sprintf("%s (%s): %s", c.Name, who, strings.Join(parts, "; "))
}

// NamedConfiguration is the record of the Configuration the run named for all its
// sidecars (spec.dapr.configuration); nil when it wrote its own.
func (e *Environment) NamedConfiguration() *DaprConfigurationRecord {
	if e == nil || len(e.DaprConfigurations) == 0 || e.DaprConfigurations[0].OwnedByRun {
		return nil
	}
	return &e.DaprConfigurations[0]
}

// Describe is the record in one line, as reports show it: "retries (generation 2): scoped
// to run-target; targets app run-target, component statestore"; "unscoped" when it applies
// to every app in the namespace. The record that stands for those past the status's bound
// ("… and 3 more") is its name alone.
func (r DaprResiliencyRecord) Describe() string { return r.describe("") }

// describe writes each scope without the prefix "<run>-" when run is set.
func (r DaprResiliencyRecord) describe(run string) string {
	if r.Generation == 0 {
		return r.Name // not an object: the count of those left out
	}
	scope := "unscoped"
	if len(r.Scopes) > 0 {
		scopes := make([]string, len(r.Scopes))
		for i, s := range r.Scopes {
			scopes[i] = s
			if run != "" {
				scopes[i] = "the run's " + strings.TrimPrefix(s, run+"-")
			}
		}
		scope = "scoped to " + strings.Join(scopes, ", ")
	}
	targets := "no targets"
	if len(r.Targets) > 0 {
		targets = "targets " + strings.Join(r.Targets, ", ")
	}
	return fmt.Sprintf("%s (generation %d): %s; %s", r.Name, r.Generation, scope, targets)
}

// DescribeResiliencies is every record's Describe, "; "-joined; "none" without one. With run
// (the run's name) set, a scope reads "the run's target" rather than "<run>-target": two runs
// under one Resiliency scoped to both read alike, as compare needs.
func (e *Environment) DescribeResiliencies(run string) string {
	if e == nil || len(e.DaprResiliencies) == 0 {
		return "none"
	}
	parts := make([]string, len(e.DaprResiliencies))
	for i, r := range e.DaprResiliencies {
		parts[i] = r.describe(run)
	}
	return strings.Join(parts, "; ")
}
