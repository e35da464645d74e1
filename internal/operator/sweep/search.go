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

package sweep

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/thresholds"
)

// Tried is a rate the search measured and whether it met the objective.
type Tried struct {
	QPS    int32
	Passed bool
}

// Bounds are the highest passing and lowest failing rates tried (0: none).
func Bounds(tried []Tried) (lastPassing, firstFailing int32) {
	for _, t := range tried {
		switch {
		case t.Passed && t.QPS > lastPassing:
			lastPassing = t.QPS
		case !t.Passed && (firstFailing == 0 || t.QPS < firstFailing):
			firstFailing = t.QPS
		}
	}
	return lastPassing, firstFailing
}

// NextRate returns the next rate to try, or done: doubling from startQPS while steps pass
// (halving while they fail), then bisecting between the last passing and the first failing
// rate until they are within precisionPercent of each other, maxQPS passes, 1 qps fails, or
// maxSteps runs were made.
func NextRate(s *perfv1alpha1.RateSearch, tried []Tried) (qps int32, done bool) {
	if len(tried) == 0 {
		return s.StartQPS, false
	}
	if int32(len(tried)) >= maxSteps(s) {
		return 0, true
	}
	pass, fail := Bounds(tried)
	maxQPS := s.MaxQPS
	if maxQPS == 0 {
		maxQPS = 100000
	}
	switch {
	case fail == 0 && pass >= maxQPS:
		return 0, true
	case fail == 0:
		return min(2*pass, maxQPS), false
	case pass == 0 && fail <= 1:
		return 0, true
	case pass == 0:
		return max(fail/2, 1), false
	case int64(fail-pass)*100 <= int64(precision(s))*int64(pass) || fail-pass <= 1:
		return 0, true
	}
	return pass + (fail-pass)/2, false
}

func maxSteps(s *perfv1alpha1.RateSearch) int32 {
	if s.MaxSteps > 0 {
		return s.MaxSteps
	}
	return 10
}

func precision(s *perfv1alpha1.RateSearch) int32 {
	if s.PrecisionPercent > 0 {
		return s.PrecisionPercent
	}
	return 5
}

// Default objective: the rate carried within 1%, without a single error (but those a
// template's faults make on purpose).
const (
	DefaultMinQPSPercent = 99
	DefaultMaxErrors     = 0
)

// Judge says whether a step's result sustained the objective, and if not, why: each
// saturated path and every check thresholds.Evaluate did not find met. An inconclusive
// check (its limit inside the figure's spread) does not pass: the rate is not shown to be
// sustained.
func Judge(o *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) (bool, string) {
	if res == nil {
		return false, "no result"
	}
	var missed []string
	for _, s := range res.Saturated {
		missed = append(missed, fmt.Sprintf("%s path saturated (%s qps, send-lag p99 %s > %s gap)", s.Path, s.ActualQPS, show(s.SendLagP99), show(s.Gap)))
	}
	v, _ := thresholds.Evaluate(withDefaults(o, res), res)
	for _, c := range v.Checks {
		if c.Outcome != thresholds.Met {
			missed = append(missed, c.String())
		}
	}
	return len(missed) == 0, strings.Join(missed, "; ")
}

// withDefaults is the objective with the sweep's defaults for the rate and the errors. A
// step with faults takes no default for the errors: they are on purpose, and
// maxFaultErrorPercent judges them (the template's, or none).
func withDefaults(o *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) *perfv1alpha1.Thresholds {
	out := o.DeepCopy()
	if out.MinQPSPercent == nil {
		out.MinQPSPercent = ptr.To(int32(DefaultMinQPSPercent))
	}
	if out.MaxErrors == nil && len(res.Faults) == 0 {
		out.MaxErrors = ptr.To(int64(DefaultMaxErrors))
	}
	return out
}

func show(d *metav1.Duration) string {
	if d == nil {
		return "-"
	}
	return d.Duration.String()
}
