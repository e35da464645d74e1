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

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
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

// Judge says whether a run's result met the objective at the requested rate, and if not,
// why (every missed figure).
func Judge(o *perfv1alpha1.RateObjective, requested int32, res *perfv1alpha1.Result) (bool, string) {
	if res == nil {
		return false, "no result"
	}
	var missed []string
	for _, s := range res.Saturated {
		missed = append(missed, fmt.Sprintf("%s path saturated (%s qps, send-lag p99 %s > %s gap)", s.Path, s.ActualQPS, show(s.SendLagP99), show(s.Gap)))
	}
	minPercent := o.MinQPSPercent
	if minPercent == 0 {
		minPercent = 99
	}
	actual, ok := res.ActualRate()
	if !ok || actual*100 < float64(minPercent)*float64(requested) {
		missed = append(missed, fmt.Sprintf("actual qps %s < %d%% of %d", res.ActualQPS, minPercent, requested))
	}
	maxErrors := int64(0)
	if o.MaxErrors != nil {
		maxErrors = *o.MaxErrors
	}
	if res.Errors > maxErrors {
		missed = append(missed, fmt.Sprintf("%d errors > %d", res.Errors, maxErrors))
	}
	if l := res.Latency; l != nil {
		if o.MaxP90 != nil && (l.P90 == nil || l.P90.Duration > o.MaxP90.Duration) {
			missed = append(missed, fmt.Sprintf("p90 %s > %s", show(l.P90), o.MaxP90.Duration))
		}
		if o.MaxP99 != nil && (l.P99 == nil || l.P99.Duration > o.MaxP99.Duration) {
			missed = append(missed, fmt.Sprintf("p99 %s > %s", show(l.P99), o.MaxP99.Duration))
		}
	} else if o.MaxP90 != nil || o.MaxP99 != nil {
		missed = append(missed, "no latency measured")
	}
	return len(missed) == 0, strings.Join(missed, "; ")
}

func show(d *metav1.Duration) string {
	if d == nil {
		return "-"
	}
	return d.Duration.String()
}
