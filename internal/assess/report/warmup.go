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
	"slices"
	"strings"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// The warm-up runs every path at the measured rate before the first repetition. Whether it
// warmed enough shows in the first repetition against the rest: a path still cold (caches,
// connection pools, the Go runtime's heap sizing, daprd's first mTLS handshakes) is slower
// in its first repetition than in all later ones.

// coldMargin is how far above every later repetition's p50 the first's must lie, as a share
// of their median, beyond their own spread, to be called cold: less is the repetitions'
// ordinary drift.
const coldMargin = 0.10

// minRepsToJudgeWarmup is the fewest repetitions from which the first is judged: with two
// there is no spread of the later ones to judge it against.
const minRepsToJudgeWarmup = 3

// firstRepetitions shows, for the measured path and the baseline, the first repetition's
// p50 beside the range of the later ones', and flags it cold when it lies above all of them
// by more than their spread and coldMargin of their median. Nil with one repetition, or
// when the runs' own percentiles were dropped to fit the summary.
func firstRepetitions(run *perfv1alpha1.PerfRun, sum *result.Summary) []perfv1alpha1.FirstRepetition {
	var out []perfv1alpha1.FirstRepetition
	for _, v := range []result.Variant{MeasuredVariant(run), result.Baseline} {
		var p50s []time.Duration
		for _, r := range sum.Runs {
			if r.Variant != v {
				continue
			}
			p, ok := r.Latency(50)
			if !ok {
				return nil
			}
			p50s = append(p50s, p)
		}
		if len(p50s) < 2 {
			continue
		}
		later := p50s[1:]
		lo, hi := slices.Min(later), slices.Max(later)
		first := perfv1alpha1.FirstRepetition{Path: PathName(run, v), P50: *duration(p50s[0]), LaterP50Min: *duration(lo), LaterP50Max: *duration(hi)}
		margin := hi - lo + time.Duration(coldMargin*float64(repetitions.Median(later)))
		first.Cold = len(p50s) >= minRepsToJudgeWarmup && p50s[0] > hi+margin
		out = append(out, first)
	}
	return out
}

// WarmupMessage says which paths' first repetition was still cold; empty when none was.
func WarmupMessage(res *perfv1alpha1.Result) string {
	var cold []string
	for _, f := range res.FirstRepetitions {
		if f.Cold {
			cold = append(cold, fmt.Sprintf("%s p50 %s against %s–%s in the later ones", f.Path, f.P50.Duration, f.LaterP50Min.Duration, f.LaterP50Max.Duration))
		}
	}
	if len(cold) == 0 {
		return ""
	}
	return "the first repetition was still cold (" + strings.Join(cold, "; ") + "): a longer spec.load.warmup would warm it"
}
