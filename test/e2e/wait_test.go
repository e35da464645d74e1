//go:build e2e

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

package e2e

import (
	"fmt"
	"os"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// expectSucceeded waits, at most within, until the run has Succeeded. A run that Failed
// ends the wait at once (it never turns Succeeded), and either failure says what the run
// and its pods were doing.
func expectSucceeded(run *perfv1alpha1.PerfRun, within time.Duration, every ...time.Duration) {
	GinkgoHelper()
	intervals := []any{within}
	for _, e := range every {
		intervals = append(intervals, e)
	}
	Eventually(func() error {
		switch p := get(run).Status.Phase; p {
		case perfv1alpha1.PhaseSucceeded:
			return nil
		case perfv1alpha1.PhaseFailed:
			return StopTrying("the run Failed: it never turns Succeeded")
		default:
			return fmt.Errorf("phase %q", p)
		}
	}, intervals...).Should(Succeed(), func() string { return diagnose(run) })
}

// diagnose is describe(run) and, for each pod of the run, where it runs and why a
// container is not running: what a failed wait in CI must say for itself.
func diagnose(run *perfv1alpha1.PerfRun) string {
	var b strings.Builder
	b.WriteString(run.Namespace + "/" + run.Name + ": " + describe(run))
	var pods corev1.PodList
	if err := k8sClient.List(ctx, &pods, client.InNamespace(run.Namespace), client.MatchingLabels{workload.LabelRun: run.Name}); err != nil {
		return b.String() + "\n  pods: " + err.Error()
	}
	for _, p := range pods.Items {
		fmt.Fprintf(&b, "\n  pod %s on %q: %s", p.Name, p.Spec.NodeName, p.Status.Phase)
		for _, c := range p.Status.Conditions {
			if c.Status != corev1.ConditionTrue && c.Message != "" {
				fmt.Fprintf(&b, "; %s: %s", c.Type, c.Message)
			}
		}
		for _, cs := range append(p.Status.InitContainerStatuses, p.Status.ContainerStatuses...) {
			switch {
			case cs.State.Waiting != nil:
				fmt.Fprintf(&b, "; %s waiting %s %s", cs.Name, cs.State.Waiting.Reason, cs.State.Waiting.Message)
			case cs.State.Terminated != nil && cs.State.Terminated.ExitCode != 0:
				fmt.Fprintf(&b, "; %s exited %d %s", cs.Name, cs.State.Terminated.ExitCode, cs.State.Terminated.Reason)
			case cs.RestartCount > 0:
				fmt.Fprintf(&b, "; %s restarted %d times", cs.Name, cs.RestartCount)
			}
		}
	}
	return b.String()
}

// A failed spec's message is also appended to $DAPRBENCH_E2E_FAILURES when set: CI prints
// that file last, after the cluster is torn down, where the tail of its log is read.
var _ = ReportAfterEach(func(r SpecReport) {
	path := os.Getenv("DAPRBENCH_E2E_FAILURES")
	if path == "" || !r.Failed() {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		GinkgoWriter.Printf("cannot record the failure in %s: %v\n", path, err)
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "FAILED %s\n  at %s\n%s\n", r.FullText(), r.FailureLocation(), r.FailureMessage())
})
