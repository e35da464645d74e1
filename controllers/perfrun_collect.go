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

package controllers

import (
	"context"
	"fmt"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// collect reads the finished Job's summary from its pod's termination message and writes
// status.result. A failed load tester's partial result is kept.
func (r *PerfRunReconciler) collect(ctx context.Context, s *runScope) (stepResult, error) {
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
	msg, term := leaderSummary(testers)
	if term == nil && r.Clock.Now().Before(jobFinishedAt(job).Add(terminationGrace)) {
		// The Job's completion can reach the cache before its pod's terminated state: wait
		// for the summary rather than call a finished run unreadable.
		return waitFor(r.PollInterval), nil
	}
	sum, decodeErr := result.Decode([]byte(msg))
	if decodeErr == nil && r.awaitingTail(run, sum, jobFinishedAt(job)) {
		r.sampleUsage(ctx, s, testers)
		return waitFor(r.PollInterval), nil
	}
	if decodeErr != nil {
		sum = nil
	}
	if sum != nil && len(sum.Runs) > 0 && !r.keepHistograms(ctx, run, testers) && r.retryHistograms(ctx, run) {
		return waitFor(r.PollInterval), nil
	}
	live := r.takeLiveUsage(run)
	if sum != nil && len(sum.Runs) > 0 {
		run.Status.Result = report.Build(run, report.Inputs{Summary: sum, Restarts: diagnose.Restarts(targets, testers),
			TesterNodes: testerNodes(testers), Usage: r.usageByVariant(run, live, sum), CPU: r.accountCPU(run, live, sum)})
		r.judgeCPU(run, live)
		r.judgeUsage(run, live, sum)
	}
	o := loadOutcome{jobFailed: jobCondition(job, batchv1.JobFailed), firstFailure: firstFailure(testers), terminated: term,
		message: msg, summary: sum, decodeErr: decodeErr, podsDescribed: diagnose.Describe(testers)}
	if sum != nil {
		o.missing = missingVariants(run, sum)
	}
	return stopHere, r.conclude(ctx, run, &o)
}

// leaderSummary is the load tester's termination message: a group's is its leader's (pod
// 0), the others' hold only their own share. term is nil until the leader has terminated.
func leaderSummary(testers []corev1.Pod) (msg string, term *corev1.ContainerStateTerminated) {
	for i := range testers {
		if leadsGroup(&testers[i]) {
			if msg, term = diagnose.TerminationMessage(&testers[i], workload.ContainerTester); term != nil {
				return msg, term
			}
		}
	}
	return msg, nil
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
// a single pod or when no pod's summary gives an error.
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
		if sum, err := result.Decode([]byte(msg)); err == nil && sum.Error != "" {
			first, detail = term, fmt.Sprintf("pod %s of the group: %s", index, sum.Error)
		}
	}
	return detail
}

// missingVariants says what of the spec's measurements a summary lacks: a variant, or a
// repetition of one (a result without its baseline is not the result asked for). Empty: none.
func missingVariants(run *perfv1alpha1.PerfRun, sum *result.Summary) string {
	if len(sum.Runs) == 0 {
		return "it measured nothing"
	}
	want := []result.Variant{report.MeasuredVariant(run)}
	if run.Spec.BaselineEnabled() {
		want = append(want, result.Baseline)
	}
	reps := int(max(run.Spec.Load.Repetitions, 1))
	for _, v := range want {
		m, ok := repetitions.Of(sum, v)
		if !ok || m.Reps < reps {
			return fmt.Sprintf("it holds %d of the %d repetitions of the %s path the spec asks for", m.Reps, reps, v)
		}
	}
	return ""
}
