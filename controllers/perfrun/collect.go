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

package perfrun

import (
	"context"
	"fmt"
	"strconv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// collect gathers, once, the evidence a finished load is judged on: the leader's report
// (its termination message points to it in its log), the usage and counters recorded while
// it ran (waiting for their last readings), the profiles (kept in a ConfigMap), the pods'
// restarts and disturbances, and a scheduled run's history. It judges nothing: judge does.
func (r *Reconciler) collect(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	job, err := s.Job(ctx)
	if err != nil || job == nil {
		return waitFor(r.PollInterval), err
	}
	testers, err := s.Pods(ctx, workload.RoleLoadTester)
	if err != nil {
		return proceed, err
	}
	targets, err := s.Pods(ctx, workload.RoleTarget)
	if err != nil {
		return proceed, err
	}
	r.recordNodes(run, targets, testers)
	r.observeDisturbances(ctx, s, testers)
	msg, term := leaderPointer(testers)
	if term == nil && r.Clock.Now().Before(jobFinishedAt(job).Add(terminationGrace)) {
		// The Job's completion can reach the cache before its pod's terminated state: wait
		// for the pointer rather than call a finished run unreadable.
		return waitFor(r.PollInterval), nil
	}
	var sum *result.Summary
	var rep *result.Report
	var lost error
	pointer, decodeErr := result.DecodePointer([]byte(msg))
	if decodeErr == nil {
		var wait bool
		if rep, lost, wait = r.readReport(ctx, run, testers, pointer); wait {
			return waitFor(r.PollInterval), nil
		}
	}
	if rep != nil {
		sum = &rep.Summary
		if r.awaitingTail(run, sum, jobFinishedAt(job)) {
			r.sampleUsage(ctx, s, testers)
			return waitFor(r.PollInterval), nil
		}
		if len(sum.Runs) > 0 {
			var kept bool
			if s.profiles, kept = r.keepProfiles(ctx, run, rep.Profiles); !kept {
				return waitFor(r.PollInterval), nil
			}
			s.histograms = documentHistograms(run, rep.Histograms)
		}
	}
	// A scheduled run's history is read before the recorded usage is taken over: a failed
	// read retries the pass with nothing lost.
	var history *assess.History
	if sum != nil && len(sum.Runs) > 0 {
		if history, err = r.regressionEvidence(ctx, run); err != nil {
			return proceed, err
		}
	}
	ev := &assess.Evidence{
		Load: assess.Load{JobFailed: jobCondition(job, batchv1.JobFailed), FirstFailure: firstFailure(testers), Terminated: term, DaprdEndedBadly: daprdEndedBadly(testers, term),
			Message: msg, Summary: sum, Faults: faultsOf(rep), DaprdGauges: gaugesOf(rep), LatencyWindows: latencyWindowsOf(rep), DecodeErr: decodeErr, ReportLost: lost, PodsDescribed: diagnose.Describe(testers), Waited: terminationGrace},
		Restarts: diagnose.Restarts(targets, testers), TesterNodes: testerNodes(testers), Live: run.Status.LiveUsage,
		Sampled: r.Usage != nil, MetricsFailed: metricsFailed(run), Disturbances: run.Status.Disturbances, History: history,
		VariantResiliencies: variantResiliencies(run),
	}
	if r.Counters != nil {
		ev.CountersSource = r.Counters.Describe()
	} else {
		ev.CountersOff = "the operator reads no kubelet counters (its --kubelet-counters=false, Helm value kubeletCounters): " +
			"CPU figures are metrics-server's windows only, and whether a CPU limit throttled the run is unknown"
	}
	s.evidence = ev
	return proceed, nil
}

// faultsOf is what the report says of spec.faults (nothing without a report).
func faultsOf(rep *result.Report) report.Faults {
	if rep == nil {
		return report.Faults{}
	}
	return report.Faults{Timelines: rep.Timelines, Applied: rep.Faults}
}

// gaugesOf is the daprds' gauges the report holds (nothing without a report).
func gaugesOf(rep *result.Report) []result.DaprdGauges {
	if rep == nil {
		return nil
	}
	return rep.DaprdGauges
}

// latencyWindowsOf is each measured run's latency in windows the report holds (nothing
// without a report).
func latencyWindowsOf(rep *result.Report) []result.LatencyWindows {
	if rep == nil {
		return nil
	}
	return rep.LatencyWindows
}

// documentHistograms are the report's histograms as the document keeps them: each path by
// its name and code.
func documentHistograms(run *perfv1alpha1.PerfRun, h result.Histograms) []perfv1alpha1.PathHistograms {
	var out []perfv1alpha1.PathHistograms
	for _, p := range h.Paths {
		out = append(out, perfv1alpha1.PathHistograms{Path: report.PathName(run, p.Variant), Variant: string(p.Variant), Latency: p.Latency, Service: p.Service})
	}
	return out
}

// leaderPointer is the load tester's termination message, the pointer to its report: a
// group's is its leader's (pod 0), the others' point to their own share. term is nil until
// the leader has terminated.
func leaderPointer(testers []corev1.Pod) (msg string, term *corev1.ContainerStateTerminated) {
	for i := range testers {
		if leadsGroup(&testers[i]) {
			if msg, term = diagnose.TerminationMessage(&testers[i], workload.ContainerTester); term != nil {
				return msg, term
			}
		}
	}
	return msg, nil
}

// daprdEndedBadly says how the leader's daprd ended, when it exited non-zero at or after its
// load tester's end (both to the second the kubelet stamps): a daprd told to stop once the
// load was over. Empty for one that ended well, or earlier: that one died under the load.
func daprdEndedBadly(testers []corev1.Pod, tester *corev1.ContainerStateTerminated) string {
	if tester == nil {
		return ""
	}
	for i := range testers {
		if !leadsGroup(&testers[i]) {
			continue
		}
		_, d := diagnose.TerminationMessage(&testers[i], workload.ContainerDaprd)
		if d != nil && d.ExitCode != 0 && !d.FinishedAt.Before(&tester.FinishedAt) {
			return fmt.Sprintf("its daprd exited %d (%s) at %s, after the load tester ended", d.ExitCode, d.Reason, d.FinishedAt.UTC().Format(time.TimeOnly))
		}
	}
	return ""
}

// leadsGroup reports whether a load-tester pod writes the run's summary: pod 0 of a group,
// or the one pod of a Job without completion indexes.
func leadsGroup(pod *corev1.Pod) bool {
	i, indexed := pod.Annotations[batchv1.JobCompletionIndexAnnotation]
	return !indexed || i == "0"
}

// testerNodes is the node of each load-tester pod of a group, by completion index.
func testerNodes(testers []corev1.Pod) map[int32]string {
	nodes := map[int32]string{}
	for _, p := range testers {
		if i, err := strconv.Atoi(p.Annotations[batchv1.JobCompletionIndexAnnotation]); err == nil {
			nodes[int32(i)] = p.Spec.NodeName
		}
	}
	return nodes
}

// firstFailure is, in a load-tester group, the error of the pod that failed first: the
// Job controller stops the others when one fails, and their errors only say so. Empty for
// a single pod or when no pod's termination message gives an error.
func firstFailure(testers []corev1.Pod) string {
	var first *corev1.ContainerStateTerminated
	detail := ""
	for i := range testers {
		p := &testers[i]
		index, indexed := p.Annotations[batchv1.JobCompletionIndexAnnotation]
		if !indexed {
			continue
		}
		msg, term := diagnose.TerminationMessage(p, workload.ContainerTester)
		if term == nil || term.ExitCode == 0 || (first != nil && !term.FinishedAt.Before(&first.FinishedAt)) {
			continue
		}
		if p, err := result.DecodePointer([]byte(msg)); err == nil && p.Error != "" {
			first, detail = term, fmt.Sprintf("pod %s of the group: %s", index, p.Error)
		}
	}
	return detail
}
