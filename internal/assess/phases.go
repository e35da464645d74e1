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

package assess

import (
	"fmt"
	"slices"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// PhaseEdge is dropped at both ends of every measured run before a metrics window or a
// counter reading may count for it: the load ramps up and drains there, and the run's start
// is known to the second.
const PhaseEdge = 2 * time.Second

// Phases is the summary's timeline: one phase per measured run (two for a run measured in
// halves), in order. Runs whose start was dropped to fit the termination message have none.
func Phases(sum *result.Summary) []accounting.Phase {
	if sum == nil {
		return nil
	}
	var phases []accounting.Phase
	for _, run := range sum.Runs {
		if run.StartUnix == 0 || run.Seconds <= 0 {
			continue
		}
		length := time.Duration(run.Seconds * float64(time.Second))
		starts := []int64{run.StartUnix}
		if run.SecondHalfUnix > 0 { // measured in two halves, with other paths between them
			starts, length = append(starts, run.SecondHalfUnix), length/2
		}
		for _, s := range starts {
			start := time.Unix(s, 0)
			phases = append(phases, accounting.Phase{Variant: string(run.Variant), Start: start, End: start.Add(length)})
		}
	}
	slices.SortFunc(phases, func(a, b accounting.Phase) int { return a.Start.Compare(b.Start) })
	return phases
}

func describePhases(phases []accounting.Phase) string {
	if len(phases) == 0 {
		return "the load tester's summary has no timeline"
	}
	return fmt.Sprintf("%d runs of %v", len(phases), phases[0].End.Sub(phases[0].Start).Round(time.Second))
}

// MissingPaths says what of the spec's measurements a summary lacks: a path, or a
// repetition of one (a result without its baseline is not the result asked for). Empty: none.
func MissingPaths(run *perfv1alpha1.PerfRun, sum *result.Summary) string {
	if len(sum.Runs) == 0 {
		return "it measured nothing"
	}
	reps := int(max(run.Spec.Load.Repetitions, 1))
	for _, v := range measuredPaths(&run.Spec) {
		m, ok := repetitions.Of(sum, v)
		if !ok || m.Reps < reps {
			return fmt.Sprintf("it holds %d of the %d repetitions of the %s path the spec asks for", m.Reps, reps, v)
		}
	}
	return ""
}

// measuredPaths are the paths one repetition of spec measures, in the load tester's order.
func measuredPaths(s *perfv1alpha1.PerfRunSpec) []result.Variant {
	return result.MeasuredPaths(result.PathSet{Dapr: s.DaprEnabled(), Baseline: s.BaselineEnabled(), FourPaths: s.FourPaths(),
		Variants: len(s.Variants)})
}
