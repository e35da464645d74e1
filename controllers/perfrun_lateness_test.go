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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

var _ = Describe("A run whose load tester was late", func() {
	It("carries the rate but claims no added latency, and says why", func() {
		ns := newNamespace()
		run := createRun(ns, "late", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "late-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		// Every path carried the rate; the tester's own lateness on the Dapr path was 2.5 ms
		// at p90 over its requests, past the limit (a tenth of a ~600 µs baseline p50: the
		// 2 ms floor) and within the 16 ms gap (so no path is Saturated).
		runs := []result.Run{
			summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000),
			summaryRun(result.Baseline, 1, 500), summaryRun(result.Dapr, 1, 1100),
			summaryRun(result.Baseline, 2, 700), summaryRun(result.Dapr, 2, 1200),
		}
		sum := result.Summary{RequestedQPS: 1000, GapUs: 16_000, Runs: runs}
		recs := map[latency.Key]*latency.Recorded{}
		for _, r := range runs {
			recs[latency.Key{Variant: r.Variant, Rep: r.Rep}] = recordingOf(r)
		}
		latency.Summarize(&sum, recs, result.StandardPercentiles)
		for i := range sum.Merged {
			lag := int64(300)
			if sum.Merged[i].Variant == result.Dapr {
				lag = 2500
			}
			sum.Merged[i].TesterLag = result.Spectrum{Percentiles: []result.Percentile{{P: 90, Us: lag}, {P: 99, Us: 2 * lag}}}
		}
		finishLoad(run, sum, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		res := resultOf(run)
		Expect(res.Latency).NotTo(BeNil(), "the latency measured stands, with the tester's lateness in it")
		Expect(res.Added).To(BeNil())
		Expect(res.TesterLatenessLimit.Duration).To(Equal(result.LatenessFloor))
		Expect(res.AddedNotClaimed).To(And(ContainSubstring("dapr path p90 2.5ms"), ContainSubstring("no added latency is claimed")))
		Expect(conditionOf(run, perfv1alpha1.ConditionSaturated).Status).To(Equal(metav1.ConditionFalse), "the rate was carried")
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).To(ContainSubstring("the load tester's own lateness passed its limit"))
	})
})
