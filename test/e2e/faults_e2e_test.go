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
	"slices"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// expectKilledAndReplaced: the operator deleted the run's pod of the killed role in each of
// two Dapr phases and its Deployment replaced it in time; the pod deleted in the second
// phase is the one that replaced the first's; no request failed before the kill; those pods
// are the kill's, not a disturbance of the measurement. It returns the fault's outcome.
func expectKilledAndReplaced(run *perfv1alpha1.PerfRun) perfv1alpha1.FaultOutcome {
	res := resultOf(run)
	Expect(res.Faults).To(HaveLen(1), "%s", describe(run))
	return expectPathKilledAndReplaced(run, res.Faults[0], 2)
}

// expectPathKilledAndReplaced is expectKilledAndReplaced for one path's outcome o, killed in
// each of its phases: a run with sidecar variants has one a variant, each killing its own
// target.
func expectPathKilledAndReplaced(run *perfv1alpha1.PerfRun, o perfv1alpha1.FaultOutcome, phases int) perfv1alpha1.FaultOutcome {
	GinkgoWriter.Printf("killed %s: %+v\nkills: %+v\n", o.Path, o, o.Kills)
	Expect(o.Kind).To(Equal(perfv1alpha1.FaultPodKill))
	Expect(o.Applied).To(Equal(int32(phases)), "applied in every Dapr phase: %q", o.NotApplied)
	Expect(o.Kills).To(HaveLen(phases))
	for _, k := range o.Kills {
		Expect(k.Replacement).NotTo(BeEmpty(), "repetition %d: a replacement made within 22s", k.Repetition)
		Expect(k.ReadyAfter).NotTo(BeNil(), "repetition %d: the replacement ready within 22s", k.Repetition)
	}
	for i := 1; i < len(o.Kills); i++ {
		Expect(o.Kills[i].Deleted).To(Equal(o.Kills[i-1].Replacement), "a later kill deletes the earlier one's replacement")
	}
	Expect(o.Before.Errors).To(BeZero(), "before %+v", o.Before)
	st := get(run).Status
	GinkgoWriter.Printf("killed's disturbances: %+v\n", st.Disturbances)
	for _, k := range o.Kills {
		i := slices.IndexFunc(st.Disturbances, func(d perfv1alpha1.Disturbance) bool {
			return d.Pod == k.Replacement && d.Kind == perfv1alpha1.DisturbanceCreated
		})
		Expect(i).To(BeNumerically(">=", 0), "the replacement %s was seen: %+v", k.Replacement, st.Disturbances)
		Expect(st.Disturbances[i].Fault).NotTo(BeNil(), "the kill's own pod %s is not a disturbance", k.Replacement)
	}
	Expect(meta.IsStatusConditionFalse(st.Conditions, perfv1alpha1.ConditionDisturbed)).To(BeTrue(), "%s", describe(run))
	return o
}

// A fault through real Dapr: the target app answers one invocation in five with 500 for 3 s
// of each measured Dapr phase. The result must find those errors in the fault's window and
// nowhere else, count them as the app made them, and say what the app saw per request sent:
// each request once without a retry policy, the retries of one beside it.
var _ = Describe("A fault in the measured Dapr phases", func() {
	It("finds the target's errors in the fault's window only, and a retry policy's retries in what the app saw", func() {
		const qps, at, lasting, share = 100, 5 * time.Second, 3 * time.Second, 20
		faulty := func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 15 * time.Second}
			s.Load.Warmup = &metav1.Duration{Duration: 2 * time.Second}
			s.Load.Repetitions = 2
			s.Load.Connections = 4
			s.Baseline = ptr.To(true)
			// Side by side, not queued: errors and the app's counts, not latency, are judged,
			// and four sidecars fit on two cores when each requests less than its limit.
			s.Exclusive = ptr.To(false)
			s.Dapr.Sidecar.CPURequest = ptr.To(resource.MustParse("100m"))
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultTargetErrors, At: metav1.Duration{Duration: at},
				Duration: metav1.Duration{Duration: lasting}, ErrorPercent: ptr.To[int32](share)}}
			// The fault's gates: the plain run's 15% fails the first, the retried one's meets it.
			// A recovery at 100 rps is noisy (docs/concepts.md): its gate is shown, not asserted.
			s.Thresholds = &perfv1alpha1.Thresholds{MaxFaultErrorPercent: ptr.To[int32](5), MaxRecovery: &metav1.Duration{Duration: 7 * time.Second}}
		}
		// The same run beside it, its caller's sidecar under the team's retry policy for the
		// target (Dapr retries every HTTP error by default, here at once and up to 3 times), in
		// place before the run's pods start.
		plainNS, retriedNS := newNamespace(), newNamespace()
		retry := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "dapr.io/v1alpha1", "kind": "Resiliency",
			"metadata": map[string]any{"name": "retry-errors", "namespace": retriedNS},
			"scopes":   []any{"retried-loadtester"},
			"spec": map[string]any{"policies": map[string]any{"retries": map[string]any{"atOnce": map[string]any{"policy": "constant", "duration": "1ms", "maxRetries": int64(3)}}},
				"targets": map[string]any{"apps": map[string]any{"retried-target": map[string]any{"retry": "atOnce"}}}}}}
		Expect(k8sClient.Create(ctx, retry)).To(Succeed())
		plain := daprRun(plainNS, "plain", perfv1alpha1.ScenarioServiceInvocation, qps, faulty)
		retried := daprRun(retriedNS, "retried", perfv1alpha1.ScenarioServiceInvocation, qps, faulty)
		// And beside them, the target's pod deleted 5 s into each Dapr phase by the operator,
		// on its load tester's order, side by side with and without a retry policy: two
		// sidecar variants, each its own target, and the team's Resiliency for the second's app
		// id alone (every 500 ms, up to 16 times: 8 s, under the load tester's 10 s). No
		// baseline (a PodKill has none). A replacement took 8-14 s to be ready here
		// (calibration, daprd's readiness probe): it is waited for up to 22 s. One phase a
		// variant: the broker kill (pubsub_e2e_test.go) kills twice and checks that the second
		// kill finds the first's replacement; two more 32 s phases here cost a minute of CI.
		killedNS := newNamespace()
		Expect(k8sClient.Create(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "dapr.io/v1alpha1", "kind": "Resiliency",
			"metadata": map[string]any{"name": "retry-killed", "namespace": killedNS},
			"scopes":   []any{"killed-loadtester"},
			"spec": map[string]any{"policies": map[string]any{"retries": map[string]any{"untilReplaced": map[string]any{"policy": "constant", "duration": "500ms", "maxRetries": int64(16)}}},
				"targets": map[string]any{"apps": map[string]any{"killed-target-retried": map[string]any{"retry": "untilReplaced"}}}}}})).To(Succeed())
		killed := daprRun(killedNS, "killed", perfv1alpha1.ScenarioServiceInvocation, qps, func(s *perfv1alpha1.PerfRunSpec) {
			faulty(s)
			s.Load.Duration = &metav1.Duration{Duration: 30 * time.Second}
			s.Load.Repetitions = 1
			s.Baseline = ptr.To(false)
			s.Variants = []perfv1alpha1.SidecarVariant{{Name: "plain"}, {Name: "retried"}}
			s.Faults = []perfv1alpha1.Fault{{Kind: perfv1alpha1.FaultPodKill, Role: ptr.To(perfv1alpha1.FaultRoleTarget),
				At: metav1.Duration{Duration: at}, Duration: metav1.Duration{Duration: 22 * time.Second}}}
			s.Thresholds = nil
		})
		// And a caller's crash: the sample as shipped, shortened, its load split over two
		// load-tester pods, the last evicted 5 s into each Dapr phase (B D | D B) and replaced
		// by its Job for the next phase.
		callers := sampleRun("perf_v1alpha1_perfrun_loadtester_killed.yaml", newNamespace())
		callers.Spec.Load.QPS, callers.Spec.Load.Connections, callers.Spec.LoadTester.Replicas = qps, 4, 2
		callers.Spec.Load.Duration = &metav1.Duration{Duration: 13 * time.Second}
		callers.Spec.Load.Warmup = &metav1.Duration{Duration: 2 * time.Second}
		callers.Spec.Exclusive = ptr.To(false)
		callers.Spec.Faults[0].At, callers.Spec.Faults[0].Duration = metav1.Duration{Duration: at}, metav1.Duration{Duration: 5 * time.Second}
		Expect(k8sClient.Create(ctx, callers)).To(Succeed())
		expectSucceeded(plain, 5*time.Minute)
		expectSucceeded(retried, 5*time.Minute)
		expectSucceeded(killed, 5*time.Minute)
		expectSucceeded(callers, 5*time.Minute)
		// Without a retry policy a request sent while no target pod is ready fails, and never
		// reaches an app: the apps' count across the kill (the killed app's to its last
		// reading, its replacement's from 0) is each request that did not fail, once.
		kr := resultOf(killed)
		Expect(kr.Faults).To(HaveLen(2), "one outcome a variant: %s", describe(killed))
		Expect(kr.Paths).To(HaveLen(2), "the two variants' paths, every phase of them killed")
		byPath := map[string]perfv1alpha1.FaultOutcome{}
		for _, o := range kr.Faults {
			byPath[o.Path] = expectPathKilledAndReplaced(killed, o, 1)
		}
		k := byPath["plain"]
		Expect(k.During.Errors).To(BeNumerically(">", 0))
		amp, err := strconv.ParseFloat(k.Amplification, 64)
		Expect(err).NotTo(HaveOccurred(), "the apps' count per request sent across a kill: %q", k.Amplification)
		p := kr.Paths[slices.IndexFunc(kr.Paths, func(p perfv1alpha1.PathAccounting) bool { return p.Path == "plain" })]
		Expect(amp).To(BeNumerically("~", float64(p.Completed)/float64(p.Sent), 0.03), "the apps saw each request that did not fail: %+v", p)
		// Under the policy the caller's sidecar retries the calls that met no target: fewer of
		// the requests due while the kill held failed. Each variant's result names the policy
		// it ran under, the first none; its apps saw each completed request at least once.
		kRetried := byPath["retried"]
		failedShare := func(w perfv1alpha1.FaultWindow) float64 { return float64(w.Errors) / float64(max(w.Requests, 1)) }
		GinkgoWriter.Printf("while killed: plain %.3f of %d failed, retried %.3f of %d; recovery plain %v, retried %v\n",
			failedShare(k.During), k.During.Requests, failedShare(kRetried.During), kRetried.During.Requests, k.Recovery, kRetried.Recovery)
		Expect(failedShare(kRetried.During)).To(BeNumerically("<", failedShare(k.During)/2), "the retry policy's failures while killed against none's")
		Expect(kr.Variants).To(HaveLen(2))
		Expect(kr.Variants[0].Resiliencies).To(BeEmpty(), "the first variant's app id is no policy's target")
		Expect(kr.Variants[1].Resiliencies).To(Equal([]string{"retry-killed"}), "the second ran under the team's policy")
		amp, err = strconv.ParseFloat(kRetried.Amplification, 64)
		Expect(err).NotTo(HaveOccurred(), "the retried variant's apps' count per request sent: %q", kRetried.Amplification)
		p = kr.Paths[slices.IndexFunc(kr.Paths, func(p perfv1alpha1.PathAccounting) bool { return p.Path == "retried" })]
		Expect(amp).To(BeNumerically(">=", float64(p.Completed)/float64(p.Sent)-0.03), "its apps saw each completed request: %+v", p)

		expectCallerKilledAndReplaced(callers, qps)

		res := resultOf(plain)
		Expect(res.Faults).To(HaveLen(1), "%s", describe(plain))
		o := res.Faults[0]
		GinkgoWriter.Printf("plain: %+v\n", o)
		Expect(o.Path).To(Equal("dapr"))
		Expect(o.Kind).To(Equal(perfv1alpha1.FaultTargetErrors))
		Expect(o.Applied).To(Equal(int32(2)), "applied in both Dapr phases: %q", o.NotApplied)
		// One in five of the ~300 invocations of 3 s at 100 rps in each phase, as the app failed
		// them; every error of the run is the fault's, and none fell outside its window.
		want := int64(2 * qps * lasting.Seconds() * share / 100)
		Expect(o.During.Errors).To(BeNumerically("~", want, want/10), "during %+v", o.During)
		Expect(o.Before.Errors).To(BeZero(), "before %+v", o.Before)
		Expect(o.After.Errors).To(BeZero(), "after %+v", o.After)
		Expect(res.Errors).To(Equal(o.During.Errors), "every error of the run is in the fault's window")
		// Second by second, the same requests: the timeline's seconds hold the windows'.
		Expect(o.Timeline).NotTo(BeNil())
		Expect(len(o.Timeline.Requests)).To(BeNumerically("~", 15, 1), "a second an entry through the 15 s phase")
		var requests, errors int64
		for k := range o.Timeline.Requests {
			requests, errors = requests+o.Timeline.Requests[k], errors+o.Timeline.Errors[k]
		}
		Expect(errors).To(Equal(o.During.Errors), "the timeline's errors are the windows'")
		Expect(requests).To(Equal(o.Before.Requests+o.During.Requests+o.After.Requests), "the timeline's requests are the windows'")
		// The fault is timed from the schedule's start: 5 whole seconds before it in each phase
		// set the band, so every phase is judged, and came back or did not by its end.
		Expect(o.Before.Seconds).To(Equal(2 * int32(at.Seconds())))
		Expect(o.Recovered+o.NotRecovered).To(Equal(int32(2)), "unjudged %d", o.Unjudged)
		if o.Recovered > 0 {
			Expect(o.Recovery).NotTo(BeNil())
		}
		Expect(o.Amplification).To(Equal("1.000"), "without a retry policy the app sees each request once")
		Expect(get(plain).Status.Environment.DaprResiliencies).To(BeEmpty())
		gate := meta.FindStatusCondition(get(plain).Status.Conditions, perfv1alpha1.ConditionThresholdsMet)
		Expect(gate).NotTo(BeNil())
		GinkgoWriter.Printf("plain's gate: %s: %s\n", gate.Reason, gate.Message)
		Expect(gate.Status).To(Equal(metav1.ConditionFalse), "the fault's errors fail its gate: %s", gate.Message)
		Expect(gate.Message).To(MatchRegexp(`faults\[0\] on dapr errors during [0-9.]+% \(95% interval [^)]*\) \(limit <= 5%\): VIOLATED`))
		Expect(gate.Message).To(ContainSubstring("faults[0] on dapr recovery slowest"))

		// Under the policy the caller's sidecar retries what the app failed: the client sees
		// next to none of it, and the app sees each failed attempt again. The app fails one
		// attempt in five during the fault, so it takes 1/(1 − 0.2) = 1.25 attempts per request
		// there: 0.25 × 3 s of 15 s adds about 0.05 per request over the phase.
		res = resultOf(retried)
		Expect(res.Faults).To(HaveLen(1), "%s", describe(retried))
		r := res.Faults[0]
		GinkgoWriter.Printf("retried: %+v\n", r)
		Expect(r.During.Errors).To(BeNumerically("<", o.During.Errors/10), "the policy retried the app's errors away: %+v", r.During)
		amp, err = strconv.ParseFloat(r.Amplification, 64)
		Expect(err).NotTo(HaveOccurred(), "the app's count per request sent: %q", r.Amplification)
		Expect(amp).To(BeNumerically("~", 1.05, 0.02), "retries seen by the app")
		Expect(get(retried).Status.Environment.DaprResiliencies).To(HaveLen(1), "the result names the policy the run was under")
		gate = meta.FindStatusCondition(get(retried).Status.Conditions, perfv1alpha1.ConditionThresholdsMet)
		Expect(gate).NotTo(BeNil())
		GinkgoWriter.Printf("retried's gate: %s: %s\n", gate.Reason, gate.Message)
		Expect(gate.Message).To(MatchRegexp(`faults\[0\] on dapr errors during [0-9.]+% \(95% interval [^)]*\) \(limit <= 5%\): met`))
	})
})

// expectCallerKilledAndReplaced checks a run of two load-tester pods at qps whose last pod a
// LoadTester PodKill evicted in each of its two Dapr phases (B D | D B): the Job replaced it,
// each Dapr phase holds the leader's half alone and says so, and the baseline phase after
// the second kill holds the replacement's half again.
func expectCallerKilledAndReplaced(run *perfv1alpha1.PerfRun, qps float64) {
	GinkgoHelper()
	res := resultOf(run)
	Expect(res.Faults).To(HaveLen(1), "%s", describe(run))
	o := res.Faults[0]
	GinkgoWriter.Printf("caller killed: %+v\nkills: %+v\nload testers: %+v\npaths: %+v\n", o, o.Kills, res.LoadTesters, res.Paths)
	Expect(o.Kind).To(Equal(perfv1alpha1.FaultPodKill))
	Expect(o.Applied).To(Equal(int32(2)), "applied in both Dapr phases: %q", o.NotApplied)
	Expect(o.Kills).To(HaveLen(2))
	lastPod := fmt.Sprintf("%s-load-%d-1-", run.Name, get(run).Generation) // the Indexed Job's pod of index 1
	for _, k := range o.Kills {
		Expect(k.Deleted).To(HavePrefix(lastPod), "repetition %d: the last pod, never the leader", k.Repetition)
		Expect(k.MeasuredQPS).To(Equal(strconv.FormatFloat(qps/2, 'f', 1, 64)), "repetition %d: the leader's half alone", k.Repetition)
	}
	Expect(o.Kills[1].Deleted).NotTo(Equal(o.Kills[0].Deleted), "the second kill deletes the first's replacement, which met the others at the next phase")
	Expect(o.Before.Errors).To(BeZero(), "before %+v", o.Before)
	Expect(res.Saturated).To(BeEmpty(), "each phase is judged against the rate of the pods it holds")
	Expect(res.MeasuredRequestedQPS).To(Equal(strconv.FormatFloat(qps/2, 'f', 1, 64)), "the rate the Dapr phases asked of the pods they hold")
	// The evicted pods and their replacements, made by the Job once each evicted pod had
	// ended (often after the kill's span), are the fault's, not disturbances of the run.
	Expect(meta.IsStatusConditionTrue(get(run).Status.Conditions, perfv1alpha1.ConditionDisturbed)).To(BeFalse(), "%s", describe(run))
	sent := map[string]int64{}
	for _, p := range res.Paths {
		Expect(p.Sent+p.Unsent).To(Equal(p.Scheduled), "%+v", p)
		sent[p.Path] = p.Sent
	}
	// Both baseline phases hold both pods' halves (the second, the replacement's), both Dapr
	// phases the leader's alone.
	Expect(sent["dapr"]).To(BeNumerically("~", sent["baseline"]/2, sent["baseline"]/20), "sent by path: %v", sent)
	Expect(res.LoadTesters).To(HaveLen(2))
	Expect(strconv.ParseFloat(res.LoadTesters[1].ActualQPS, 64)).To(BeNumerically(">=", 0.9*qps/2), "pod 1 at its half over the phases it measured")
	GinkgoWriter.Printf("caller killed: during %+v, after %+v; %s\n", o.During, o.After, describe(run))
}
