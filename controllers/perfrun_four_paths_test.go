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
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/pods/latency"
	"github.com/daprbench/daprbench/internal/testenv"
)

var _ = Describe("A four-path run", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("exposes the target's daprd, calls every path, and splits the added latency into its three parts", func() {
		run := createRun(ns, "split", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
			s.Load.Repetitions = 3
		})
		target := deployment(ns, "split-target")
		Eventually(exists(target)).Should(BeTrue())
		Expect(target.Spec.Template.Annotations).To(HaveKeyWithValue(workload.AnnotationListenAddresses, "0.0.0.0"))
		// The opened API asks for the run's token, from a Secret whose name the API server
		// chose (no Secret made in advance can stand in for it) and the run owns.
		tokenName := latest(run).Status.TokenSecret
		Expect(tokenName).To(HavePrefix("split-token-"))
		Expect(target.Spec.Template.Annotations).To(HaveKeyWithValue(workload.AnnotationAPITokenSecret, tokenName))
		token := &corev1.Secret{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: tokenName}, token)).To(Succeed())
		Expect(metav1.IsControlledBy(token, latest(run))).To(BeTrue())
		Expect(string(token.Data[workload.RunTokenKey])).To(MatchRegexp("^[0-9a-f]{64}$"))

		markAvailable(ns, "split-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		job := currentJobOf(run)
		targetPod := &corev1.Pod{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "split-target-pod"}, targetPod)).To(Succeed())
		ip := targetPod.Status.PodIP
		Expect(job.Spec.Template.Annotations).NotTo(HaveKey(workload.AnnotationListenAddresses), "the load tester's daprd stays on localhost")
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(Equal("http://" + ip + ":3000/test"))
		Expect(envValue(job, "DAPRBENCH_CLIENT_ONLY_URL")).To(Equal("http://localhost:3500/v1.0/invoke/http://" + ip + ":3000/method/test"))
		Expect(envValue(job, "DAPRBENCH_SERVER_ONLY_URL")).To(Equal("http://" + ip + ":3500/v1.0/invoke/split-target/method/test"))
		Expect(secretEnv(job, "DAPRBENCH_DAPR_API_TOKEN")).To(Equal(tokenName), "the server-only path presents the token")
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("http://localhost:3500/v1.0/invoke/split-target/method/test"))

		// The client sidecar adds 300 µs, the server sidecar 500 µs, both 900 µs: an
		// interaction of 100 µs. Every percentile of a path is shifted alike.
		var runs []result.Run
		for rep, drift := range []int64{0, 40, -30} {
			for _, p := range []struct {
				v     result.Variant
				shift int64
			}{{result.Baseline, 0}, {result.ClientOnly, 300}, {result.ServerOnly, 500}, {result.Dapr, 900}} {
				r := summaryRun(p.v, rep, 600+drift+p.shift)
				r.MaxUs = 9000 + p.shift
				runs = append(runs, r)
			}
		}
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: runs}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		res := resultOf(run)
		a := res.Attribution
		Expect(a).NotTo(BeNil())
		Expect(a.Paths).To(HaveLen(4))
		Expect(a.Paths[1].Path).To(Equal(perfv1alpha1.PathClientSidecarOnly))
		Expect(a.Paths[1].Interval).NotTo(BeNil(), "each path's own interval")
		p90 := func(part *perfv1alpha1.AttributedLatency) time.Duration { return part.Latency.P90.Duration }
		avg := func(part *perfv1alpha1.AttributedLatency) time.Duration { return part.Latency.Avg.Duration }
		Expect(p90(a.ClientSidecar)).To(BeNumerically("~", 300*time.Microsecond, 5*time.Microsecond), "the client-only path over direct")
		Expect(p90(a.ServerSidecar)).To(BeNumerically("~", 500*time.Microsecond, 5*time.Microsecond), "the server-only path over direct")
		Expect(a.Interaction.Latency.P90).To(BeNil(), "only means decompose")
		// The histograms rebuilt from these percentiles shift their means by about, not exactly,
		// the percentiles' shift (88 µs here).
		Expect(avg(a.Interaction)).To(BeNumerically("~", 100*time.Microsecond, 25*time.Microsecond))
		Expect(avg(a.ClientSidecar)+avg(a.ServerSidecar)+avg(a.Interaction)).To(BeNumerically("~", res.Added.Avg.Duration, 2*time.Microsecond), "the means add up to what Dapr adds (each rounded to the µs)")
		Expect(a.Interaction.Interval.Low.Avg.Duration).To(BeNumerically("<=", avg(a.Interaction)))
		Expect(a.Interaction.Interval.High.Avg.Duration).To(BeNumerically(">=", avg(a.Interaction)))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).To(ContainSubstring("added mean split: client sidecar "))
	})

	It("keeps each path's interval, which arrives with the rest of the report", func() {
		run := createRun(ns, "roomless", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
			s.Load.Repetitions = 2
		})
		markAvailable(ns, "roomless-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		var runs []result.Run
		recs := map[latency.Key]*latency.Recorded{}
		for rep := range 2 {
			for i, v := range result.AttributionPaths {
				r := summaryRun(v, rep, 600+int64(i)*300)
				runs = append(runs, r)
				recs[latency.Key{Variant: v, Rep: rep}] = recordingOf(r)
			}
		}
		sum := result.Summary{RequestedQPS: 1000, Runs: runs}
		latency.Summarize(&sum, recs, result.StandardPercentiles)
		Expect(sum.Attribution.Paths).To(HaveLen(4))
		startLoad(run)
		finishLoad(run, sum, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		a := resultOf(run).Attribution
		Expect(a).NotTo(BeNil())
		Expect(a.Paths).To(HaveLen(4))
		for _, p := range a.Paths {
			Expect(p.Interval).NotTo(BeNil(), "%s: its interval, from the report", p.Path)
			Expect(p.Interval.Low.P90.Duration).To(BeNumerically("<=", p.Latency.P90.Duration))
		}
	})

	It("fails with InvalidResult when the load tester did not measure the one-sidecar paths", func() {
		run := createRun(ns, "unsplit", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
		})
		markAvailable(ns, "unsplit-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1500)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		Expect(conditionOf(run, perfv1alpha1.ConditionFailed).Message).To(ContainSubstring("client-only path"))
	})
})

// TestAFourPathRunFailsEarlyWhereDaprCannotInvokeNonDaprEndpoints runs the reconciler
// against API servers with Dapr's CRDs but without httpendpoints.dapr.io (as a Dapr older
// than 1.11 leaves a cluster), and with an old control plane: a four-path run fails at
// preflight with DaprFeatureMissing, naming why, and creates nothing; a standard run on the
// same cluster passes the preflight.
func TestAFourPathRunFailsEarlyWhereDaprCannotInvokeNonDaprEndpoints(t *testing.T) {
	crds, err := testenv.DaprCRDs()
	if err != nil {
		t.Fatal(err)
	}
	older := t.TempDir()
	for _, f := range []string{"components.yaml", "configuration.yaml"} {
		b, err := os.ReadFile(filepath.Join(crds, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(older, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := ownAPIServer(t, older)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "dapr-system"}}))
	injector := deploymentSkeleton("dapr-system", "dapr-sidecar-injector", map[string]string{"app": "dapr-sidecar-injector"}, "ghcr.io/dapr/dapr:1.16.0")
	must(c.Create(ctx, injector))
	system := &unstructured.Unstructured{}
	system.SetGroupVersionKind(workload.ConfigurationGVK)
	system.SetNamespace("dapr-system")
	system.SetName("daprsystem")
	system.Object["spec"] = map[string]any{"mtls": map[string]any{"enabled": true,
		"controlPlaneTrustDomain": "cluster.local", "sentryAddress": "dapr-sentry.dapr-system.svc.cluster.local:443"}}
	must(c.Create(ctx, system))

	r := &perfrun.Reconciler{Client: c, APIReader: c, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{},
		PollInterval: time.Second, ImageStartGrace: time.Minute, DaprNamespace: "dapr-system", NetworkPolicies: true}
	preflight := func(name string, paths perfv1alpha1.InvocationPaths) *perfv1alpha1.PerfRun {
		t.Helper()
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: perfv1alpha1.PerfRunSpec{
			Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}, ServiceInvocation: &perfv1alpha1.ServiceInvocationSpec{Paths: paths}}}
		must(c.Create(ctx, run))
		_, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)})
		must(err)
		must(c.Get(ctx, client.ObjectKeyFromObject(run), run))
		return run
	}
	failedWith := func(run *perfv1alpha1.PerfRun, words ...string) {
		t.Helper()
		failed := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed)
		if run.Status.Phase != perfv1alpha1.PhaseFailed || failed == nil || failed.Reason != perfv1alpha1.ReasonDaprFeatureMissing {
			t.Fatalf("%s: phase %s, failed %+v; want Failed with DaprFeatureMissing", run.Name, run.Status.Phase, failed)
		}
		for _, w := range words {
			if !strings.Contains(failed.Message, w) {
				t.Errorf("%s: message %q does not say %q", run.Name, failed.Message, w)
			}
		}
	}

	failedWith(preflight("no-endpoints", perfv1alpha1.PathsFour), "httpendpoints.dapr.io", "serviceInvocation.paths Standard")
	standard := preflight("standard", perfv1alpha1.PathsStandard)
	if ready := meta.FindStatusCondition(standard.Status.Conditions, perfv1alpha1.ConditionDaprReady); ready == nil || ready.Reason != perfv1alpha1.ReasonDaprFound {
		t.Errorf("a standard run did not pass the preflight of a cluster that can run it: %+v", standard.Status.Conditions)
	}

	injector.Spec.Template.Spec.Containers[0].Image = "ghcr.io/dapr/dapr:1.10.5"
	must(c.Update(ctx, injector))
	failedWith(preflight("old-dapr", perfv1alpha1.PathsFour), "Dapr 1.10.5", "Dapr 1.11+")

	// An operator that creates no NetworkPolicies refuses a run that would open the target's
	// daprd API on its pod address, whatever else the cluster offers, and creates nothing.
	// A profiled run opens nothing (the target app takes its daprd's profile on localhost):
	// it is not refused.
	unguarded := &perfrun.Reconciler{Client: c, APIReader: c, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{},
		PollInterval: time.Second, ImageStartGrace: time.Minute, DaprNamespace: "dapr-system", NetworkPolicies: false}
	// A State run's deployed Redis, guarded by its password and the policy: the same refusal.
	for _, spec := range []struct {
		name    string
		paths   perfv1alpha1.InvocationPaths
		profile *perfv1alpha1.ProfilingSpec
		state   bool
		refused bool
	}{{"unguarded-four", perfv1alpha1.PathsFour, nil, false, true}, {"profiled-unguarded", perfv1alpha1.PathsStandard, &perfv1alpha1.ProfilingSpec{}, false, false},
		{"unguarded-store", "", nil, true, true}} {
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: spec.name, Namespace: "default"}, Spec: perfv1alpha1.PerfRunSpec{
			Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}, ServiceInvocation: &perfv1alpha1.ServiceInvocationSpec{Paths: spec.paths}, Profiling: spec.profile}}
		if spec.state {
			run.Spec.Scenario, run.Spec.ServiceInvocation = perfv1alpha1.ScenarioState, nil
		}
		must(c.Create(ctx, run))
		_, err := unguarded.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)})
		must(err)
		must(c.Get(ctx, client.ObjectKeyFromObject(run), run))
		failed := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed)
		isRefused := run.Status.Phase == perfv1alpha1.PhaseFailed && failed != nil && failed.Reason == perfv1alpha1.ReasonNetworkPoliciesOff &&
			strings.Contains(failed.Message, "--network-policies=false")
		if isRefused != spec.refused {
			t.Errorf("%s: phase %s, failed %+v; refused with NetworkPoliciesOff: want %v", spec.name, run.Status.Phase, failed, spec.refused)
		}
	}

	var deploys appsv1.DeploymentList
	must(c.List(ctx, &deploys, client.InNamespace("default")))
	for _, d := range deploys.Items {
		if strings.HasPrefix(d.Name, "no-endpoints") || strings.HasPrefix(d.Name, "old-dapr") || strings.HasPrefix(d.Name, "unguarded") {
			t.Errorf("a refused run created %s", d.Name)
		}
	}
}
