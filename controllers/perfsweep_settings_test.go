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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// sidecarImage lies beside the suite's injector image, so the image policy allows it.
const sidecarImage = "ghcr.io/dapr/daprd:1.14.4"

// finishDaprStep plays the kubelet for the sweep's run of step through Dapr: one
// repetition of the baseline at baseUs and of the Dapr path 400µs above it.
func finishDaprStep(sw *perfv1alpha1.PerfSweep, step int, baseUs int64) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: sw.Namespace, Name: fmt.Sprintf("%s-1-%d", sw.Name, step)}}
	Eventually(exists(run)).Should(BeTrue(), "the run of step %d", step)
	markAvailable(sw.Namespace, run.Name+"-target")
	run = latest(run)
	finishLoad(run, result.Summary{RequestedQPS: float64(run.Spec.Load.QPS),
		Runs: []result.Run{summaryRun(result.Baseline, 0, baseUs), summaryRun(result.Dapr, 0, baseUs+400)}}, true)
	Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
	return run
}

var _ = Describe("PerfSweep controller, a settings sweep", func() {
	It("measures each setting on its own run, and names the point the cluster's mTLS kept from being measured", func() {
		ns := newNamespace()
		// The suite's cluster has mTLS on: mtls-off cannot be measured there.
		sw := createSweep(ns, "features", func(s *perfv1alpha1.PerfSweepSpec) {
			s.Template.Spec.Dapr = perfv1alpha1.DaprSpec{TracingSamplingRate: "0.1"}
			s.Template.Spec.Load.Repetitions = 1
			s.Points = &perfv1alpha1.SweepPoints{Settings: []perfv1alpha1.SweepSetting{
				{Name: "mtls-off", MTLS: perfv1alpha1.MTLSDisabled},
				{Name: "trace-0", TracingSamplingRate: "0"},
				{Name: "grpc", AppProtocol: perfv1alpha1.ProtocolGRPC},
			}}
		})
		Eventually(func() []perfv1alpha1.SweepPointStatus { return sweepOf(sw).Status.Points }).Should(HaveLen(3))
		st := sweepOf(sw).Status
		Expect([]string{st.Points[0].Setting, st.Points[1].Setting, st.Points[2].Setting}).To(Equal([]string{"mtls-off", "trace-0", "grpc"}))
		Expect([]int32{st.Points[0].Step, st.Points[1].Step, st.Points[2].Step}).To(Equal([]int32{0, 2, 1}))

		By("mtls-off, measured first, fails MTLSMismatch and the sweep goes on")
		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Points[0].Phase }, 10*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		Expect(sweepOf(sw).Status.Points[0].Message).To(HavePrefix("MTLSMismatch: spec.dapr.mtls is Disabled but the cluster has mTLS Enabled"))

		By("grpc: the template with the app called over gRPC")
		target := deployment(ns, "features-1-1-target") // before the run ends: its cleanup deletes it
		Eventually(exists(target)).Should(BeTrue())
		Expect(target.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/app-protocol", "grpc"))
		grpc := finishDaprStep(sw, 1, 500)
		Expect(grpc.Spec.Protocol.App).To(Equal(perfv1alpha1.ProtocolGRPC))
		Expect(grpc.Spec.Dapr.TracingSamplingRate).To(Equal("0.1"), "the template's rate")

		By("trace-0: the run's own Configuration samples nothing")
		trace0 := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "features-1-2"}}
		Eventually(exists(trace0)).Should(BeTrue())
		Expect(latest(trace0).Spec.Dapr.TracingSamplingRate).To(Equal("0"))
		Expect(latest(trace0).Spec.Protocol.App).To(Equal(perfv1alpha1.ProtocolHTTP))
		tracing := daprObj("Configuration", ns, "features-1-2-tracing")
		Eventually(exists(tracing)).Should(BeTrue())
		rate, _, _ := unstructured.NestedString(tracing.Object, "spec", "tracing", "samplingRate")
		Expect(rate).To(Equal("0"))
		finishDaprStep(sw, 2, 600)

		Eventually(func() perfv1alpha1.Phase { return sweepOf(sw).Status.Phase }, 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		st = sweepOf(sw).Status
		Expect(st.Points[1].Setting).To(Equal("trace-0"))
		points := sweep.Load(suiteCtx, k8sClient, sweepOf(sw)).Points
		Expect(points[1].Unread).To(BeEmpty())
		Expect(points[1].Added).NotTo(BeNil())
		Expect(points[1].Added.P50.Duration).To(Equal(400 * time.Microsecond))
		Expect(st.Points[2].Phase).To(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionSucceeded).Message).To(Equal(
			"2 points measured, 1 failed. mtls-off: the cluster has mTLS Enabled (daprsystem Configuration); not measured"))
		Expect(st.Points[0].Passed).To(BeNil(), "no objective: a grid judges nothing")
	})

	It("measures a setting's sidecar image as the run's one variant", func() {
		ns := newNamespace()
		sw := createSweep(ns, "images", func(s *perfv1alpha1.PerfSweepSpec) {
			s.Template.Spec.Dapr = perfv1alpha1.DaprSpec{}
			s.Points = &perfv1alpha1.SweepPoints{Settings: []perfv1alpha1.SweepSetting{{Name: "next.1", SidecarImage: sidecarImage}}}
		})
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: sw.Name + "-1-0"}}
		Eventually(exists(run)).Should(BeTrue())
		Expect(latest(run).Spec.Variants).To(Equal([]perfv1alpha1.SidecarVariant{{Name: "next-1", SidecarImage: sidecarImage}}))
		target := deployment(ns, run.Name+"-target")
		Eventually(exists(target)).Should(BeTrue())
		Expect(target.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/sidecar-image", sidecarImage))
	})
})
