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

package thresholds

import (
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// faulted is a result whose one fault was applied in two phases, recovered in both, the
// slowest after recovery; during holds errors of 800 requests. The gate reads the counts:
// the result's rounded share strings are left empty here.
func faulted(errors int64, recovery string) *perfv1alpha1.Result {
	r := result("1ms")
	r.Faults = []perfv1alpha1.FaultOutcome{{Fault: 0, Kind: perfv1alpha1.FaultTargetErrors, Path: "dapr", Applied: 2, Recovered: 2,
		During:          perfv1alpha1.FaultWindow{Seconds: 8, Requests: 800, Errors: errors},
		Recovery:        d("1.5s"),
		SlowestRecovery: d(recovery)}}
	return r
}

func TestAFaultIsJudgedOnItsErrorShareAndEveryPhasesRecovery(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxFaultErrorPercent: ptr.To[int32](10), MaxRecovery: d("3s")}
	with := func(r *perfv1alpha1.Result, edit func(*perfv1alpha1.FaultOutcome)) *perfv1alpha1.Result {
		edit(&r.Faults[0])
		return r
	}
	cases := []struct {
		name string
		res  *perfv1alpha1.Result
		want Outcome
		says []string
	}{
		{"retried away, recovered at once", faulted(0, "1s"), Met, []string{
			"faults[0] on dapr errors during 0.00% (95% interval 0.00..0.48%; 0 of 800) (limit <= 10%): met",
			"faults[0] on dapr recovery slowest 1s; 2 of 2 phases recovered (limit <= 3s): met"}},
		{"the share's whole interval above the limit", faulted(120, "2s"), Violated, []string{
			"errors during 15.00% (95% interval 12.69..17.64%; 120 of 800) (limit <= 10%): VIOLATED"}},
		{"the limit inside the share's interval", faulted(76, "2s"), Inconclusive, []string{
			"errors during 9.50% (95% interval 7.66..11.73%; 76 of 800) (limit <= 10%): inconclusive", "recovery slowest 2s; 2 of 2 phases recovered (limit <= 3s): met"}},
		{"the slowest phase past the limit", faulted(0, "4s"), Violated, []string{
			"recovery slowest 4s; 2 of 2 phases recovered (limit <= 3s): VIOLATED"}},
		{"a phase never back", with(faulted(0, "1s"), func(f *perfv1alpha1.FaultOutcome) { f.Recovered, f.NotRecovered = 1, 1 }), Violated, []string{
			"recovery slowest 1s; 1 of 2 phases recovered, 1 not before its end (limit <= 3s): VIOLATED"}},
		{"a phase without its band", with(faulted(0, "1s"), func(f *perfv1alpha1.FaultOutcome) { f.Recovered, f.Unjudged = 1, 1 }), Inconclusive, []string{
			"1 of 2 phases recovered, 1 unjudged (too few seconds before the fault) (limit <= 3s): inconclusive"}},
		{"not applied in any phase", with(faulted(0, "1s"), func(f *perfv1alpha1.FaultOutcome) {
			*f = perfv1alpha1.FaultOutcome{Path: "dapr", NotApplied: []string{"the app refused the order"}}
		}), Inconclusive, []string{"errors during not applied: the app refused the order (limit <= 10%): inconclusive"}},
		{"a phase never applied, for no reason given", with(faulted(0, "1s"), func(f *perfv1alpha1.FaultOutcome) {
			*f = perfv1alpha1.FaultOutcome{Path: "dapr"}
		}), Inconclusive, []string{"errors during not applied (limit <= 10%): inconclusive"}},
		{"no fault outcome at all", result("1ms"), Inconclusive, []string{"faults errors during not measured", "faults recovery not measured"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := Evaluate(gate, tc.res)
			if !ok {
				t.Fatal("no verdict")
			}
			if v.Outcome != tc.want {
				t.Errorf("outcome %s, want %s: %s", v.Outcome, tc.want, v.Message())
			}
			if len(v.Checks) != 2 {
				t.Errorf("%d checks, want the error share's and the recovery's: %s", len(v.Checks), v.Message())
			}
			for _, s := range tc.says {
				if !strings.Contains(v.Message(), s) {
					t.Errorf("message %q, want it to say %q", v.Message(), s)
				}
			}
		})
	}
}

// A limit of 0 is judged on the count, as maxErrors is: the Wilson interval of 0 errors
// still reaches above 0, so on the interval no run could ever meet it.
func TestAZeroFaultErrorLimitIsJudgedOnTheCount(t *testing.T) {
	gate := &perfv1alpha1.Thresholds{MaxFaultErrorPercent: ptr.To[int32](0)}
	for _, tc := range []struct {
		errors int64
		want   Outcome
	}{{0, Met}, {1, Violated}} {
		v, ok := Evaluate(gate, faulted(tc.errors, "1s"))
		if !ok || v.Outcome != tc.want {
			t.Errorf("%d errors: verdict %s, want %s: %s", tc.errors, v.Outcome, tc.want, v.Message())
		}
	}
}

// The share is judged on its counts, not on the two decimals the result shows: of 10^8
// requests, 5.008% failed; its interval's low end, 5.0037%, shows as "5.00" but is above a
// 5% limit.
func TestTheFaultErrorShareIsJudgedOnItsCountsNotItsRoundedString(t *testing.T) {
	r := faulted(0, "1s")
	r.Faults[0].During = perfv1alpha1.FaultWindow{Seconds: 8, Requests: 100_000_000, Errors: 5_008_000, ErrorPercent: "5.01", ErrorPercentLow: "5.00", ErrorPercentHigh: "5.01"}
	v, _ := Evaluate(&perfv1alpha1.Thresholds{MaxFaultErrorPercent: ptr.To[int32](5)}, r)
	if v.Outcome != Violated {
		t.Errorf("verdict %s, want VIOLATED: the low end of 5.008%% of 10^8 is above 5%%: %s", v.Outcome, v.Message())
	}
}

// Without a fault gate a fault run's verdict is its other gates' alone.
func TestAFaultRunWithoutAFaultGateIsJudgedOnItsOtherGates(t *testing.T) {
	v, ok := Evaluate(&perfv1alpha1.Thresholds{MaxErrors: ptr.To[int64](200)}, faulted(120, "9s"))
	if !ok || v.Outcome != Met || len(v.Checks) != 1 {
		t.Errorf("verdict %+v, want the errors gate alone, met", v)
	}
}
