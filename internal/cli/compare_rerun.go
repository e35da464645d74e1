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

package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// DefaultRerunSpread is the between-run spread compare assumes unless told: the relative
// standard deviation of the added-latency percentiles over six unchanged reruns of the
// published scenario (make bench-rerun, 2-vCPU Intel Xeon, the local one-node cluster,
// 2026-11-25: 3% at p50, p90 and p99; docs/measurement.md). A run's own interval covers only
// its repetitions; this is what moves between runs on top of it.
const DefaultRerunSpread = 0.03

// rerunSpread is --rerun-spread: a percentage of a figure's value.
type rerunSpread struct {
	fraction float64
	text     string
}

func (r *rerunSpread) String() string { return r.text }
func (r *rerunSpread) Type() string   { return "percent" }

// Set parses 3% or 0; refused before any connection is made.
func (r *rerunSpread) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || v < 0 || v > 100 || math.IsNaN(v) || (v != 0 && !strings.HasSuffix(s, "%")) {
		return fmt.Errorf("%q: a percentage from 0%% to 100%% (3%%), or 0 for each run's own interval alone", s)
	}
	*r = rerunSpread{fraction: v / 100, text: s}
	return nil
}

// coveringRerun widens one run's 95% interval of a figure v by a between-run standard
// deviation of spread × v: each half-width becomes the root sum of squares of its own and
// 1.96 of that deviation. The measured spread already holds some within-run noise, so the
// widened interval errs wide, not narrow.
func coveringRerun(v, lo, hi time.Duration, spread float64) (time.Duration, time.Duration) {
	between := 1.96 * spread * math.Abs(float64(v))
	widen := func(half time.Duration) time.Duration {
		return time.Duration(math.Sqrt(float64(half)*float64(half) + between*between))
	}
	return v - widen(v-lo), v + widen(hi-v)
}

// rerunNote says what the confidence intervals of a comparison cover (the added latency's,
// and a delivery's, completion's or lateness's own).
func rerunNote(spread float64) string {
	if spread == 0 {
		return "95% intervals (added latency, delivery, completion, lateness): each run's own repetitions only (--rerun-spread 0); an unchanged rerun can fall outside them"
	}
	return fmt.Sprintf("95%% intervals (added latency, delivery, completion, lateness) cover a rerun: each run's own interval widened by a between-run spread of %s%% "+
		"(--rerun-spread; measure your cluster's with make bench-rerun)", strconv.FormatFloat(spread*100, 'f', -1, 64))
}
