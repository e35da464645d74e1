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
	"errors"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/kit/textcut"
)

// The verdict of a finished load is a chain of checks, each of which decides or passes to
// the next (as cert-manager's policy chain does): first whether the load left a result at
// all, then — once the result stands and has been judged — whether its gates fail the run.
// Every check reads only the load outcome, gathered beforehand, so the chain is a pure function.

// outcome is what the verdict's checks read: what the load left, and once its result
// stands and has been judged, what the judges found.
type outcome struct {
	Load
	summary *result.Summary // Load.Summary, unless it could not be decoded
	missing string          // what of the spec's measurements the summary lacks

	// Known once the result stands and has been judged.
	thresholdsViolated string // with spec.thresholds.failRun: the violations
	saturated          bool
	headline           string
}

// A verdictCheck decides the run, or returns nil to leave it to the next check.
type verdictCheck func(o *outcome) *Verdict

var (
	// loadChecks decide a run whose load left no result to judge, in order.
	loadChecks = []verdictCheck{loadTesterFailed, noTerminatedState, unreadableSummary, reportLost, loadTesterReportedError, incompleteSummary}
	// resultChecks decide a run whose result stands, once judged; the last always decides.
	resultChecks = []verdictCheck{thresholdsFailRun, succeeded}
)

// firstVerdict is the verdict of the first check that decides, nil when none does.
func firstVerdict(o *outcome, checks []verdictCheck) *Verdict {
	for _, check := range checks {
		if v := check(o); v != nil {
			return v
		}
	}
	return nil
}

func failed(reason, format string, args ...any) *Verdict {
	return &Verdict{Failed: true, Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// loadTesterFailed: the Job failed; the first pod's error, the summary's or the exit says why.
// Not when the load tester itself ended well (exit 0, a report without an error) and the
// Job failed because its daprd, told to stop once the load was over, ended with exit 1 on a
// request a fault left hanging. The report is then judged as it stands (the checks after
// this one read it), and the verdict says so. A daprd that died during the load still fails
// the run.
func loadTesterFailed(o *outcome) *Verdict {
	cond := o.JobFailed
	if cond == nil || sidecarFailedAfterLoad(o) {
		return nil
	}
	reason := perfv1alpha1.ReasonLoadTesterFailed
	if cond.Reason == batchv1.JobReasonDeadlineExceeded {
		reason = perfv1alpha1.ReasonTimeout
	}
	detail := cond.Message
	switch {
	case o.FirstFailure != "":
		detail = o.FirstFailure
	case o.summary != nil && o.summary.Error != "":
		detail = o.summary.Error
	case o.Terminated != nil:
		detail = fmt.Sprintf("container exited %d (%s) %s", o.Terminated.ExitCode, o.Terminated.Reason, textcut.Truncate(o.Message, 500))
	}
	return failed(reason, "the load tester failed: %s", detail)
}

// noTerminatedState: the Job completed, but no load-tester container said how it ended.
func noTerminatedState(o *outcome) *Verdict {
	if o.Terminated != nil {
		return nil
	}
	return failed(perfv1alpha1.ReasonInvalidResult,
		"the load-tester Job finished but no load-tester container reported a terminated state within %v: %s", o.Waited, o.PodsDescribed)
}

func unreadableSummary(o *outcome) *Verdict {
	if o.DecodeErr == nil {
		return nil
	}
	return failed(perfv1alpha1.ReasonInvalidResult,
		"the load tester finished but its termination message could not be read: %v (termination message: %q)", o.DecodeErr, textcut.Truncate(o.Message, 200))
}

// reportLost: the termination message points to a report that could not be had whole.
func reportLost(o *outcome) *Verdict {
	if o.ReportLost == nil {
		return nil
	}
	if errors.As(o.ReportLost, new(*result.FrameTooLarge)) {
		return failed(perfv1alpha1.ReasonResultTooLarge, "%v: the run measured more than one result holds; measure fewer repetitions or variants per run", o.ReportLost)
	}
	return failed(perfv1alpha1.ReasonResultUnreadable,
		"the load tester finished but its report could not be read from its log %v; nothing of it is kept", o.ReportLost)
}

func loadTesterReportedError(o *outcome) *Verdict {
	if o.summary.Error == "" {
		return nil
	}
	return failed(perfv1alpha1.ReasonLoadTesterFailed, "the load tester reported: %s", o.summary.Error)
}

// incompleteSummary: a result without a path or repetition the spec asked for is not the
// result asked for.
func incompleteSummary(o *outcome) *Verdict {
	if o.missing == "" {
		return nil
	}
	return failed(perfv1alpha1.ReasonInvalidResult, "the load tester's summary is incomplete: %s", o.missing)
}

func thresholdsFailRun(o *outcome) *Verdict {
	if o.thresholdsViolated == "" {
		return nil
	}
	return failed(perfv1alpha1.ReasonThresholdsViolated, "thresholds violated (spec.thresholds.failRun): %s", o.thresholdsViolated)
}

// succeeded: a saturated run finished, but claims no added latency.
func succeeded(o *outcome) *Verdict {
	reason := perfv1alpha1.ReasonSucceeded
	if o.saturated {
		reason = perfv1alpha1.ReasonSaturated
	}
	msg := o.headline
	if sidecarFailedAfterLoad(o) {
		msg += "; the load-tester Job failed after its load tester ended with its report whole: " + o.DaprdEndedBadly
	}
	return &Verdict{Reason: reason, Message: msg}
}

// sidecarFailedAfterLoad: the Job failed, but not for its load tester, which exited 0 with a
// report that says no error (not a deadline either: that cuts the load tester short); its
// daprd ended badly once the load was over.
func sidecarFailedAfterLoad(o *outcome) bool {
	return o.JobFailed != nil && o.JobFailed.Reason != batchv1.JobReasonDeadlineExceeded && o.FirstFailure == "" && o.DaprdEndedBadly != "" &&
		o.Terminated != nil && o.Terminated.ExitCode == 0 && o.summary != nil && o.summary.Error == ""
}
