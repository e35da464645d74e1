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
	"cmp"
	"fmt"
	"os"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// expectSucceeded waits, at most within, until the run has Succeeded. A run that Failed
// ends the wait at once (it never turns Succeeded), and either failure says what the run
// and its pods were doing.
func expectSucceeded(run *perfv1alpha1.PerfRun, within time.Duration) {
	GinkgoHelper()
	Eventually(func() error {
		switch p := get(run).Status.Phase; p {
		case perfv1alpha1.PhaseSucceeded:
			return nil
		case perfv1alpha1.PhaseFailed:
			return StopTrying("the run Failed: it never turns Succeeded")
		default:
			return fmt.Errorf("phase %q", p)
		}
	}, within).Should(Succeed(), func() string { return explain(run) })
}

// explain is describe(run), where each of the run's pods stand (in the words the
// operator's own timeout messages use) and on which node: what a failed wait in CI must
// say for itself.
func explain(run *perfv1alpha1.PerfRun) string {
	s := run.Namespace + "/" + run.Name + ": " + describe(run)
	var pods corev1.PodList
	if err := k8sClient.List(ctx, &pods, client.InNamespace(run.Namespace), client.MatchingLabels{workload.LabelRun: run.Name}); err != nil {
		return s + "\n  pods: " + err.Error()
	}
	s += "\n  pods: " + diagnose.Describe(pods.Items)
	var nodes []string
	for _, p := range pods.Items {
		nodes = append(nodes, p.Name+" on "+cmp.Or(p.Spec.NodeName, "no node"))
	}
	if len(nodes) > 0 {
		s += "\n  nodes: " + strings.Join(nodes, ", ")
	}
	return s
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
	if stolen := stolenDuring(r); stolen != "" {
		fmt.Fprintf(f, "  (the hypervisor took %s of this machine's CPU while it ran)\n", stolen)
	}
})
