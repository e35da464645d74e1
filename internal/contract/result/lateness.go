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

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// LatenessFloor is the least LatenessLimit is. On the 2-vCPU machines this project runs on,
// the paced load tester reached 0.43–0.89 ms at p99 in every run measured (loopback, the
// demo at 1000 rps, the e2e suite at 200 and 500 rps, each node also carrying both daprds,
// the app and Dapr's control plane), fortio's own Go-timer sleeps 1.37–2.54 ms
// (docs/measurement.md). 1.5 ms keeps two-thirds of headroom over the paced tester on such a
// node and sits inside the unpaced range: past it, the tester was short of CPU (or paced on
// Go's timers), not merely at its clock's resolution.
const LatenessFloor = 1500 * time.Microsecond

// LatenessShare is the share of the baseline's p50 the tester's lateness may reach at p99.
const LatenessShare = 0.10

// LatenessLimit is the most the load tester's own lateness may reach at p99, in any
// repetition of any path, for the run to claim an added latency: a tenth of the baseline's
// p50, never below LatenessFloor. Latency is timed from the scheduled send with nothing
// taken off, so a late tester's delay is in every figure; beyond the limit it is too large
// a share of what is measured, and no correction is made — the run says so instead.
func LatenessLimit(baselineP50 time.Duration) time.Duration {
	return max(time.Duration(LatenessShare*float64(baselineP50)), LatenessFloor)
}

// LatePath is a path whose load tester was later than the limit at p99 in some repetition.
type LatePath struct {
	Variant Variant
	// TesterLagP99 is the path's highest repetition p99 of the tester's own lateness.
	TesterLagP99 time.Duration
}

// LateTester returns the lateness limit of the run and the paths whose tester's own
// lateness passed it at p99 in some repetition; no limit (0) without a baseline p50.
func (s *Summary) LateTester() (limit time.Duration, late []LatePath) {
	b, ok := s.MergedOf(Baseline)
	if !ok {
		return 0, nil
	}
	p50, ok := b.Latency(50)
	if !ok {
		return 0, nil
	}
	limit = LatenessLimit(p50)
	for _, r := range s.Runs {
		lag := time.Duration(r.TesterLagP99Us) * time.Microsecond
		if lag <= limit {
			continue
		}
		i := slices.IndexFunc(late, func(l LatePath) bool { return l.Variant == r.Variant })
		if i < 0 {
			late = append(late, LatePath{Variant: r.Variant, TesterLagP99: lag})
		} else {
			late[i].TesterLagP99 = max(late[i].TesterLagP99, lag)
		}
	}
	return limit, late
}

// LatenessMessage says why a run claims no added latency when its tester was late; name
// turns a variant into the path's name as the reader knows it.
func LatenessMessage(limit time.Duration, late []LatePath, name func(Variant) string) string {
	if len(late) == 0 {
		return ""
	}
	var parts []string
	for _, l := range late {
		parts = append(parts, fmt.Sprintf("%s path p99 %v", name(l.Variant), l.TesterLagP99.Round(time.Microsecond)))
	}
	return fmt.Sprintf("the load tester's own lateness passed its limit of %v (a tenth of the baseline's p50, at least %v): %s — "+
		"latency is timed from the scheduled send with nothing taken off, so no added latency is claimed; "+
		"give the load tester more CPU (spec.loadTester.resources) or a node of its own",
		limit.Round(time.Microsecond), LatenessFloor, strings.Join(parts, ", "))
}
