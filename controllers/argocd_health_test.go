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
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/testenv"
)

// health runs an Argo CD health script (config/argocd/<group>/<kind>/health.lua) as Argo CD
// runs one from argocd-cm (argocd_lua_test.go): the object as the global `obj`, the
// script's returned table as the verdict.
func health(kind string, obj runtime.Object) (status, message string) {
	script, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "argocd", "perf.daprbench.io", kind, "health.lua"))
	Expect(err).NotTo(HaveOccurred())
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	Expect(err).NotTo(HaveOccurred())
	status, message, err = argoHealth(string(script), u)
	Expect(err).NotTo(HaveOccurred())
	return status, message
}

var _ = Describe("Argo CD health scripts", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("read the status objects the controllers write", func() {
		gated := func(failRun bool) func(*perfv1alpha1.PerfRunSpec) {
			return func(s *perfv1alpha1.PerfRunSpec) {
				s.Baseline = ptr.To(false)
				s.Thresholds = &perfv1alpha1.Thresholds{MaxP99: &metav1.Duration{Duration: 2 * time.Millisecond}, FailRun: failRun}
			}
		}
		finishWithP99 := func(run *perfv1alpha1.PerfRun, baseUs int64) *perfv1alpha1.PerfRun {
			markAvailable(ns, run.Name+"-target")
			finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, baseUs)}}, true)
			Eventually(func() bool { return latest(run).Finished() }, 10*time.Second).Should(BeTrue())
			return latest(run)
		}

		provisioning := createRun(ns, "provisioning", perfv1alpha1.ScenarioServiceInvocation)
		Eventually(phaseOf(provisioning)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		mismatch := createRun(ns, "mismatch", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Dapr.MTLS = perfv1alpha1.MTLSDisabled })
		Eventually(phaseOf(mismatch)).Should(Equal(perfv1alpha1.PhaseFailed))
		healthy := finishWithP99(createRun(ns, "healthy", perfv1alpha1.ScenarioServiceInvocation, gated(false)), 1000) // p99 1.3ms
		violated := finishWithP99(createRun(ns, "violated", perfv1alpha1.ScenarioServiceInvocation, gated(false)), 2000)
		failedGate := finishWithP99(createRun(ns, "failed-gate", perfv1alpha1.ScenarioServiceInvocation, gated(true)), 2000)
		// Inconclusive gates end Succeeded (failRun fails only a violation), and run --wait
		// exits 3 for them: Argo CD must not call them Healthy. A limit inside the added
		// latency's interval (Dapr's 2 ms gate against repetitions of 1.8, 2.22 and 2 ms)...
		straddling := createRun(ns, "straddling", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Repetitions = 3
			s.Thresholds = &perfv1alpha1.Thresholds{MaxAddedP90: &metav1.Duration{Duration: 2 * time.Millisecond}, FailRun: true}
		})
		markAvailable(ns, "straddling-target")
		var reps []result.Run
		for i, added := range []int64{1800, 2220, 2000} {
			reps = append(reps, summaryRun(result.Baseline, i, 500), summaryRun(result.Dapr, i, 500+added))
		}
		finishLoad(straddling, result.Summary{RequestedQPS: 1000, Runs: reps}, true)
		Eventually(func() bool { return latest(straddling).Finished() }, 10*time.Second).Should(BeTrue())
		// ...and a figure the threshold needs that was not measured (envtest serves no metrics API).
		unmeasured := finishWithP99(createRun(ns, "unmeasured", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Baseline = ptr.To(false)
			s.Thresholds = &perfv1alpha1.Thresholds{MaxSidecarCPUPer1kQPS: ptr.To(resource.MustParse("50m"))}
		}), 1000)
		for _, run := range []*perfv1alpha1.PerfRun{latest(straddling), unmeasured} {
			Expect(run.Status.Phase).To(Equal(perfv1alpha1.PhaseSucceeded), run.Name)
			Expect(meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionThresholdsMet)).To(
				HaveField("Reason", perfv1alpha1.ReasonInconclusive), run.Name)
		}
		stale := healthy.DeepCopy()
		stale.Generation++ // a new spec the operator has not observed yet
		suspended := createSchedule(ns, "suspended", func(s *perfv1alpha1.PerfScheduleSpec) { s.Suspend = true })
		invalid := createSchedule(ns, "invalid", func(s *perfv1alpha1.PerfScheduleSpec) { s.Schedule = "0 25 * * *" })
		idle := createSchedule(ns, "idle")
		Eventually(scheduled(invalid)).Should(HavePrefix(perfv1alpha1.ReasonInvalidSchedule))
		Eventually(func() *metav1.Time { return scheduleOf(idle).Status.NextScheduleTime }).ShouldNot(BeNil())
		staleSchedule := scheduleOf(invalid).DeepCopy()
		staleSchedule.Generation++ // the schedule fixed in git, not yet handled

		table := []struct {
			name, kind string
			obj        runtime.Object
			status     string
			message    string
		}{
			{"provisioning run", "PerfRun", latest(provisioning), "Progressing", "Provisioning: waiting for Deployments"},
			{"failed run", "PerfRun", latest(mismatch), "Degraded", "MTLSMismatch: spec.dapr.mtls is Disabled"},
			{"succeeded, thresholds met", "PerfRun", healthy, "Healthy", "29952 requests at 998.4/1000 qps"}, // three repetitions (the default) of 9984
			{"succeeded, threshold violated", "PerfRun", violated, "Degraded", "Thresholds violated: p99 2.301ms (limit <= 2ms): VIOLATED"},
			{"failed by a threshold (failRun)", "PerfRun", latest(failedGate), "Degraded", "ThresholdsViolated: thresholds violated (spec.thresholds.failRun): p99 2.301ms (limit <= 2ms): VIOLATED"},
			{"limit inside the interval", "PerfRun", latest(straddling), "Degraded", "Thresholds inconclusive (not shown met): added p90"},
			{"gated figure not measured", "PerfRun", unmeasured, "Degraded", "Thresholds inconclusive (not shown met): sidecar CPU per 1000 rps not measured (limit <= 50m): inconclusive"},
			{"spec changed, not yet observed", "PerfRun", stale, "Progressing", "Waiting for the operator to run generation 2"},
			{"suspended schedule", "PerfSchedule", scheduleOf(suspended), "Suspended", "spec.suspend is true"},
			{"unparsable schedule", "PerfSchedule", scheduleOf(invalid), "Degraded", `spec.schedule "0 25 * * *"`},
			{"schedule with no run yet", "PerfSchedule", scheduleOf(idle), "Healthy", "No run yet"},
			{"schedule changed, not yet handled", "PerfSchedule", staleSchedule, "Progressing", "Waiting for the operator to handle generation 2"},
		}
		GinkgoWriter.Printf("%-32s %-12s %-12s %s\n", "object", "kind", "health", "message")
		var wrong []string // every row that reads wrong, not only the first
		for _, tc := range table {
			status, msg := health(tc.kind, tc.obj)
			GinkgoWriter.Printf("%-32s %-12s %-12s %.90s\n", tc.name, tc.kind, status, msg)
			if status != tc.status || !strings.Contains(msg, tc.message) {
				wrong = append(wrong, fmt.Sprintf("%s: %s %q, want %s %q", tc.name, status, msg, tc.status, tc.message))
			}
		}
		Expect(wrong).To(BeEmpty())
	})
})
