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

package verdict

import (
	"errors"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A finished run's exit code follows the codes' order: a failure (a cancellation and a
// violated gate named as such), then the gates, then regression, then, with --strict only,
// cleanliness; a condition of an older generation is not read.
func TestRunOutcomeChecksInTheOrderOfTheCodes(t *testing.T) {
	cond := func(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: "m", ObservedGeneration: 2}
	}
	succeeded := cond(perfv1alpha1.ConditionSucceeded, metav1.ConditionTrue, perfv1alpha1.ReasonSucceeded)
	regressed := cond(perfv1alpha1.ConditionRegressed, metav1.ConditionTrue, "Slower")
	saturated := cond(perfv1alpha1.ConditionSaturated, metav1.ConditionTrue, "BehindSchedule")
	for _, tc := range []struct {
		name       string
		conditions []metav1.Condition
		strict     bool
		want       ExitCode
	}{
		{"succeeded", []metav1.Condition{succeeded}, true, ExitPassed},
		{"cancelled", []metav1.Condition{cond(perfv1alpha1.ConditionFailed, metav1.ConditionTrue, perfv1alpha1.ReasonCancelled), regressed}, false, ExitCancelled},
		{"failed on its gates", []metav1.Condition{cond(perfv1alpha1.ConditionFailed, metav1.ConditionTrue, perfv1alpha1.ReasonThresholdsViolated)}, false, ExitThresholds},
		{"failed", []metav1.Condition{cond(perfv1alpha1.ConditionFailed, metav1.ConditionTrue, "ImageNotStarting"), regressed}, false, ExitFailed},
		{"a gate not shown met", []metav1.Condition{succeeded, cond(perfv1alpha1.ConditionThresholdsMet, metav1.ConditionUnknown, "Inconclusive"), regressed}, false, ExitThresholds},
		{"regressed", []metav1.Condition{succeeded, regressed, saturated}, true, ExitRegressed},
		{"saturated, strict", []metav1.Condition{succeeded, saturated}, true, ExitNotClean},
		{"saturated, not strict", []metav1.Condition{succeeded, saturated}, false, ExitPassed},
		{"regressed an older generation", []metav1.Condition{succeeded, func() metav1.Condition { c := regressed; c.ObservedGeneration = 1; return c }()}, false, ExitPassed},
	} {
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Generation: 2}, Status: perfv1alpha1.PerfRunStatus{Conditions: tc.conditions}}
		if got := RunOutcome(run, tc.strict); got.Code != tc.want {
			t.Errorf("%s: exit %d (%s), want %d", tc.name, got.Code, got.Reason, tc.want)
		}
	}
}

// The codes are declared once, in order, each with its own word; an error carries its code
// out of a command, through wrapping, and any other error is "could not run".
func TestTheExitCodesAreOneTableAndErrorsCarryThem(t *testing.T) {
	words := map[string]bool{}
	for i, e := range ExitCodes {
		if int(e.Code) != i || e.Word == "" || words[e.Word] {
			t.Errorf("ExitCodes[%d] = %+v: want code %d and a word of its own", i, e, i)
		}
		words[e.Word] = true
	}
	if got := ExitCodeOf(fmt.Errorf("watching: %w", Exit(ExitRegressed, "slower"))); got != ExitRegressed {
		t.Errorf("a wrapped Exit: %d", got)
	}
	if ExitCodeOf(errors.New("unreadable")) != ExitCouldNotRun || ExitCodeOf(nil) != ExitPassed {
		t.Error("a plain error is could-not-run, none is passed")
	}
}
