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

// Package verdict is how the plugin judges a finished run or sweep for CI: the exit codes,
// declared once with their words, and the outcome each finished object earns.
package verdict

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// ExitCode is what `run --wait` and `watch` exit with, so a CI step fails a pull request
// for the right reason. ExitCodes declares them once, with their words; run --help, the
// Action (action.sh, action.yml), its test and docs/ci.md are checked against it.
type ExitCode int

const (
	// ExitPassed: the run succeeded and every gate it sets passed.
	ExitPassed ExitCode = 0
	// ExitCouldNotRun: nothing was measured because the run could not be started: an
	// unreadable file, admission refused it, the cluster could not be reached.
	ExitCouldNotRun ExitCode = 1
	// ExitFailed: the run ended Failed for a runtime reason (its condition says which).
	ExitFailed ExitCode = 2
	// ExitThresholds: a threshold was violated, or could not be shown met (Inconclusive:
	// the interval straddles the limit, or the figure was not measured). A gate that was
	// not passed fails: CI cannot tell noise from a regression, and more repetitions or a
	// longer duration narrow the interval.
	ExitThresholds ExitCode = 3
	// ExitRegressed: the run is worse than the runs before it (condition Regressed).
	ExitRegressed ExitCode = 4
	// ExitNotClean: with --strict, the load tester could not keep its rate (Saturated) or
	// a CPU limit throttled a measured container (CPULimitBound): the figures are real but
	// are not the ones asked for.
	ExitNotClean ExitCode = 5
	// ExitStillRunning: --timeout passed before the run finished (or watch was interrupted);
	// it goes on in the cluster.
	ExitStillRunning ExitCode = 6
	// ExitCancelled: the run was cancelled: run --wait received SIGINT or SIGTERM and
	// cancelled it, or someone else did (kubectl daprbench cancel).
	ExitCancelled ExitCode = 7
)

// ExitCodes is every exit code with its word (the Action's `verdict` output) and what it
// means, in order: the one declaration of the table.
var ExitCodes = []struct {
	Code          ExitCode
	Word, Meaning string
}{
	{ExitPassed, "passed", "passed"},
	{ExitCouldNotRun, "could-not-run", "could not run (bad file, admission refused, cluster unreachable)"},
	{ExitFailed, "failed", "Failed for a runtime reason"},
	{ExitThresholds, "thresholds", "a threshold violated or inconclusive"},
	{ExitRegressed, "regressed", "regressed"},
	{ExitNotClean, "not-clean", "Saturated or CPULimitBound (--strict only)"},
	{ExitStillRunning, "timeout", "--timeout passed first"},
	{ExitCancelled, "cancelled", `cancelled (SIGINT or SIGTERM cancels the run, as "kubectl daprbench cancel" does)`},
}

// ExitCodeWords is the table as "0 passed, 1 could-not-run, …": the line the Action's
// outputs describe themselves with.
func ExitCodeWords() string {
	words := make([]string, len(ExitCodes))
	for i, e := range ExitCodes {
		words[i] = fmt.Sprintf("%d %s", e.Code, e.Word)
	}
	return strings.Join(words, ", ")
}

// ExitCodeHelp is the table as run --help prints it, one code and meaning after another.
func ExitCodeHelp() string {
	var lines []string
	line := " "
	for i, e := range ExitCodes {
		item := fmt.Sprintf(" %d %s", e.Code, e.Meaning)
		if i < len(ExitCodes)-1 {
			item += ";"
		} else {
			item += "."
		}
		if len(line)+len(item) > 92 {
			lines, line = append(lines, line), " "
		}
		line += item
	}
	return strings.Join(append(lines, line), "\n")
}

// Outcome is a finished run's exit code and the words that explain it.
type Outcome struct {
	Code   ExitCode
	Reason string
}

// RunOutcome judges a finished run for CI, checks in the order of the codes: a failed run,
// then thresholds, then regression, then (strict) cleanliness.
func RunOutcome(run *perfv1alpha1.PerfRun, strict bool) Outcome {
	cond := func(t string) *metav1.Condition {
		c := meta.FindStatusCondition(run.Status.Conditions, t)
		if c == nil || c.ObservedGeneration != run.Generation {
			return nil
		}
		return c
	}
	if c := cond(perfv1alpha1.ConditionFailed); c != nil && c.Status == metav1.ConditionTrue {
		if c.Reason == perfv1alpha1.ReasonCancelled {
			return Outcome{ExitCancelled, c.Reason + ": " + c.Message}
		}
		if c.Reason == perfv1alpha1.ReasonThresholdsViolated {
			return Outcome{ExitThresholds, c.Reason + ": " + c.Message}
		}
		return Outcome{ExitFailed, c.Reason + ": " + c.Message}
	}
	// The gates read their conditions as the operator's events do (the API's one table).
	if c := cond(perfv1alpha1.ConditionThresholdsMet); c != nil && perfv1alpha1.ConditionIsTrouble(*c) {
		return Outcome{ExitThresholds, c.Reason + ": " + c.Message}
	}
	if c := cond(perfv1alpha1.ConditionRegressed); c != nil && perfv1alpha1.ConditionIsTrouble(*c) {
		return Outcome{ExitRegressed, c.Reason + ": " + c.Message}
	}
	if strict {
		for _, t := range []string{perfv1alpha1.ConditionSaturated, perfv1alpha1.ConditionCPULimitBound} {
			if c := cond(t); c != nil && perfv1alpha1.ConditionIsTrouble(*c) {
				return Outcome{ExitNotClean, fmt.Sprintf("%s (--strict): %s", t, c.Message)}
			}
		}
	}
	return Outcome{ExitPassed, "passed: " + ConditionMessage(run)}
}

// SweepOutcome judges a finished sweep: passed when it Succeeded, else failed (its
// points' own runs say why).
func SweepOutcome(sw *perfv1alpha1.PerfSweep) Outcome {
	msg := string(sw.Status.Phase)
	for _, t := range []string{perfv1alpha1.ConditionSucceeded, perfv1alpha1.ConditionFailed} {
		if c := meta.FindStatusCondition(sw.Status.Conditions, t); c != nil && c.Status == metav1.ConditionTrue {
			msg = c.Reason + ": " + c.Message
			if c.Reason == perfv1alpha1.ReasonCancelled {
				return Outcome{ExitCancelled, msg}
			}
		}
	}
	if sw.Status.Phase == perfv1alpha1.PhaseSucceeded {
		return Outcome{ExitPassed, msg}
	}
	return Outcome{ExitFailed, msg}
}

// Exit is an error that carries code out of a command, with msg its words; the plugin's
// main exits with the code.
func Exit(code ExitCode, msg string) error { return &exitError{code, msg} }

type exitError struct {
	code ExitCode
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// ExitCodeOf is the code a command's error asks for: 1 for any error that names none.
func ExitCodeOf(err error) ExitCode {
	if err == nil {
		return ExitPassed
	}
	if e := (*exitError)(nil); errors.As(err, &e) {
		return e.code
	}
	return ExitCouldNotRun
}

// ConditionMessage is what a run says of itself: its most telling condition's message, the
// end's before the workloads' and Dapr's; "waiting" while none has one.
func ConditionMessage(run *perfv1alpha1.PerfRun) string {
	for _, t := range []string{perfv1alpha1.ConditionFailed, perfv1alpha1.ConditionSucceeded, perfv1alpha1.ConditionWorkloadsReady, perfv1alpha1.ConditionDaprReady} {
		for _, c := range run.Status.Conditions {
			if c.Type == t && c.Message != "" {
				return c.Message
			}
		}
	}
	return "waiting"
}
