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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

func createSweep(ns, name string, mutate func(*perfv1alpha1.PerfSweepSpec)) *perfv1alpha1.PerfSweep {
	sw := &perfv1alpha1.PerfSweep{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: perfv1alpha1.PerfSweepSpec{Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{
			Scenario:  perfv1alpha1.ScenarioServiceInvocation,
			Load:      perfv1alpha1.LoadSpec{QPS: 10, Duration: &metav1.Duration{Duration: 5 * time.Second}},
			Dapr:      perfv1alpha1.DaprSpec{Enabled: ptr.To(false)},
			Cleanup:   perfv1alpha1.CleanupAlways,
			Exclusive: ptr.To(false), // beside other specs' runs on the one fake node: see createRun
		}}},
	}
	mutate(&sw.Spec)
	Expect(k8sClient.Create(suiteCtx, sw)).To(Succeed())
	return sw
}

func sweepOf(sw *perfv1alpha1.PerfSweep) *perfv1alpha1.PerfSweep {
	out := &perfv1alpha1.PerfSweep{}
	ExpectWithOffset(1, k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(sw), out)).To(Succeed())
	return out
}

// finishStep plays the kubelet for the sweep's run of step, whose direct-path p50 is baseUs
// (actual qps 998.4, as summaryRun has it).
func finishStep(sw *perfv1alpha1.PerfSweep, step int, baseUs int64) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: sw.Namespace, Name: fmt.Sprintf("%s-1-%d", sw.Name, step)}}
	Eventually(exists(run)).Should(BeTrue(), "the run of step %d", step)
	markAvailable(sw.Namespace, run.Name+"-target")
	run = latest(run)
	finishLoad(run, result.Summary{RequestedQPS: float64(run.Spec.Load.QPS), Runs: []result.Run{summaryRun(result.Direct, 0, baseUs)}}, true)
	Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
	return run
}

var _ = Describe("PerfSweep controller", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("measures every point one after another, in spread order, and keeps the point the API server refuses", func() {
		sw := createSweep(ns, "conns", func(s *perfv1alpha1.PerfSweepSpec) {
			// 64 connections cannot all send at 10 qps for 5 s: that point's run is refused.
			s.Points = &perfv1alpha1.SweepPoints{Connections: []int32{1, 2, 4, 64}}
		})
		Eventually(func() []perfv1alpha1.SweepPointStatus { return sweepOf(sw).Status.Points }).Should(HaveLen(4))
		st := sweepOf(sw).Status
		Expect([]int32{st.Points[0].Step, st.Points[1].Step, st.Points[2].Step, st.Points[3].Step}).To(Equal([]int32{0, 2, 1, 3}))
		By("one point at a time: step 1 waits for step 0")
		Consistently(exists(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "conns-1-1"}}), time.Second).Should(BeFalse())
		first := finishStep(sw, 0, 400)
		Eventually(func() int32 { return sweepOf(sw).Status.Measured }).Should(Equal(int32(1)))
		status, msg := health("PerfSweep", sweepOf(sw))
		Expect([]string{status, msg}).To(Equal([]string{"Progressing", "1 of 4 points measured"}))
		Expect(first.Spec.Load.Connections).To(Equal(int32(1)))
		Expect(first.Labels).To(HaveKeyWithValue(perfv1alpha1.LabelSweep, "conns"))
		Expect(finishStep(sw, 1, 500).Spec.Load.Connections).To(Equal(int32(4)))
		Expect(finishStep(sw, 2, 450).Spec.Load.Connections).To(Equal(int32(2)))
		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Phase }, 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		st = sweepOf(sw).Status
		Expect(st.Measured).To(Equal(int32(4)))
		points := sweep.Load(suiteCtx, k8sClient, sweepOf(sw)).Points // each point's figures are its run's document's
		Expect(st.Points[0].Document).To(HavePrefix("conns-1-0-result-"))
		Expect(points[0].Latency.P50.Duration).To(Equal(400 * time.Microsecond))
		Expect(points[2].ActualQPS).To(Equal("998.4"))
		Expect(points[3].Document).To(BeEmpty(), "a point that failed before measuring has no document")
		Expect(st.Points[3].Phase).To(Equal(perfv1alpha1.PhaseFailed))
		Expect(st.Points[3].Message).To(ContainSubstring("connections must not exceed the requests one run sends"))
		Expect(meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionSucceeded).Message).To(Equal("3 points measured, 1 failed"))
		status, msg = health("PerfSweep", sweepOf(sw))
		Expect([]string{status, msg}).To(Equal([]string{"Healthy", "3 points measured, 1 failed"}))
	})

	It("fails, and Argo CD calls it Degraded, when no point can be measured", func() {
		sw := createSweep(ns, "nopoint", func(s *perfv1alpha1.PerfSweepSpec) {
			// Admission refuses a grid no point of which can run; an image the operator does
			// not allow is found only when each point's run starts.
			s.Template.Spec.Target.Image = "quay.io/someone/app:1"
			s.Points = &perfv1alpha1.SweepPoints{Connections: []int32{1, 2}}
		})
		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Phase }).Should(Equal(perfv1alpha1.PhaseFailed))
		status, msg := health("PerfSweep", sweepOf(sw))
		Expect(status).To(Equal("Degraded"))
		Expect(msg).To(Equal("NoPointMeasured: none of the 2 points could be measured; see status.points"))
		stale := sweepOf(sw).DeepCopy()
		stale.Generation++ // the grid fixed in git: the old verdict no longer answers the spec
		status, msg = health("PerfSweep", stale)
		Expect([]string{status, msg}).To(Equal([]string{"Progressing", "Waiting for the operator to run generation 2"}))
	})

	It("searches for the highest rate that meets the objective", func() {
		sw := createSweep(ns, "knee", func(s *perfv1alpha1.PerfSweepSpec) {
			// summaryRun's 998.4 qps meets 99% of any rate up to 1008: the knee.
			s.Search = &perfv1alpha1.RateSearch{StartQPS: 250, MaxQPS: 4000, MaxSteps: 6, PrecisionPercent: 10,
				Objective: perfv1alpha1.Thresholds{MinQPSPercent: ptr.To(int32(99)), MaxP99: &metav1.Duration{Duration: 5 * time.Millisecond}}}
		})
		var rates []int32
		for step := range 6 {
			rates = append(rates, finishStep(sw, step, 400).Spec.Load.QPS)
		}
		Expect(rates).To(Equal([]int32{250, 500, 1000, 2000, 1500, 1250}))
		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Phase }, 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		st := sweepOf(sw).Status
		Expect(st.MaxSustainableQPS).To(Equal(ptr.To[int32](1000)))
		Expect(st.FirstFailingQPS).To(Equal(ptr.To[int32](1250)))
		Expect(st.Points[3].Passed).To(Equal(ptr.To(false)))
		Expect(st.Points[3].Message).To(ContainSubstring("actual qps 998.4 (49.92%) (limit >= 99% of 2000): VIOLATED"), "in the words of the judge PerfRun thresholds use")
		Expect(meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionSucceeded).Reason).To(Equal(perfv1alpha1.ReasonRateFound))
	})
	It("does not count a run of a point's name that it did not create", func() {
		// Made beforehand by someone who may create PerfRuns, to forge the point's figure.
		forged := createRun(ns, "forged-1-0", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Enabled = ptr.To(false)
			s.Exclusive = ptr.To(false)
		})
		sw := createSweep(ns, "forged", func(s *perfv1alpha1.PerfSweepSpec) {
			s.Points = &perfv1alpha1.SweepPoints{Connections: []int32{1}}
		})
		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Phase }, 10*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		p := sweepOf(sw).Status.Points[0]
		Expect(p.Phase).To(Equal(perfv1alpha1.PhaseFailed))
		Expect(p.Message).To(ContainSubstring("PerfRun forged-1-0 exists and was not created by this sweep"))
		Expect(p.Document).To(BeEmpty(), "the forged run's result is not the point's")
		Expect(latest(forged).OwnerReferences).To(BeEmpty(), "the sweep neither adopts nor deletes it")
	})

	It("does not count a run of its own whose spec was changed after it made it", func() {
		sw := createSweep(ns, "edited", func(s *perfv1alpha1.PerfSweepSpec) {
			s.Points = &perfv1alpha1.SweepPoints{Connections: []int32{1}}
		})
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "edited-1-0"}}
		Eventually(exists(run)).Should(BeTrue())
		Eventually(func() error { // the controller writes the run meanwhile: retry on a conflict
			changed := latest(run)
			changed.Spec.Dapr.Sidecar.CPULimit = ptr.To(resource.MustParse("4")) // not what the point measures
			return k8sClient.Update(suiteCtx, changed)
		}).Should(Succeed())
		// The edit is a new generation: its target is applied again before its load starts.
		Eventually(func() int64 { return latest(run).Status.ObservedGeneration }).Should(Equal(int64(2)))
		finishStep(sw, 0, 400)
		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Phase }, 10*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		p := sweepOf(sw).Status.Points[0]
		Expect(p.Message).To(ContainSubstring("PerfRun edited-1-0's spec is not the one this sweep makes for the point"))
		Expect(p.Document).To(BeEmpty(), "an edited run's result is not the point's")
	})
})
