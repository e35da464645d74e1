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
	"math"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// Newcombe (1998), "Interval estimation for the difference between independent
// proportions", example (a): 56/70 − 48/80, method 10 gives [0.0524, 0.3339].
func TestAShareChangesIntervalIsNewcombesHybridScore(t *testing.T) {
	la, ua := stats.Wilson(48, 80)
	lb, ub := stats.Wilson(56, 70)
	low, high := ShareChange(0.6, la, ua, 0.8, lb, ub)
	if math.Abs(low-0.0524) > 5e-5 || math.Abs(high-0.3339) > 5e-5 {
		t.Errorf("[%.4f, %.4f], want [0.0524, 0.3339]", low, high)
	}
}

// Two fault runs are compared on the fault both measured on the same path: the error share
// with the interval of its change and a verdict, the recovery by its intervals, a broker's
// lost messages and a workflow's stuck instances; a fault the other run lacks is left out.
func TestCompareSaysWhichRunAFaultCostMore(t *testing.T) {
	sec := func(s float64) *metav1.Duration {
		return &metav1.Duration{Duration: time.Duration(s * float64(time.Second))}
	}
	interval := func(lo, hi float64) *perfv1alpha1.DurationInterval {
		return &perfv1alpha1.DurationInterval{Low: *sec(lo), High: *sec(hi)}
	}
	plain := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Path: "dapr",
		During:   perfv1alpha1.FaultWindow{Requests: 20000, Errors: 18500},
		Recovery: sec(5.35), RecoveryInterval: interval(1.59, 9.11), Messages: &perfv1alpha1.FaultMessages{Lost: 700},
		Instances: &perfv1alpha1.FaultInstances{Started: 1642, Completed: 1642}}}}
	retried := &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Path: "dapr",
		During:   perfv1alpha1.FaultWindow{Requests: 20000, Errors: 0},
		Recovery: sec(5.0), RecoveryInterval: interval(0, 11), Messages: &perfv1alpha1.FaultMessages{Lost: 650},
		Instances: &perfv1alpha1.FaultInstances{Started: 1600, Completed: 1581, Stuck: 19}},
		{Fault: 0, Path: "other", During: perfv1alpha1.FaultWindow{Requests: 10, Errors: 1}}}}
	got := map[string]Difference{}
	for _, d := range Compare(plain, retried, nil, RerunSpread{}) {
		got[d.Figure] = d
	}
	if d := got["fault 0 on dapr errors during"]; d.A != "92.50%" || d.B != "0.00%" || d.Change != "-92.50 points" || d.Verdict != VerdictFewerErrors || d.Gate != "" {
		t.Errorf("errors during: %+v", d)
	}
	if d := got["fault 0 on dapr recovery"]; d.A != "5.35s" || d.B != "5s" || d.Verdict != VerdictNoDifference || d.Interval == "" {
		t.Errorf("recovery: %+v", d)
	}
	if d := got["fault 0 on dapr messages lost"]; d.A != "700" || d.B != "650" || d.Change != "-50" {
		t.Errorf("messages lost: %+v", d)
	}
	if d := got["fault 0 on dapr instances stuck"]; d.A != "0" || d.B != "19" || d.Change != "+19" {
		t.Errorf("instances stuck: %+v", d)
	}
	if _, ok := got["fault 0 on dapr messages lost a phase"]; ok {
		t.Error("a mean a phase was compared where neither result has one")
	}
	if _, ok := got["fault 0 on other errors during"]; ok {
		t.Error("a path only B has was compared")
	}
	if d := Compare(retried, retried, nil, RerunSpread{}); len(d) == 0 || findFigure(d, "fault 0 on dapr errors during").Verdict != VerdictNoDifference {
		t.Errorf("a run against itself: %+v", findFigure(d, "fault 0 on dapr errors during"))
	}
}

func findFigure(ds []Difference, name string) Difference {
	for _, d := range ds {
		if d.Figure == name {
			return d
		}
	}
	return Difference{}
}

// Lost messages and stuck instances are compared a phase, so runs of different repetition
// counts compare alike: B's two phases lost 10 each where A's four lost 10 each, the same
// (A's total twice B's); a run whose every phase lost nothing has a zero-width interval and
// is still judged against the other; a side without an interval gets no verdict.
func TestCompareJudgesLostAndStuckAPhase(t *testing.T) {
	outcome := func(lost, low, high string, total int64) *perfv1alpha1.Result {
		return &perfv1alpha1.Result{Faults: []perfv1alpha1.FaultOutcome{{Fault: 0, Path: "dapr",
			Messages:  &perfv1alpha1.FaultMessages{Lost: total, LostPerPhase: lost, LostPerPhaseLow: low, LostPerPhaseHigh: high},
			Instances: &perfv1alpha1.FaultInstances{Stuck: total, StuckPerPhase: lost, StuckPerPhaseLow: low, StuckPerPhaseHigh: high}}}}
	}
	for _, tc := range []struct {
		name         string
		a, b         *perfv1alpha1.Result
		change, want string
	}{
		{"four phases against two, alike", outcome("10.0", "6.0", "14.0", 40), outcome("10.0", "0.0", "31.0", 20), "+0.0", VerdictNoDifference},
		{"none lost against some every phase", outcome("0.0", "0.0", "0.0", 0), outcome("12.0", "9.0", "15.0", 48), "+12.0", VerdictMoreAPhase},
		{"fewer", outcome("40.0", "30.0", "50.0", 160), outcome("2.0", "0.0", "5.0", 8), "-38.0", VerdictFewerAPhase},
		{"no interval", outcome("40.0", "", "", 160), outcome("2.0", "0.0", "5.0", 8), "-38.0", VerdictNoInterval},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diffs := Compare(tc.a, tc.b, nil, RerunSpread{})
			for _, figure := range []string{"fault 0 on dapr messages lost a phase", "fault 0 on dapr instances stuck a phase"} {
				if d := findFigure(diffs, figure); d.Change != tc.change || d.Verdict != tc.want || d.Gate != "" {
					t.Errorf("%s: %+v, want change %s and %q", figure, d, tc.change, tc.want)
				}
			}
		})
	}
}
