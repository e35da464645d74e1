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
	"math"
	"slices"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// sidecarCPU is the server sidecar's CPU accounting over the measured runs.
func sidecarCPU(res *perfv1alpha1.Result) perfv1alpha1.ContainerCPU {
	ExpectWithOffset(1, res.CPU).NotTo(BeNil(), "no CPU accounting from the kubelet's counters")
	for _, c := range res.CPU.Measured {
		if c.Role == "serverSidecar" {
			return c
		}
	}
	Fail("no serverSidecar in result.cpu.measured")
	return perfv1alpha1.ContainerCPU{}
}

// sidecarCost is a sidecar role's CPU per request in a result.
func sidecarCost(res *perfv1alpha1.Result, role string) perfv1alpha1.SidecarCost {
	for _, c := range res.SidecarCost {
		if c.Role == role {
			return c
		}
	}
	Fail("no " + role + " in result.sidecarCost")
	return perfv1alpha1.SidecarCost{}
}

// expectDaprdCost checks a sidecar's cost from daprd's own CPU counter, read at each
// repetition's edges: a figure per repetition, an interval from two of them, the idle floor
// from the repetitions that bypass the daprd (the baseline's) and the marginal cost above it,
// tagged with what it was measured under. kubeletWithin, when > 0, bounds how far the
// kubelet's figure may lie from it, in percent: a guard against reading the wrong process or
// unit, not a claim of agreement (docs/measurement.md has the measured agreement).
func expectDaprdCost(res *perfv1alpha1.Result, role string, reps int, kubeletWithin float64) {
	cost := sidecarCost(res, role)
	d := cost.Daprd
	ExpectWithOffset(1, d).NotTo(BeNil(), "%s: no cost from daprd's own counter: %+v", role, cost)
	GinkgoWriter.Printf("%s: daprd's counter %s per request (per repetition %v, low %v, high %v), idle %v, marginal %v; kubelet %v (%s%% apart); at %s rps, %s, throttled %s%%\n",
		role, d.CPUPerRequest.Duration, d.PerRepetition, d.Low, d.High, d.IdleCPU, d.MarginalPerRequest, cost.KubeletCPUPerRequest,
		d.KubeletDifferencePercent, cost.AtQPS, cost.Arrival, cost.ThrottledPercent)
	// The headline is daprd's own counter whenever it was read.
	ExpectWithOffset(1, cost.Source).To(Equal(perfv1alpha1.CostFromDaprd), role)
	ExpectWithOffset(1, cost.CPUPerRequest).To(Equal(d.CPUPerRequest), role)
	ExpectWithOffset(1, d.PerRepetition).To(HaveLen(reps), role)
	for _, c := range d.PerRepetition {
		ExpectWithOffset(1, c.Duration).To(BeNumerically(">", 0), role)
	}
	if reps > 1 {
		ExpectWithOffset(1, d.Low).NotTo(BeNil(), role)
		ExpectWithOffset(1, d.High).NotTo(BeNil(), role)
		ExpectWithOffset(1, d.Low.Duration).To(BeNumerically("<=", d.CPUPerRequest.Duration), role)
		ExpectWithOffset(1, d.High.Duration).To(BeNumerically(">=", d.CPUPerRequest.Duration), role)
	}
	ExpectWithOffset(1, d.IdleCPU).NotTo(BeNil(), "%s: the baseline's repetitions give the idle floor", role)
	ExpectWithOffset(1, d.MarginalPerRequest).NotTo(BeNil(), role)
	ExpectWithOffset(1, d.MarginalPerRequest.Duration).To(BeNumerically("<=", d.CPUPerRequest.Duration), role)
	ExpectWithOffset(1, cost.AtQPS).NotTo(BeEmpty(), role)
	ExpectWithOffset(1, cost.Arrival).NotTo(BeEmpty(), role)
	if kubeletWithin > 0 {
		ExpectWithOffset(1, d.KubeletDifferencePercent).NotTo(BeEmpty(), "%s: both CPU sources", role)
		ExpectWithOffset(1, cost.KubeletCPUPerRequest).NotTo(BeNil(), "%s: the kubelet's cross-check", role)
		ExpectWithOffset(1, math.Abs(percent(d.KubeletDifferencePercent))).To(BeNumerically("<=", kubeletWithin),
			"%s: the kubelet's %s against daprd's %s", role, cost.KubeletCPUPerRequest.Duration, d.CPUPerRequest.Duration)
	}
}

// expectPerPodCPU checks a split load's CPU: for the roles every load-tester pod has, the
// role's figure is the sum of its pods' own (±10%: rounding), and no pod's is more than a
// node could give (two pods' counters subtracted from each other once read 22,111m). A
// role without figures is said, not failed: the kubelet refreshes a container's counters
// every 10-15 s and a tester pod's end leaves short phases without a reading around them.
func expectPerPodCPU(res *perfv1alpha1.Result, pods int) {
	ExpectWithOffset(1, res.CPU).NotTo(BeNil(), "no CPU accounting")
	for _, role := range []string{"clientSidecar", "loadTester"} {
		var sum int64
		var names []string
		for _, c := range res.CPU.MeasuredPods {
			if c.Role == role {
				sum += c.CPU.MilliValue()
				names = append(names, c.Pod+"="+c.CPU.String())
				ExpectWithOffset(1, c.CPU.MilliValue()).To(BeNumerically("<", 2000), "%s of pod %s", role, c.Pod)
			}
		}
		ExpectWithOffset(1, len(names)).To(BeNumerically("<=", pods), "%s per pod: %+v", role, res.CPU.MeasuredPods)
		var total int64 = -1
		for _, c := range res.CPU.Measured {
			if c.Role == role {
				total = c.CPU.MilliValue()
			}
		}
		GinkgoWriter.Printf("%s: %dm in all; per pod %v\n", role, total, names)
		if len(names) < 2 {
			GinkgoWriter.Printf("%s: fewer than two pods' counters surrounded a measured phase\n", role)
			continue
		}
		ExpectWithOffset(1, math.Abs(float64(total-sum))).To(BeNumerically("<=", 0.1*float64(sum)+3), "%s: %dm against its pods' %dm", role, total, sum)
	}
}

func percent(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "percent %q", s)
	return v
}

var _ = Describe("CPU throttling from the kubelet's counters", func() {
	It("says a daprd limited to 100m at 1000 rps was CPU-limit bound, and one with 2 CPUs at 100 rps was not", func() {
		ns := newNamespace()
		// Twice what a 100m daprd sustained in the runs measured so far (355-574 rps). At
		// 500 rps its demand sat at the limit: throttled in 50-98% of its periods from run to
		// run, and in exactly 50.0% in one CI run, failing the check below.
		// Side by side, not queued: CFS throttling is a container's use against its own quota.
		// A busy node could starve tight's daprd below its 100m, but its request is its
		// limit (Kubernetes defaults one to the other), so its share is guaranteed, and
		// roomy's 100 rps adds little beside tight's 1000 (95.7% throttled side by side).
		tight := daprRun(ns, "tight", perfv1alpha1.ScenarioServiceInvocation, 1000, func(s *perfv1alpha1.PerfRunSpec) {
			s.Baseline = ptr.To(false)
			s.Exclusive = ptr.To(false)
			s.Load.Duration = &metav1.Duration{Duration: 60 * time.Second}
			s.Dapr.Sidecar.CPULimit = ptr.To(resource.MustParse("100m"))
		})
		roomy := daprRun(ns, "roomy", perfv1alpha1.ScenarioServiceInvocation, 100, func(s *perfv1alpha1.PerfRunSpec) {
			s.Baseline = ptr.To(false)
			s.Exclusive = ptr.To(false)
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second} // a phase metrics-server's windows barely cover
			s.Dapr.Sidecar.CPULimit = ptr.To(resource.MustParse("2"))
			s.Dapr.Sidecar.CPURequest = ptr.To(resource.MustParse("100m")) // a request of 2 CPUs fits no node here
		})
		for _, run := range []*perfv1alpha1.PerfRun{tight, roomy} {
			expectSucceeded(run, 8*time.Minute)
		}

		st := get(tight).Status
		c := meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionCPULimitBound)
		Expect(c).NotTo(BeNil(), "%s", describe(tight))
		GinkgoWriter.Printf("tight: %s: %s\n", c.Reason, c.Message)
		Expect(c.Status).To(Equal(metav1.ConditionTrue), "%s", c.Message)
		sc := sidecarCPU(resultOf(tight))
		GinkgoWriter.Printf("tight: serverSidecar %s CPU, %s%% of %d periods throttled (%s), over %ds; source %s\n",
			sc.CPU.String(), sc.ThrottledPeriodsPercent, sc.Periods, sc.Throttled.Duration, sc.Seconds, resultOf(tight).CPU.Source)
		Expect(percent(sc.ThrottledPeriodsPercent)).To(BeNumerically(">", 50))
		// Limit-bound, it still says what Dapr costs: CPU per request, and the rate its limit would carry.
		Expect(resultOf(tight).LimitBound).To(BeTrue(), "%s", describe(tight))
		cost := sidecarCost(resultOf(tight), "serverSidecar")
		GinkgoWriter.Printf("tight: serverSidecar %s CPU per request on %s, its limit would carry %s rps at 80%%; calibration %+v\n",
			cost.CPUPerRequest.Duration, cost.Node, cost.LimitProjectedQPS, st.Environment.Calibration)
		Expect(st.Environment.Calibration).NotTo(BeEmpty(), "each node of the run scores itself before the load")
		at := slices.IndexFunc(st.Environment.Calibration, func(c perfv1alpha1.NodeCalibration) bool { return c.Node == cost.Node })
		Expect(at).To(BeNumerically(">=", 0), "the sidecar's node has a calibration")
		Expect(cost.CPUPerRequest.Duration).To(BeNumerically(">", 0))
		Expect(strconv.ParseFloat(cost.LimitProjectedQPS, 64)).To(BeNumerically(">", 0))
		Expect(meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionSucceeded).Message).To(
			And(ContainSubstring("bounded by the CPU limit: "), MatchRegexp(`the CPU limit: [^;]*serverSidecar`)))
		// The counters' CPU over the 60 s phase and metrics-server's windows inside it agree.
		if ms := resultOf(tight).Resources; ms != nil && ms.ServerSidecar != nil {
			counted, sampled := float64(sc.CPU.MilliValue()), float64(ms.ServerSidecar.CPUAvg.MilliValue())
			GinkgoWriter.Printf("tight: serverSidecar counters %vm, metrics-server %vm\n", counted, sampled)
			Expect(math.Abs(counted-sampled) / sampled).To(BeNumerically("<=", 0.10))
		} else {
			Fail("metrics-server gave no serverSidecar figure for a 60 s phase: " + describe(tight))
		}

		st = get(roomy).Status
		c = meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionCPULimitBound)
		Expect(c).NotTo(BeNil(), "%s", describe(roomy))
		GinkgoWriter.Printf("roomy: %s: %s\n", c.Reason, c.Message)
		Expect(c.Status).To(Equal(metav1.ConditionFalse), "%s", c.Message)
		sc = sidecarCPU(resultOf(roomy))
		GinkgoWriter.Printf("roomy: serverSidecar %s CPU, %s%% of %d periods throttled, over %ds\n", sc.CPU.String(), sc.ThrottledPeriodsPercent, sc.Periods, sc.Seconds)
		Expect(percent(sc.ThrottledPeriodsPercent)).To(BeNumerically("<", 1))
		Expect(sc.CPU.MilliValue()).To(BeNumerically(">", 0), "a 20 s phase has a CPU figure")
		Expect(resultOf(roomy).LimitBound).To(BeFalse())
		roomyCost := sidecarCost(resultOf(roomy), "serverSidecar")
		GinkgoWriter.Printf("roomy: serverSidecar %s CPU per request\n", roomyCost.CPUPerRequest.Duration)
		Expect(roomyCost.CPUPerRequest.Duration).To(BeNumerically(">", 0))
	})
})
