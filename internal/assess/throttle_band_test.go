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
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// throttledResult is a result whose server sidecar was throttled in k of n CFS periods, as
// accounting writes it and report.Build reads it.
func throttledResult(k, n int64) *perfv1alpha1.Result {
	sidecar := perfv1alpha1.ContainerCPU{Role: "serverSidecar", CPU: resource.MustParse("400m"), Seconds: int32(n / 10), Periods: n,
		ThrottledPeriods: k, ThrottledPeriodsPercent: strconv.FormatFloat(100*float64(k)/float64(n), 'f', 1, 64),
		Throttled: &metav1.Duration{Duration: time.Duration(k) * 20 * time.Millisecond}}
	run := &perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 1000}}}
	sum := &result.Summary{RequestedQPS: 1000, Runs: []result.Run{{Variant: result.Dapr, Seconds: 140, ActualQPS: 1000, Requests: 140_000, Scheduled: 140_000}}}
	return report.Build(run, report.Inputs{Summary: sum, CPU: &perfv1alpha1.CPUAccounting{Measured: []perfv1alpha1.ContainerCPU{sidecar}}})
}

// interval is a throttled share's interval as the verdicts give it.
var interval = regexp.MustCompile(`1\.[01]% \[0\.[67]%, 1\.[78]%\] of 1400 periods`)

// CPULimitBound carries its uncertainty: 14 and 15 throttled periods of 1,400 (1.0% and
// 1.1%, each interval holding the 1% line) read alike, marginal, where a sharp line at 1%
// flipped between them; a share clear of the line either way reads bound or not.
func TestFourteenAndFifteenThrottledPeriodsOfFourteenHundredReadAlike(t *testing.T) {
	ev := Evidence{CountersSource: "kubelet", Live: &perfv1alpha1.LiveUsage{Counters: []perfv1alpha1.CounterSample{{Role: "serverSidecar"}}}}
	verdict := func(k, n int64) (*metav1.Condition, *perfv1alpha1.Result) {
		res := throttledResult(k, n)
		return cpuCondition(ev, res), res
	}
	for _, c := range []struct {
		k, n      int64
		status    metav1.ConditionStatus
		reason    string
		bound     bool
		boundedBy string
	}{
		{14, 1400, metav1.ConditionUnknown, perfv1alpha1.ReasonThrottledMarginal, false, "perhaps the CPU limit"},
		{15, 1400, metav1.ConditionUnknown, perfv1alpha1.ReasonThrottledMarginal, false, "perhaps the CPU limit"},
		{35, 1400, metav1.ConditionTrue, perfv1alpha1.ReasonThrottled, true, "bounded by the CPU limit: serverSidecar 2.5% [1.8%, 3.5%] of 1400 periods"},
		{3, 1400, metav1.ConditionFalse, perfv1alpha1.ReasonNotThrottled, false, "nothing found bounding it"},
		// Nothing stalled in a short phase: its interval reaches 1.9%, yet it is not marginal.
		{0, 200, metav1.ConditionFalse, perfv1alpha1.ReasonNotThrottled, false, "nothing found bounding it"},
	} {
		cond, res := verdict(c.k, c.n)
		if cond == nil || cond.Status != c.status || cond.Reason != c.reason {
			t.Errorf("%d of %d periods: CPULimitBound %+v, want %s %s", c.k, c.n, cond, c.status, c.reason)
			continue
		}
		if res.LimitBound != c.bound {
			t.Errorf("%d of %d periods: limitBound %v, want %v", c.k, c.n, res.LimitBound, c.bound)
		}
		if got := report.BoundedBy(res); !strings.Contains(got, c.boundedBy) {
			t.Errorf("%d of %d periods: %q, want %q", c.k, c.n, got, c.boundedBy)
		}
		if c.status == metav1.ConditionUnknown && !interval.MatchString(cond.Message) {
			t.Errorf("%d of %d periods: the marginal message %q gives no interval", c.k, c.n, cond.Message)
		}
	}
}
