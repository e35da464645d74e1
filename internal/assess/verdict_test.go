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
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

func TestTheVerdictChainDecidesInOrder(t *testing.T) {
	exited := &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}
	completed := &corev1.ContainerStateTerminated{Reason: "Completed"}
	deadline := &batchv1.JobCondition{Type: batchv1.JobFailed, Reason: batchv1.JobReasonDeadlineExceeded, Message: "Job was active longer than specified deadline"}
	backoff := &batchv1.JobCondition{Type: batchv1.JobFailed, Reason: batchv1.JobReasonBackoffLimitExceeded, Message: "Job has reached the specified backoff limit"}
	good := &result.Summary{RequestedQPS: 1000}
	const afterLoad = "its daprd exited 1 (Error) at 09:59:40, after the load tester ended"
	for _, tc := range []struct {
		name         string
		outcome      outcome
		judged       bool // the result stood and was judged
		failed       bool
		reason, text string
	}{
		{name: "the Job's deadline is a timeout", outcome: outcome{Load: Load{JobFailed: deadline, Terminated: exited, Message: "killed", DecodeErr: errors.New("eof"), Waited: 30 * time.Second}},
			failed: true, reason: perfv1alpha1.ReasonTimeout, text: "the load tester failed: container exited 1 (Error) killed"},
		{name: "a group's first failure wins over the summary's error", outcome: outcome{Load: Load{JobFailed: backoff, FirstFailure: "pod 2 of the group: dial tcp: refused", Terminated: exited, Summary: &result.Summary{Error: "group aborted"}, Waited: 30 * time.Second}, summary: &result.Summary{Error: "group aborted"}},
			failed: true, reason: perfv1alpha1.ReasonLoadTesterFailed, text: "the load tester failed: pod 2 of the group: dial tcp: refused"},
		{name: "a failed Job's summary error", outcome: outcome{Load: Load{JobFailed: backoff, Terminated: exited, Summary: &result.Summary{Error: "target never answered"}, Waited: 30 * time.Second}, summary: &result.Summary{Error: "target never answered"}},
			failed: true, reason: perfv1alpha1.ReasonLoadTesterFailed, text: "the load tester failed: target never answered"},
		{name: "a failed Job with nothing else to say", outcome: outcome{Load: Load{JobFailed: backoff, DecodeErr: errors.New("eof"), Waited: 30 * time.Second}},
			failed: true, reason: perfv1alpha1.ReasonLoadTesterFailed, text: "the load tester failed: Job has reached the specified backoff limit"},
		{name: "no terminated state", outcome: outcome{Load: Load{PodsDescribed: "pod p (Succeeded): no container status yet", DecodeErr: errors.New("eof"), Waited: 30 * time.Second}},
			failed: true, reason: perfv1alpha1.ReasonInvalidResult, text: "no load-tester container reported a terminated state within 30s: pod p"},
		{name: "an unreadable termination message", outcome: outcome{Load: Load{Terminated: completed, Message: "garbage", DecodeErr: errors.New("invalid character"), Waited: 30 * time.Second}},
			failed: true, reason: perfv1alpha1.ReasonInvalidResult, text: `its termination message could not be read: invalid character (termination message: "garbage")`},
		{name: "a report that could not be read", outcome: outcome{Load: Load{Terminated: completed, ReportLost: errors.New("in 4 tries: the report's frame in the log is cut short"), Waited: 30 * time.Second}},
			failed: true, reason: perfv1alpha1.ReasonResultUnreadable, text: "its report could not be read from its log in 4 tries: the report's frame in the log is cut short; nothing of it is kept"},
		{name: "a report too large for the channel", outcome: outcome{Load: Load{Terminated: completed, ReportLost: &result.FrameTooLarge{Bytes: 5 << 20, Limit: 4 << 20}, Waited: 30 * time.Second}},
			failed: true, reason: perfv1alpha1.ReasonResultTooLarge, text: "takes 5242880 bytes (gzipped), more than the 4194304"},
		{name: "the load tester's own error", outcome: outcome{Load: Load{Terminated: completed, Summary: &result.Summary{Error: "sidecar never ready"}, Waited: 30 * time.Second}, summary: &result.Summary{Error: "sidecar never ready"}},
			failed: true, reason: perfv1alpha1.ReasonLoadTesterFailed, text: "the load tester reported: sidecar never ready"},
		{name: "an incomplete summary", outcome: outcome{Load: Load{Terminated: completed, Summary: good, Waited: 30 * time.Second}, summary: good, missing: "it holds 1 of the 3 repetitions of the baseline path"},
			failed: true, reason: perfv1alpha1.ReasonInvalidResult, text: "incomplete: it holds 1 of the 3"},
		{name: "failRun thresholds", outcome: outcome{Load: Load{Terminated: completed, Summary: good, Waited: 30 * time.Second}, summary: good, thresholdsViolated: "added p90 2.1ms > 2ms", headline: "h"}, judged: true,
			failed: true, reason: perfv1alpha1.ReasonThresholdsViolated, text: "thresholds violated (spec.thresholds.failRun): added p90 2.1ms > 2ms"},
		{name: "saturated, but finished", outcome: outcome{Load: Load{Terminated: completed, Summary: good, Waited: 30 * time.Second}, summary: good, saturated: true, headline: "60000 requests"}, judged: true,
			reason: perfv1alpha1.ReasonSaturated, text: "60000 requests"},
		{name: "a Job failed by its daprd after the load tester ended well", outcome: outcome{Load: Load{JobFailed: backoff, Terminated: completed, DaprdEndedBadly: afterLoad, Summary: good, Waited: 30 * time.Second}, summary: good, headline: "60000 requests"}, judged: true,
			reason: perfv1alpha1.ReasonSucceeded, text: "60000 requests; the load-tester Job failed after its load tester ended with its report whole: " + afterLoad},
		{name: "a Job failed by a daprd that died under the load", outcome: outcome{Load: Load{JobFailed: backoff, Terminated: completed, Summary: good, Waited: 30 * time.Second}, summary: good},
			failed: true, reason: perfv1alpha1.ReasonLoadTesterFailed, text: "the load tester failed: container exited 0 (Completed)"},
		{name: "a Job failed with the load tester's own exit 0 but an incomplete report", outcome: outcome{Load: Load{JobFailed: backoff, Terminated: completed, DaprdEndedBadly: afterLoad, Summary: good, Waited: 30 * time.Second}, summary: good, missing: "it holds 1 of the 3 repetitions of the baseline path"},
			failed: true, reason: perfv1alpha1.ReasonInvalidResult, text: "incomplete: it holds 1 of the 3"},
		{name: "succeeded", outcome: outcome{Load: Load{Terminated: completed, Summary: good, Waited: 30 * time.Second}, summary: good, headline: "60000 requests"}, judged: true,
			reason: perfv1alpha1.ReasonSucceeded, text: "60000 requests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := firstVerdict(&tc.outcome, loadChecks)
			if tc.judged {
				if v != nil {
					t.Fatalf("a standing result was decided before it was judged: %+v", v)
				}
				v = firstVerdict(&tc.outcome, resultChecks)
			}
			if v == nil {
				t.Fatal("no check decided")
			}
			if v.Failed != tc.failed || v.Reason != tc.reason || !strings.Contains(v.Message, tc.text) {
				t.Errorf("verdict %+v, want failed=%v %s containing %q", *v, tc.failed, tc.reason, tc.text)
			}
		})
	}
}
