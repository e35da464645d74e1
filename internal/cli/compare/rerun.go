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

package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// RerunSpread is how far unchanged reruns move a figure on top of each run's own interval:
// the relative standard deviation between runs at each headline percentile, the degrees of
// freedom of that estimate (its t multiplier: few reruns know the spread poorly), and where
// it comes from. A run's own interval covers its repetitions, not a rerun: most of what moves
// between runs — new pods, a new heap, another minute on the node — is shared by every
// repetition of a run, and more repetitions cannot see it.
type RerunSpread struct {
	// ByPercentile is the relative SD at p50, p90, p99 (fractions); a percentile missing
	// takes All.
	ByPercentile map[string]float64
	All          float64
	// DF is the degrees of freedom of the estimate; 0 takes it as known (z, 1.96).
	DF int
	// From says what the spread is, for the comparison's note.
	From string
	// Assumed is true when nothing measured the spread for these runs.
	Assumed bool
}

// fraction is the relative SD at percentile p ("p50").
func (s RerunSpread) fraction(p string) float64 {
	if f, ok := s.ByPercentile[p]; ok {
		return f
	}
	return s.All
}

// multiplier is the two-sided 95% quantile the spread is scaled by: t with the estimate's
// degrees of freedom, the normal's when it is taken as known.
func (s RerunSpread) multiplier() float64 {
	if s.DF <= 0 {
		return 1.96
	}
	return stats.StudentT(0.975, s.DF)
}

// none is true when the spread widens nothing: each run's own interval alone.
func (s RerunSpread) none() bool {
	if s.All != 0 {
		return false
	}
	for _, f := range s.ByPercentile {
		if f != 0 {
			return false
		}
	}
	return true
}

// KnownRerunSpread is one relative SD at every percentile, taken as known (1.96).
func KnownRerunSpread(fraction float64) RerunSpread {
	return RerunSpread{All: fraction, From: "--rerun-spread " + strconv.FormatFloat(fraction*100, 'f', -1, 64) + "%"}
}

// assumedRerunSpreads are the project's own unchanged reruns, by scenario (docs/results.md):
// what compare assumes when the user measured nothing. Measured on one node each, at one
// setting; another cluster's may be wider or narrower, and the note says so.
var assumedRerunSpreads = map[perfv1alpha1.Scenario]RerunSpread{
	// Eight runs of the published setting, 20 s repetitions, AMD EPYC, 2026-11-27: the robust
	// spread at each percentile, with its 0.37 × 7 degrees of freedom. The wider of the two
	// nodes measured (six runs on an Intel Xeon moved 3%): a default that does not cry wolf
	// on either, where a measured spread (--rerun-spread-from) is the sharper tool.
	perfv1alpha1.ScenarioServiceInvocation: {ByPercentile: map[string]float64{"p50": 0.073, "p90": 0.078, "p99": 0.123}, All: 0.078, DF: 3,
		From: "invocation's: 8 reruns of the published setting on one AMD EPYC node"},
	// Eight runs of the State suite, 20 s repetitions, AMD EPYC, 2026-11-27 (docs/results.md):
	// the robust spread at each percentile, with its 0.37 × 7 degrees of freedom.
	perfv1alpha1.ScenarioState: {ByPercentile: map[string]float64{"p50": 0.064, "p90": 0.087, "p99": 0.163}, All: 0.087, DF: 3,
		From: "State's: 8 reruns of the State suite on one AMD EPYC node"},
	// Three undisturbed runs of the PubSub suite, 10 s repetitions, AMD EPYC, 2026-11-26.
	perfv1alpha1.ScenarioPubSub: {ByPercentile: map[string]float64{"p50": 0.048, "p90": 0.049, "p99": 0.11}, All: 0.049, DF: 2,
		From: "PubSub's: 3 reruns of the PubSub suite on one AMD EPYC node"},
	// Four runs of the Chain sample, 10 s repetitions, AMD EPYC, 2026-11-26.
	perfv1alpha1.ScenarioWorkflow: {ByPercentile: map[string]float64{"p50": 0.19, "p90": 0.34, "p99": 0.38}, All: 0.34, DF: 3,
		From: "Workflow's: 4 reruns of the Chain sample on one AMD EPYC node"},
}

// DefaultRerunSpread is what compare assumes for two runs of scenario when neither
// --rerun-spread nor --rerun-spread-from is given: the project's own reruns of that
// scenario, or of invocation where none were measured.
func DefaultRerunSpread(scenario perfv1alpha1.Scenario) RerunSpread {
	s, ok := assumedRerunSpreads[scenario]
	if !ok {
		s = assumedRerunSpreads[perfv1alpha1.ScenarioServiceInvocation]
		s.From = fmt.Sprintf("invocation's, for want of %s reruns: 8 reruns of the published setting on one AMD EPYC node", scenario)
	}
	s.Assumed = true
	return s
}

// RerunSpreadFlag is --rerun-spread: a percentage of a figure's value.
type RerunSpreadFlag struct {
	set      bool
	fraction float64
	text     string
}

// AssumedRerunSpread is --rerun-spread's default: the scenario's spread, assumed.
func AssumedRerunSpread() RerunSpreadFlag { return RerunSpreadFlag{text: "the scenario's, assumed"} }

func (r *RerunSpreadFlag) String() string { return r.text }
func (r *RerunSpreadFlag) Type() string   { return "percent" }

// Given is the spread the flag gives, a fraction of a figure's value, and whether it was set.
func (r *RerunSpreadFlag) Given() (fraction float64, ok bool) { return r.fraction, r.set }

// Set parses 3% or 0; refused before any connection is made.
func (r *RerunSpreadFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || v < 0 || v > 100 || math.IsNaN(v) || (v != 0 && !strings.HasSuffix(s, "%")) {
		return fmt.Errorf("%q: a percentage from 0%% to 100%% (3%%), or 0 for each run's own interval alone", s)
	}
	*r = RerunSpreadFlag{set: true, fraction: v / 100, text: s}
	return nil
}

// coveringRerun widens one run's 95% interval of a figure v by a between-run standard
// deviation of spread × v: each half-width becomes the root sum of squares of its own and
// multiplier of that deviation. The measured spread already holds some within-run noise,
// so the widened interval errs wide, not narrow.
func coveringRerun(v, lo, hi time.Duration, spread, multiplier float64) (time.Duration, time.Duration) {
	between := multiplier * spread * math.Abs(float64(v))
	widen := func(half time.Duration) time.Duration {
		return time.Duration(math.Sqrt(float64(half)*float64(half) + between*between))
	}
	return v - widen(v-lo), v + widen(hi-v)
}

// RerunNote says what the confidence intervals of a comparison cover (the added latency's,
// and a delivery's, completion's or lateness's own), and from what.
func RerunNote(s RerunSpread) string {
	if s.none() {
		return "95% intervals (added latency, delivery, completion, lateness): each run's own repetitions only (--rerun-spread 0); an unchanged rerun can fall outside them"
	}
	multiplier := "1.96, the spread taken as known"
	if s.DF > 0 {
		multiplier = fmt.Sprintf("t = %.2f for its %d degrees of freedom", s.multiplier(), s.DF)
	}
	note := fmt.Sprintf("95%% intervals (added latency, delivery, completion, lateness) cover a rerun: each run's own interval widened by a between-run spread of %s (%s; %s); "+
		"so two runs differ beyond noise from at least %s (√2 × t × spread, before each run's own interval)",
		spreadText(s), s.From, multiplier, smallestChangeText(s))
	if s.Assumed {
		note += "; this cluster's rerun spread is unknown, so that is assumed: measure it with --rerun-spread-from perfschedule/NAME, or give it with --rerun-spread"
	}
	return note
}

// spreadText is the spread at each percentile: "3%", or "p50 19%, p90 34%, p99 38%".
func spreadText(s RerunSpread) string {
	return perPercentile(s, func(f float64) string { return strconv.FormatFloat(100*f, 'f', -1, 64) + "%" })
}

// smallestChangeText is the smallest change two runs tell from the spread alone at each
// percentile: their difference's SD is √2 × spread, scaled by the spread's multiplier.
func smallestChangeText(s RerunSpread) string {
	return perPercentile(s, func(f float64) string { return fmt.Sprintf("%.0f%%", 100*math.Sqrt2*s.multiplier()*f) })
}

// perPercentile is text(fraction) once when the spread is one at every percentile, or per
// headline percentile.
func perPercentile(s RerunSpread, text func(float64) string) string {
	if len(s.ByPercentile) == 0 {
		return text(s.All)
	}
	var parts []string
	for _, p := range perfv1alpha1.HeadlinePercentiles {
		parts = append(parts, p.Name+" "+text(s.fraction(p.Name)))
	}
	return strings.Join(parts, ", ")
}
