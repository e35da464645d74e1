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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// testerLagDifferenceFloor is the least difference between the paths' tester lateness that
// is named: the paced tester's own lateness at p90 read 0.24–0.36 ms alone on a node
// (result.LatenessFloor's measurements), so differences below 0.5 ms are its noise
// (hypothesis: the spread of that difference is not measured).
const testerLagDifferenceFloor = 500 * time.Microsecond

// testerLagDifference is the measured path's tester lateness at p90 less the baseline's; nil
// without both.
func testerLagDifference(sum *result.Summary, measured result.Variant) *metav1.Duration {
	m, ok1 := sum.MergedOf(measured)
	b, ok2 := sum.MergedOf(result.Baseline)
	if !ok1 || !ok2 {
		return nil
	}
	lm, ok1 := m.TesterLag.At(result.LatenessPercentile)
	lb, ok2 := b.TesterLag.At(result.LatenessPercentile)
	if !ok1 || !ok2 {
		return nil
	}
	return &metav1.Duration{Duration: lm - lb}
}

// testerLagWork names lateness only the Dapr path suffered when it is at least
// testerLagDifferenceFloor and a tenth of the added p50: the added latency carries it. Each
// path's own lateness is judged against testerLatenessLimit; this judges the two together.
func testerLagWork(res *perfv1alpha1.Result) string {
	d := res.TesterLagDifference
	if d == nil || d.Duration < testerLagDifferenceFloor {
		return ""
	}
	if res.Added != nil && res.Added.P50 != nil && d.Duration < time.Duration(result.LatenessShare*float64(res.Added.P50.Duration)) {
		return ""
	}
	return fmt.Sprintf("the load tester, later on the measured path than on the baseline by %s at p%d (the added latency carries that lateness)",
		d.Duration, result.LatenessPercentile)
}
