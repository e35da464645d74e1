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

package latency

import (
	"slices"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// attribution splits what Dapr adds between the two sidecars by means (result.Attribution),
// from the repetitions that measured all four paths; nil when the run did not measure them.
func attribution(runs []result.Run, recs map[Key]*Recorded, percentiles []float64) *result.Attribution {
	var reps []int
	for _, r := range runs {
		if r.Variant != result.Dapr {
			continue
		}
		if !slices.ContainsFunc(result.AttributionPaths, func(v result.Variant) bool { return recs[Key{v, r.Rep}] == nil }) {
			reps = append(reps, r.Rep)
		}
	}
	slices.Sort(reps)
	reps = slices.Compact(reps)
	if len(reps) == 0 {
		return nil
	}
	// term is one path over the paired repetitions, weighted.
	term := func(v result.Variant, weight float64) Term {
		t := Term{Weight: weight}
		for _, rep := range reps {
			t.Reps = append(t.Reps, recs[Key{v, rep}])
		}
		return t
	}
	estimate := func(terms ...Term) (*result.Added, bool) {
		a, ok := EstimateContrast(terms, percentiles, DefaultResamples, DefaultConfidence)
		if !ok {
			return nil, false
		}
		return encoded(a), true
	}
	out := &result.Attribution{}
	for _, v := range result.AttributionPaths {
		own, ok := estimate(term(v, 1))
		if !ok {
			return nil
		}
		out.Paths = append(out.Paths, result.PathEstimate{Variant: v, Estimate: *own})
	}
	direct, client, server, both := result.Baseline, result.ClientOnly, result.ServerOnly, result.Dapr
	parts := []struct {
		into  *result.Added
		terms []Term
	}{
		{&out.Client, []Term{term(direct, -1), term(client, 1)}},
		{&out.Server, []Term{term(direct, -1), term(server, 1)}},
		{&out.Interaction, []Term{term(direct, 1), term(client, -1), term(server, -1), term(both, 1)}},
	}
	for _, p := range parts {
		a, ok := estimate(p.terms...)
		if !ok {
			return nil
		}
		*p.into = *a
	}
	// Only means decompose: the percentiles of a sum of two delays are not the sums of their
	// percentiles, so a percentile's "interaction" is not zero even for independent sidecars.
	// The interaction is kept at the mean alone; client and server keep their percentiles as
	// what is: each one-sidecar path's own latency over direct.
	out.Interaction.Percentiles = nil
	return out
}
