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

package result

// PathSet is what a run measures, in the terms its order needs.
type PathSet struct {
	// Dapr: the run goes through sidecars; without, it measures the direct path alone.
	Dapr bool
	// Baseline: the sidecar-free twin is measured too.
	Baseline bool
	// FourPaths: the one-sidecar paths (client only, server only) are measured too.
	FourPaths bool
	// Variants is the number of sidecar setups (spec.variants; 0 or 1: the run's own).
	Variants int
}

// MeasuredPaths is the one order in which a repetition measures a run's paths: the
// baseline first, then a four-path run's one-sidecar paths (client, then server), then
// the sidecar variants in spec order — or the direct path alone without Dapr.
// loadsettings.PhaseOrder counterbalances this order over the repetitions. The API's
// progress and load time, the operator's load-tester settings, the load tester and the
// assessment all take it from here; admission's CEL repeats only its count, which a table
// test holds to len(MeasuredPaths).
func MeasuredPaths(p PathSet) []Variant {
	if !p.Dapr {
		return []Variant{Direct}
	}
	var out []Variant
	if p.Baseline {
		out = append(out, Baseline)
	}
	if p.FourPaths {
		out = append(out, ClientOnly, ServerOnly)
	}
	for i := range max(p.Variants, 1) {
		out = append(out, DaprVariant(i))
	}
	return out
}
