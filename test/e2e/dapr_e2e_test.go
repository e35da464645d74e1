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
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Rates this one-node, two-core cluster sustains with errors = 0 while it also runs both
// sidecars, the app, the load tester and Dapr's control plane (see the README for how they
// were found). Dapr's published runs use 1000 (invocation) and 500 (actors) on three 4-core nodes.
const (
	invocationQPS = 500
	actorQPS      = 250
)

// daprVersion is the Dapr release installed on the cluster under test (make test-e2e passes
// the Makefile's pin).
func daprVersion() string {
	return strings.TrimPrefix(os.Getenv("DAPR_VERSION"), "v")
}

// daprRun is a run through real Dapr sidecars at Dapr's published settings: mTLS on,
// tracing sampling 0.1, sidecar limited to 0.5 vCPU.
func daprRun(ns, name string, scenario perfv1alpha1.Scenario, qps int32, mutate ...func(*perfv1alpha1.PerfRunSpec)) *perfv1alpha1.PerfRun {
	return daprRunAnnotated(ns, name, nil, scenario, qps, mutate...)
}

// daprRunAnnotated is daprRun with annotations on the PerfRun.
func daprRunAnnotated(ns, name string, annotations map[string]string, scenario perfv1alpha1.Scenario, qps int32,
	mutate ...func(*perfv1alpha1.PerfRunSpec)) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Annotations: annotations},
		Spec: perfv1alpha1.PerfRunSpec{
			Scenario: scenario,
			Load: perfv1alpha1.LoadSpec{QPS: qps,
				// 45 s runs hold at least three whole 10 s metrics windows once 2 s are trimmed at each edge.
				// One repetition (the default is 3) keeps CI's e2e time: the interval is within-run only.
				Duration: &metav1.Duration{Duration: 45 * time.Second}, Warmup: &metav1.Duration{Duration: 5 * time.Second}, Repetitions: 1},
			Dapr: perfv1alpha1.DaprSpec{
				MTLS:                perfv1alpha1.MTLSEnabled,
				TracingSamplingRate: "0.1",
				Sidecar:             perfv1alpha1.SidecarSpec{CPULimit: ptr.To(resource.MustParse("500m"))},
			},
		},
	}
	for _, m := range mutate {
		m(&run.Spec)
	}
	Expect(k8sClient.Create(ctx, run)).To(Succeed())
	return run
}

func expectActualQPS(res *perfv1alpha1.Result, want float64) {
	actual, err := strconv.ParseFloat(res.ActualQPS, 64)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ExpectWithOffset(1, math.Abs(actual-want)/want).To(BeNumerically("<=", 0.01), "actual qps %v not within 1%% of %v", actual, want)
}

func expectSampled(name string, role *perfv1alpha1.RoleUsage) {
	ExpectWithOffset(1, role).NotTo(BeNil(), name)
	ExpectWithOffset(1, role.Samples).To(BeNumerically(">=", 2), name)
	ExpectWithOffset(1, role.CPUAvg.MilliValue()).To(BeNumerically(">", 0), name)
	ExpectWithOffset(1, role.MemoryAvg.Value()).To(BeNumerically(">", 1<<20), name)
}

// targetStats reads the target app's own counters through the API server's pod proxy.
func targetStats(run *perfv1alpha1.PerfRun) map[string]int64 {
	stats, _ := appStats(run, nil)
	return stats
}

// appStats reads the counters of the run's one target pod matching extra labels (a sidecar
// variant's), and returns the pod's annotations.
func appStats(run *perfv1alpha1.PerfRun, extra map[string]string) (map[string]int64, map[string]string) {
	sel := client.MatchingLabels{workload.LabelRun: run.Name, workload.LabelComponent: string(workload.RoleTarget)}
	for k, v := range extra {
		sel[k] = v
	}
	var pods corev1.PodList
	Expect(k8sClient.List(ctx, &pods, client.InNamespace(run.Namespace), sel)).To(Succeed())
	Expect(pods.Items).To(HaveLen(1))
	raw := runWithInput(nil, kubectlBin(), "get", "--raw",
		"/api/v1/namespaces/"+run.Namespace+"/pods/"+pods.Items[0].Name+":"+strconv.Itoa(workload.AppPort)+"/proxy/stats")
	stats := map[string]int64{}
	Expect(json.Unmarshal(raw, &stats)).To(Succeed(), string(raw))
	return stats, pods.Items[0].Annotations
}

// expectClaimedInvocationRun checks a claimed run of Dapr's published service-invocation
// scenario (mTLS on, tracing sampling 0.1, a 1 KiB payload, the baseline on the target's own
// pod) under a limit that binds nothing: its added latency beyond the noise, with everything
// it is timed with, scraped by a real Prometheus, and the usage of both sidecars, the app and
// Dapr's control plane.
func expectClaimedInvocationRun(run *perfv1alpha1.PerfRun) {
	GinkgoHelper()
	st := get(run).Status
	res := resultOf(run)
	GinkgoWriter.Printf("latency %s\nbaseline %s\nadded %s\n", summary(res.Latency), summary(res.Baseline), summary(res.Added))

	qps := run.Spec.Load.QPS
	expectActualQPS(res, float64(qps))
	Expect(res.Errors).To(BeZero())
	Expect(res.ReturnCodes).To(HaveKeyWithValue("200", res.Requests))
	for name, l := range map[string]*perfv1alpha1.LatencySummary{"dapr": res.Latency, "baseline": res.Baseline, "added": res.Added} {
		Expect(l).NotTo(BeNil(), name)
		Expect(l.P50).NotTo(BeNil(), name)
		Expect(l.P90).NotTo(BeNil(), name)
		Expect(l.P99).NotTo(BeNil(), name)
	}
	// Two sidecars with mTLS between them cost more than a direct call at the median and
	// p90, beyond the noise: the whole 95% interval lies above zero.
	Expect(res.LatencySignificantDigits).To(Equal(int32(3)))
	Expect(res.AddedInterval).NotTo(BeNil())
	GinkgoWriter.Printf("added 95%% interval: low %s\nhigh %s\n", summary(&res.AddedInterval.Low), summary(&res.AddedInterval.High))
	Expect(res.AddedInterval.Low.P50.Duration).To(BeNumerically(">", 0))
	Expect(res.AddedInterval.Low.P90.Duration).To(BeNumerically(">", 0))
	Expect(res.Added.P90.Duration).To(BeNumerically("<=", res.AddedInterval.High.P90.Duration))
	// Timed from the scheduled send, latency is never below the service time fortio alone
	// reports; the send lag says how well the load tester kept its schedule.
	Expect(res.ServiceTime).NotTo(BeNil())
	Expect(res.SendLag).NotTo(BeNil())
	Expect(res.TesterLag).NotTo(BeNil(), "the load tester's own lag, apart from the connections' waits")
	Expect(res.Paths).NotTo(BeEmpty())
	for _, p := range res.Paths {
		Expect(p.Sent+p.Unsent).To(Equal(p.Scheduled), "%+v", p)
		GinkgoWriter.Printf("path %s: scheduled %d, sent %d, completed %d, failed %d, never sent %d; tester lag p99 %s\n",
			p.Path, p.Scheduled, p.Sent, p.Completed, p.Failed, p.Unsent, p.TesterLagP99.Duration)
	}
	Expect(res.Latency.P99.Duration).To(BeNumerically(">=", res.ServiceTime.P99.Duration))
	GinkgoWriter.Printf("service time %s\nsend lag %s\nsaturated %v\n", summary(res.ServiceTime), summary(res.SendLag), res.Saturated)

	By("a real Prometheus scraped the result, and every dashboard query returns data")
	expectScraped(run.Namespace, run.Name, run.Spec.Scenario, qps, res.Added.P90.Duration)

	Expect(meta.IsStatusConditionTrue(st.Conditions, perfv1alpha1.ConditionResourceUsageAvailable)).To(BeTrue(), "%s", describe(run))
	u := res.Resources
	GinkgoWriter.Printf("serverSidecar %s\nclientSidecar %s\nper1k %v / %v\n", usage(u.ServerSidecar), usage(u.ClientSidecar),
		u.SidecarPer1kQPS.CPU, u.SidecarPer1kQPS.Memory)
	// Only windows inside the Dapr runs count here; the baseline's have their own figure.
	expectSampled("serverSidecar", u.ServerSidecar)
	expectSampled("clientSidecar", u.ClientSidecar)
	expectSampled("serverApp", u.ServerApp)
	// The baseline called the Dapr target's own pod (spec.baselineTarget SamePod): the same
	// app container serves both phases, and no twin exists.
	Expect(res.BaselineResources).NotTo(BeNil())
	expectSampled("serverApp (baseline phase)", res.BaselineResources.ServerApp)
	Expect(res.BaselineResources.BaselineApp).To(BeNil(), "no sidecar-free twin")
	Expect(st.Environment.BaselinePod).To(HavePrefix(run.Name + "-target-"))
	Expect(st.Environment.BaselinePod).To(HaveSuffix(" on "+st.Environment.TargetNode), "the baseline's pod is the target's, on its node")
	GinkgoWriter.Printf("baseline pod %s; baseline phase: serverApp %s, serverSidecar %s\n", st.Environment.BaselinePod,
		usage(res.BaselineResources.ServerApp), usage(res.BaselineResources.ServerSidecar))
	if idle := res.BaselineResources.ServerSidecar; idle != nil {
		Expect(idle.CPUAvg.MilliValue()).To(BeNumerically("<", u.ServerSidecar.CPUAvg.MilliValue()),
			"the target's sidecar works while the Dapr path is measured, not while the baseline is")
	}
	Expect(u.SidecarPer1kQPS).NotTo(BeNil())
	Expect(u.SidecarPer1kQPS.CPU.MilliValue()).To(BeNumerically(">", 0))
	By("each daprd's own CPU counter, read at the repetition's edges, beside the kubelet's")
	for _, role := range []string{"serverSidecar", "clientSidecar"} {
		expectDaprdCost(res, role, int(run.Spec.Load.Repetitions), 50)
	}

	components := map[string]perfv1alpha1.RoleUsage{}
	for _, c := range u.ControlPlane {
		components[c.Component] = c.Usage
		GinkgoWriter.Printf("control plane %s %s\n", c.Component, usage(&c.Usage))
	}
	for _, c := range []string{"dapr-operator", "dapr-sentry", "dapr-sidecar-injector", "dapr-placement-server", "dapr-scheduler-server"} {
		Expect(components).To(HaveKey(c))
		Expect(components[c].MemoryAvg.Value()).To(BeNumerically(">", 1<<20), c)
	}
	Expect(res.Restarts).To(Equal(&perfv1alpha1.Restarts{}))
	Expect(st.Environment.MTLS).To(Equal(ptr.To(true)))
	Expect(st.Environment.DaprVersion).To(Equal(daprVersion()))
	Expect(st.Environment.SidecarImage).To(Equal("ghcr.io/dapr/daprd:" + daprVersion()))
}

var _ = Describe("PerfRun through real Dapr", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("measures actor activation: every call activates a fresh actor of its own run, and the load tester's sidecar shuts down", func() {
		// An earlier actor run whose target stays (cleanup Never) still hosts its actor type:
		// had both runs one type, Dapr's placement would spread the second's calls over it.
		// Its actors are hosted by Dapr's Go SDK actor runtime: every call reaches the SDK's
		// actor, one activation each.
		earlier := daprRun(ns, "earlier", perfv1alpha1.ScenarioActorActivation, 20, func(s *perfv1alpha1.PerfRunSpec) {
			s.Cleanup = perfv1alpha1.CleanupNever
			s.Load.Duration, s.Load.Warmup = &metav1.Duration{Duration: 10 * time.Second}, &metav1.Duration{Duration: 2 * time.Second}
			s.Actors = &perfv1alpha1.ActorsSpec{Host: perfv1alpha1.ActorHostGoSDK}
		})
		expectSucceeded(earlier, 5*time.Minute)
		sdk := resultOf(earlier)
		GinkgoWriter.Printf("Go SDK host: latency %s\n", summary(sdk.Latency))
		Expect(sdk.ActorHost).To(Equal(perfv1alpha1.ActorHostGoSDK))
		Expect(sdk.Errors).To(BeZero(), "every call reached the SDK's Activate: %v", sdk.ReturnCodes)
		earlierStats := targetStats(earlier)
		earlierCalls := earlierStats["actorCalls"]
		Expect(earlierCalls).To(BeNumerically(">=", sdk.Requests))
		Expect(earlierStats["actorsActivated"]).To(Equal(earlierCalls), "the SDK activated a fresh actor for every call")

		run := daprRun(ns, "actors", perfv1alpha1.ScenarioActorActivation, actorQPS, func(s *perfv1alpha1.PerfRunSpec) {
			s.Cleanup = perfv1alpha1.CleanupNever // keep the target to read its counters
		})
		expectSucceeded(run, 5*time.Minute)
		res := resultOf(run)
		GinkgoWriter.Printf("latency %s\n", summary(res.Latency))
		Expect(res.ActorHost).To(Equal(perfv1alpha1.ActorHostMinimal))
		expectActualQPS(res, actorQPS)
		Expect(res.Errors).To(BeZero())
		Expect(res.Latency.P90).NotTo(BeNil())
		Expect(res.Latency.P99).NotTo(BeNil())
		Expect(res.Baseline).To(BeNil())
		Expect(res.Restarts).To(Equal(&perfv1alpha1.Restarts{}))

		stats := targetStats(run)
		GinkgoWriter.Printf("target's counters: %v\n", stats)
		Expect(stats["actorCalls"]).To(BeNumerically(">=", res.Requests), "warm-up calls come on top of the measured ones")
		Expect(stats["actorsActivated"]).To(Equal(stats["actorCalls"]), "every call reached an actor that had never been called")
		Expect(targetStats(earlier)["actorCalls"]).To(Equal(earlierCalls), "no call of this run reached the earlier run's target")
		Expect(get(run).ActorType()).NotTo(Equal(get(earlier).ActorType()))

		By("the Job completed because the real daprd honoured POST /v1.0/shutdown")
		var jobs batchv1.JobList
		Expect(k8sClient.List(ctx, &jobs, client.InNamespace(ns), client.MatchingLabels{workload.LabelRun: run.Name})).To(Succeed())
		Expect(jobs.Items).To(HaveLen(1))
		Expect(jobs.Items[0].Status.Succeeded).To(Equal(int32(1)))
		var pods corev1.PodList
		Expect(k8sClient.List(ctx, &pods, client.InNamespace(ns), client.MatchingLabels{workload.LabelRun: run.Name,
			workload.LabelComponent: string(workload.RoleLoadTester)})).To(Succeed())
		Expect(pods.Items).To(HaveLen(1))
		var daprd *corev1.ContainerStatus
		for i, s := range pods.Items[0].Status.ContainerStatuses {
			if s.Name == workload.ContainerDaprd {
				daprd = &pods.Items[0].Status.ContainerStatuses[i]
			}
		}
		Expect(daprd).NotTo(BeNil(), "the load tester had its own sidecar")
		Expect(daprd.State.Terminated).NotTo(BeNil())
		Expect(daprd.State.Terminated.ExitCode).To(BeZero())
	})

	It("fails fast with MTLSMismatch, read from the real daprsystem Configuration", func() {
		run := daprRun(ns, "nomtls", perfv1alpha1.ScenarioServiceInvocation, invocationQPS, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.MTLS = perfv1alpha1.MTLSDisabled
		})
		Eventually(phase(run), 30*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		c := meta.FindStatusCondition(get(run).Status.Conditions, perfv1alpha1.ConditionFailed)
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonMTLSMismatch))
		Expect(c.Message).To(ContainSubstring("Configuration dapr-system/daprsystem has spec.mtls.enabled=true"))
		Consistently(children(run), 5*time.Second).Should(BeZero())
	})

	// Issue #34, finding 1: a look-alike injector in a namespace a tenant controls widened
	// the image allowlist to its registry and reached the run's status.
	It("reads Dapr only in the operator's namespace: a look-alike injector elsewhere widens nothing", func() {
		elsewhere := newNamespace()
		fake := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "dapr-sidecar-injector", Namespace: elsewhere,
			Labels: map[string]string{"app": "dapr-sidecar-injector"}},
			Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](0),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "dapr-sidecar-injector"}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "dapr-sidecar-injector"}},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "injector", Image: "evil.io/x/y:1"}}}}}}
		Expect(k8sClient.Create(ctx, fake)).To(Succeed())
		run := daprRun(ns, "lookalike", perfv1alpha1.ScenarioServiceInvocation, invocationQPS, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.ControlPlaneNamespace = elsewhere
			s.Target.Image = "evil.io/x/anything:1"
		})
		Eventually(phase(run), 30*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		st := get(run).Status
		c := meta.FindStatusCondition(st.Conditions, perfv1alpha1.ConditionFailed)
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonControlPlaneNotAllowed), "%s", describe(run))
		Expect(c.Message).To(ContainSubstring(`only in "dapr-system"`))
		Expect(st.Environment.DaprVersion).To(BeEmpty(), "nothing of the named namespace reaches the status")
		Consistently(children(run), 5*time.Second).Should(BeZero())

		By("the foreign image alone, beside the operator's real control plane, is refused too")
		image := daprRun(ns, "foreign", perfv1alpha1.ScenarioServiceInvocation, invocationQPS, func(s *perfv1alpha1.PerfRunSpec) {
			s.Target.Image = "evil.io/x/anything:1"
		})
		Eventually(phase(image), 30*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		c = meta.FindStatusCondition(get(image).Status.Conditions, perfv1alpha1.ConditionFailed)
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonImageNotAllowed), "%s", describe(image))
		Consistently(children(image), 5*time.Second).Should(BeZero())
	})
})

func summary(l *perfv1alpha1.LatencySummary) string {
	if l == nil {
		return "<none>"
	}
	d := func(x *metav1.Duration) string {
		if x == nil {
			return "-"
		}
		return x.Duration.String()
	}
	return "p50 " + d(l.P50) + " p90 " + d(l.P90) + " p99 " + d(l.P99) + " max " + d(l.Max)
}

func usage(u *perfv1alpha1.RoleUsage) string {
	if u == nil {
		return "<none>"
	}
	return "cpu avg " + u.CPUAvg.String() + " max " + u.CPUMax.String() + ", mem avg " + u.MemoryAvg.String() +
		" max " + u.MemoryMax.String() + ", samples " + strconv.Itoa(int(u.Samples))
}
