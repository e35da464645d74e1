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
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// shortTemplate is a run short enough to sweep on this machine, through Dapr unless dapr
// is false. Usage needs runs of 25 s or more: a whole 10 s metrics window, 2 s from either
// edge, plus the up to 10 s before the first one starts.
func shortTemplate(qps int32, dapr bool, d time.Duration) perfv1alpha1.PerfRunTemplate {
	return perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{
		Scenario: perfv1alpha1.ScenarioServiceInvocation,
		// One repetition per point (the default is 3) keeps CI's e2e time.
		Load: perfv1alpha1.LoadSpec{QPS: qps, Duration: &metav1.Duration{Duration: d}, Repetitions: 1,
			Warmup: &metav1.Duration{Duration: 2 * time.Second}},
		Dapr: perfv1alpha1.DaprSpec{Enabled: ptr.To(dapr), Sidecar: perfv1alpha1.SidecarSpec{CPULimit: ptr.To(resource.MustParse("500m"))}},
	}}
}

func sweepDone(sw *perfv1alpha1.PerfSweep) func() perfv1alpha1.Phase {
	return func() perfv1alpha1.Phase {
		out := &perfv1alpha1.PerfSweep{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sw), out)).To(Succeed())
		*sw = *out
		return out.Status.Phase
	}
}

// expectSweepClaimed is expectClaimed for a sweep: waits, at most within, until sw has
// Succeeded, and when a point's run claimed no added latency for the machine's sake, makes
// the sweep once more (each point is a run of its own); sw then holds the second, whose
// every point must claim (or the spec is not judged on a busy host, as expectClaimed's).
func expectSweepClaimed(sw *perfv1alpha1.PerfSweep, within time.Duration) {
	GinkgoHelper()
	again := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: sw.Name, Namespace: sw.Namespace}, Spec: *sw.Spec.DeepCopy()}
	Eventually(sweepDone(sw), within, 2*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded), describeSweep(sw))
	why := sweepWithheld(sw)
	if why == "" {
		return
	}
	AddReportEntry(madeAgainEntry, sw.Name+": "+why)
	GinkgoWriter.Printf("sweep %s/%s: a point claimed no added latency for the machine's sake, so it is made once more: %s\n", sw.Namespace, sw.Name, why)
	deleteAndAwaitGone(sw)
	Expect(k8sClient.Create(ctx, again)).To(Succeed())
	*sw = *again
	Eventually(sweepDone(sw), within, 2*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded), describeSweep(sw))
	notJudgedOnABusyHost(why, sweepWithheld(sw))
}

// sweepWithheld is the first point run's reason for withholding its added latency, when
// the reason is the machine's.
func sweepWithheld(sw *perfv1alpha1.PerfSweep) string {
	for _, p := range sw.Status.Points {
		// Only a point whose run finished and kept its document has a result to read; the
		// others are the sweep's own trouble, which its wait reports.
		if p.Run == "" || p.Phase != perfv1alpha1.PhaseSucceeded || p.Document == "" {
			continue
		}
		if why := withheldForTheMachine(resultOf(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: sw.Namespace, Name: p.Run}})); why != "" {
			return p.Run + ": " + why
		}
	}
	return ""
}

func describeSweep(sw *perfv1alpha1.PerfSweep) func() string {
	return func() string {
		var b strings.Builder
		for _, c := range sw.Status.Conditions {
			fmt.Fprintf(&b, "%s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
		}
		for _, p := range sw.Status.Points {
			fmt.Fprintf(&b, "step %d qps %d conns %d setting %q: %s %s %s\n", p.Step, p.QPS, p.Connections, p.Setting, p.Phase, p.Document, p.Message)
		}
		return b.String()
	}
}

var _ = Describe("PerfSweep on a real cluster", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	// One sweep checks both axes it crosses: a connections list of one (applied to every
	// point) crossed with two tracing settings. 16 connections at 200 rps leave 80 ms
	// between one connection's slots (8 left 40 ms, which a path's p99 nearly reached in
	// the four-path spec on a busy host). The connections axis alone, and wider
	// crossings, are envtest's (controllers/perfsweep_controller_test.go); here each point is
	// a real run through Dapr, so two points pay for it.
	It("sweeps tracing 0 and 1 at 16 connections through real Dapr, a PerfRun per point with its own Configuration's rate, added latency and usage at each", func() {
		tpl := shortTemplate(200, true, 25*time.Second)
		sw := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "features", Namespace: ns}, Spec: perfv1alpha1.PerfSweepSpec{
			Template: tpl, Points: &perfv1alpha1.SweepPoints{Connections: []int32{16}, Settings: []perfv1alpha1.SweepSetting{
				{Name: "trace-0", TracingSamplingRate: "0"}, {Name: "trace-1", TracingSamplingRate: "1"}}}}}
		Expect(k8sClient.Create(ctx, sw)).To(Succeed())
		start := time.Now()
		expectSweepClaimed(sw, 6*time.Minute)
		GinkgoWriter.Printf("2-point sweep through Dapr took %v\n%s", time.Since(start).Round(time.Second), describeSweep(sw)())
		Expect(sw.Status.Points).To(HaveLen(2))
		want := map[string]string{"trace-0": "0", "trace-1": "1"}
		for _, p := range sweep.Load(ctx, k8sClient, sw).Points { // each point's figures: its run's result document's
			Expect(p.Unread).To(BeEmpty())
			Expect(p.Phase).To(Equal(perfv1alpha1.PhaseSucceeded), "%s", p.Message)
			Expect(p.Errors).To(BeZero())
			Expect(p.Connections).To(Equal(int32(16)))
			Expect(p.Latency.P90.Duration).To(BeNumerically(">", p.Baseline.P90.Duration), "two sidecars cost more than none")
			Expect(p.AddedLow).NotTo(BeNil(), "point %s: %s", p.Setting, p.Message)
			Expect(p.AddedLow.P90.Duration).To(BeNumerically(">", 0))
			Expect(p.SidecarCPUPer1kQPS).NotTo(BeNil())
			Expect(want).To(HaveKey(p.Setting))
			// The run's own Dapr Configuration, which its sidecars used, as the run recorded it
			// from the object it wrote (cleaned up since: its pods would sit beside the next
			// point's measured phases).
			run := &perfv1alpha1.PerfRun{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: p.Run}, run)).To(Succeed())
			Expect(run.Status.Environment.DaprConfigurations).To(Equal([]perfv1alpha1.DaprConfigurationRecord{
				{Name: p.Run + "-tracing", OwnedByRun: true, TracingSamplingRate: want[p.Setting]}}), "point %s", p.Setting)
			delete(want, p.Setting)
		}
		Expect(want).To(BeEmpty(), "one point per setting")

		var runs perfv1alpha1.PerfRunList
		Expect(k8sClient.List(ctx, &runs, client.InNamespace(ns), client.MatchingLabels{perfv1alpha1.LabelSweep: "features"})).To(Succeed())
		Expect(runs.Items).To(HaveLen(2))
		for _, r := range runs.Items {
			Expect(r.Status.StartTime).NotTo(BeNil())
			Expect(r.Spec.Load.Connections).To(Equal(int32(16)), "the point's connections reach its run")
		}
		first, second := runs.Items[0], runs.Items[1]
		if first.Status.StartTime.After(second.Status.StartTime.Time) {
			first, second = second, first
		}
		Expect(second.Status.StartTime.Time).NotTo(BeTemporally("<", first.Status.CompletionTime.Time), "points never overlap")
	})

	It("finds the highest rate the direct path sustains within an objective", func() {
		sw := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "maxrate", Namespace: ns}, Spec: perfv1alpha1.PerfSweepSpec{
			Template: shortTemplate(500, false, 10*time.Second),
			// Two steps (500, then 1000 when it passes): each is a run of its own, ~37 s here; a
			// third doubled the search's time and checked nothing the second does not.
			Search: &perfv1alpha1.RateSearch{StartQPS: 500, MaxQPS: 16000, MaxSteps: 2, PrecisionPercent: 10,
				Objective: perfv1alpha1.Thresholds{MaxP99: &metav1.Duration{Duration: 50 * time.Millisecond}, MinQPSPercent: ptr.To(int32(99))}}}}
		Expect(k8sClient.Create(ctx, sw)).To(Succeed())
		start := time.Now()
		Eventually(sweepDone(sw), 8*time.Minute, 2*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded), describeSweep(sw))
		GinkgoWriter.Printf("direct path: highest sustained %d qps in %v\n%s", ptr.Deref(sw.Status.MaxSustainableQPS, 0),
			time.Since(start).Round(time.Second), describeSweep(sw)())
		Expect(len(sw.Status.Points)).To(BeNumerically("<=", 2))
		Expect(*sw.Status.MaxSustainableQPS).To(BeNumerically(">=", 500))
		for _, p := range sweep.Load(ctx, k8sClient, sw).Points {
			Expect(p.Passed).NotTo(BeNil())
			if *p.Passed {
				Expect(p.QPS).To(BeNumerically("<=", *sw.Status.MaxSustainableQPS))
				Expect(p.Latency.P99.Duration).To(BeNumerically("<=", 50*time.Millisecond))
			} else {
				Expect(p.Message).NotTo(BeEmpty())
				Expect(p.QPS).To(BeNumerically(">", *sw.Status.MaxSustainableQPS))
			}
		}
	})
})
