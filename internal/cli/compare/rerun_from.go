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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/document"
)

// minSpreadRuns is the fewest unchanged runs a rerun spread is measured from.
const minSpreadRuns = 3

// madEfficiency is the median absolute deviation's efficiency against the standard
// deviation for normal data (~0.37): a robust spread from n runs knows the spread about as
// well as a plain SD from 0.37·(n−1) degrees of freedom, so its t is taken for those.
const madEfficiency = 0.37

// SpreadFromRuns measures the rerun spread from a schedule's runs, oldest first: those of
// its newest template that succeeded undisturbed — not Regressed, Disturbed, Saturated,
// limit-bound or marginally throttled — since the last change of level of each percentile (E-divisive means, as
// the regression judge finds it), their robust relative SD (1.4826 × MAD over the median)
// of the scenario's headline, and the degrees of freedom that spread is worth.
func SpreadFromRuns(label string, runs []document.Run) (RerunSpread, error) {
	unchanged := unchangedRuns(runs)
	out := RerunSpread{ByPercentile: map[string]float64{}}
	fewest := math.MaxInt
	for _, p := range perfv1alpha1.HeadlinePercentiles {
		var series []float64
		for _, r := range unchanged {
			if d := p.Of(headlineOf(r.Result())); d != nil && d.Duration > 0 {
				series = append(series, float64(d.Duration))
			}
		}
		if cps := regression.LevelChanges(series); len(cps) > 0 {
			series = series[cps[len(cps)-1]:]
		}
		if len(series) < minSpreadRuns {
			return RerunSpread{}, fmt.Errorf("%s: %d unchanged runs of its newest template with a %s since its last change of level; a rerun spread needs %d "+
				"(succeeded, not Regressed, Disturbed, Saturated or limit-bound)", label, len(series), p.Name, minSpreadRuns)
		}
		out.ByPercentile[p.Name] = robustRelativeSD(series)
		fewest = min(fewest, len(series))
	}
	out.All = out.ByPercentile[perfv1alpha1.FigureP90.Name]
	out.DF = max(1, int(math.Round(madEfficiency*float64(fewest-1))))
	out.From = fmt.Sprintf("measured: %s, %d or more unchanged runs of its newest template since its last change of level, 1.4826 × MAD", label, fewest)
	return out, nil
}

// unchangedRuns are the runs of the newest template that succeeded with nothing found
// disturbing or bounding them.
func unchangedRuns(runs []document.Run) []document.Run {
	if len(runs) == 0 {
		return nil
	}
	template := runs[len(runs)-1].Annotations[perfv1alpha1.AnnotationTemplateHash]
	var out []document.Run
	for _, r := range runs {
		res := r.Result()
		if res == nil || r.Status.Phase != perfv1alpha1.PhaseSucceeded || r.Annotations[perfv1alpha1.AnnotationTemplateHash] != template ||
			res.LimitBound || len(res.Saturated) > 0 {
			continue
		}
		if r.ConditionTrue(perfv1alpha1.ConditionRegressed) || r.ConditionTrue(perfv1alpha1.ConditionDisturbed) || marginallyThrottled(r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// marginallyThrottled reports whether a run's CPU limit may have bound it (CPULimitBound
// Unknown, ThrottledMarginal): a rerun of it may read bound, so it is no unchanged rerun.
func marginallyThrottled(r document.Run) bool {
	for _, c := range r.Status.Conditions {
		if c.Type == perfv1alpha1.ConditionCPULimitBound && c.Reason == perfv1alpha1.ReasonThrottledMarginal {
			return true
		}
	}
	return false
}

// headlineOf is the latency a run's comparison turns on: its outcome's added latency (PubSub's
// delivery against its broker's client), else its call's added latency, else for a scenario
// whose call is not the whole story its outcome's own latency, else the call's.
func headlineOf(res *perfv1alpha1.Result) *perfv1alpha1.LatencySummary {
	if res == nil {
		return nil
	}
	o := res.Outcome()
	switch {
	case o != nil && o.Added != nil:
		return o.Added
	case res.Added != nil:
		return res.Added
	case o != nil && o.Latency != nil:
		return o.Latency
	}
	return res.Latency
}

// robustRelativeSD is 1.4826 × the median absolute deviation over the median (the SD for
// normal data, unmoved by one wild run); the plain SD where the MAD is zero.
func robustRelativeSD(xs []float64) float64 {
	med := repetitions.Median(xs)
	if med == 0 {
		return 0
	}
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - med)
	}
	mad := repetitions.Median(dev)
	if mad > 0 {
		return 1.4826 * mad / med
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return math.Sqrt(sq/float64(len(xs)-1)) / med
}
