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

package report

import (
	"fmt"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// variantsOf maps every sidecar variant's figures, when the run compares variants: its
// latency, what it adds over the baseline, and its difference from the first variant with
// the figures where that difference is beyond noise.
func variantsOf(run *perfv1alpha1.PerfRun, sum *result.Summary) []perfv1alpha1.VariantResult {
	var out []perfv1alpha1.VariantResult
	for i, v := range run.Spec.Variants {
		code := result.DaprVariant(i)
		vr := perfv1alpha1.VariantResult{Name: v.Name}
		if m, ok := repetitions.Of(sum, code); ok {
			vr.ActualQPS, vr.Requests, vr.Errors = formatQPS(m.ActualQPS), m.Requests, m.Errors
		}
		if m, ok := sum.MergedOf(code); ok {
			vr.Latency = summarize(m)
		}
		added := sum.Added
		if i > 0 {
			added, _ = sum.Comparison(code, result.Baseline)
		}
		if added != nil {
			vr.Added, vr.AddedInterval = addedOf(added)
		}
		if d, ok := sum.Comparison(code, result.Dapr); ok && i > 0 {
			vr.Difference, vr.DifferenceInterval = addedOf(d)
			vr.BeyondNoise = beyondNoise(d)
		}
		out = append(out, vr)
	}
	return out
}

// beyondNoise names the figures whose interval excludes zero, in either direction.
func beyondNoise(a *result.Added) []string {
	var out []string
	for _, p := range a.Percentiles {
		if p.LowUs > 0 || p.HighUs < 0 {
			out = append(out, "p"+strings.TrimSuffix(fmt.Sprint(p.P), ".0"))
		}
	}
	if a.Avg.LowUs > 0 || a.Avg.HighUs < 0 {
		out = append(out, "avg")
	}
	return out
}

// VariantsHeadline is the Succeeded message's sentence on variants: each further variant's
// p90 difference from the first, and whether it is beyond noise.
func VariantsHeadline(res *perfv1alpha1.Result) string {
	if res == nil || len(res.Variants) < 2 {
		return ""
	}
	var parts []string
	for _, v := range res.Variants[1:] {
		if v.Difference == nil || v.Difference.P90 == nil {
			continue
		}
		verdict := "within noise"
		if len(v.BeyondNoise) > 0 {
			verdict = "beyond noise at " + strings.Join(v.BeyondNoise, ", ")
		}
		parts = append(parts, fmt.Sprintf("%s − %s p90 %s (%s)", v.Name, res.Variants[0].Name, str(v.Difference.P90), verdict))
	}
	msg := strings.Join(parts, "; ")
	if in := res.Variants[len(res.Variants)-1].DifferenceInterval; msg != "" && in != nil && in.Basis == perfv1alpha1.IntervalWithinRunOnly {
		// One repetition: each variant ran once, at its own time; the interval knows the
		// requests' scatter but not what changed between the runs.
		msg += " — one repetition: the intervals hold the requests' scatter, not drift between runs; judge with load.repetitions ≥ 3"
	}
	return msg
}
