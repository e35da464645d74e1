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
	"errors"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/pass"
	"github.com/daprbench/daprbench/controllers/perfrun"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/kit/version"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// newNamespace makes a namespace for one spec; its runs are deleted when the spec ends, so
// none stays measuring on the one fake node and holds another spec's run in the queue.
func newNamespace() string {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "perf-"}}
	Expect(k8sClient.Create(suiteCtx, ns)).To(Succeed())
	DeferCleanup(func() {
		Expect(k8sClient.DeleteAllOf(suiteCtx, &perfv1alpha1.PerfRun{}, client.InNamespace(ns.Name))).To(Succeed())
	})
	return ns.Name
}

// restartManagerWith restarts the manager with its PerfRun reconciler tuned (flags) for
// the rest of the spec.
func restartManagerWith(tune func(*perfrun.Reconciler)) {
	stopManager()
	stopManager = startManagerAs(restConfig, nil, tune)
	DeferCleanup(func() {
		stopManager()
		stopManager = startManager()
	})
}

func createRun(ns, name string, scenario perfv1alpha1.Scenario, mutate ...func(*perfv1alpha1.PerfRunSpec)) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: perfv1alpha1.PerfRunSpec{
			Scenario: scenario,
			Load:     perfv1alpha1.LoadSpec{QPS: 1000, Duration: &metav1.Duration{Duration: 10 * time.Second}},
			// The specs run side by side on one fake node and some leave runs measuring: they
			// opt out of the run queue, whose own specs opt back in.
			Exclusive: ptr.To(false),
		},
	}
	for _, m := range mutate {
		m(&run.Spec)
	}
	Expect(k8sClient.Create(suiteCtx, run)).To(Succeed())
	return run
}

// run builds a measured run of the summary: percentiles base, base+100µs, ... in µs.
func summaryRun(v result.Variant, rep int, baseUs int64) result.Run {
	r := result.Run{Variant: v, Rep: rep, StartUnix: time.Now().Unix(), Seconds: 10, ActualQPS: 998.4, Requests: 9984,
		Codes: map[string]int64{"200": 9984}, AvgUs: baseUs + 50, MaxUs: baseUs * 10}
	for i, p := range result.StandardPercentiles {
		r.Percentiles = append(r.Percentiles, result.Percentile{P: p, Us: baseUs + int64(i)*100})
	}
	return r
}

func phaseOf(run *perfv1alpha1.PerfRun) func() perfv1alpha1.Phase {
	return func() perfv1alpha1.Phase { return latest(run).Status.Phase }
}

func conditionOf(run *perfv1alpha1.PerfRun, t string) *metav1.Condition {
	return meta.FindStatusCondition(latest(run).Status.Conditions, t)
}

// reasonOf polls a condition's reason: children are created before the status naming them is
// written, so a test that saw a child must still wait for the condition.
func reasonOf(run *perfv1alpha1.PerfRun, t string) func() string {
	return func() string {
		if c := conditionOf(run, t); c != nil {
			return c.Reason
		}
		return ""
	}
}

// failedWith waits for the run to fail and returns the Failed condition.
func failedWith(run *perfv1alpha1.PerfRun, reason string) *metav1.Condition {
	EventuallyWithOffset(1, phaseOf(run), 20*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
	c := conditionOf(run, perfv1alpha1.ConditionFailed)
	ExpectWithOffset(1, c).NotTo(BeNil())
	ExpectWithOffset(1, c.Reason).To(Equal(reason), c.Message)
	ExpectWithOffset(1, c.ObservedGeneration).To(Equal(latest(run).Generation))
	return c
}

func exists(obj client.Object) func() bool {
	return func() bool {
		err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(obj), obj)
		return err == nil
	}
}

func daprObj(gvkKind string, ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(workload.ConfigurationGVK.GroupVersion().WithKind(gvkKind))
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

func deployment(ns, name string) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func eventReasons(obj client.Object) func() []string {
	return func() []string {
		var list eventsv1.EventList
		Expect(k8sClient.List(suiteCtx, &list, client.InNamespace(obj.GetNamespace()))).To(Succeed())
		var reasons []string
		for _, e := range list.Items {
			if e.Regarding.Name == obj.GetName() {
				reasons = append(reasons, e.Reason)
			}
		}
		return reasons
	}
}

func envValue(job *batchv1.Job, name string) string {
	for _, e := range job.Spec.Template.Spec.Containers[0].Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

// secretEnv is the Secret a load-tester variable is read from ("" when it is not).
func secretEnv(job *batchv1.Job, name string) string {
	for _, e := range job.Spec.Template.Spec.Containers[0].Env {
		if e.Name == name && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			return e.ValueFrom.SecretKeyRef.Name
		}
	}
	return ""
}

var _ = Describe("PerfRun controller", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("runs a ServiceInvocation run against a baseline and reports added latency", func() {
		run := createRun(ns, "invoke", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Repetitions = 3
		})
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		env := latest(run).Status.Environment
		Expect(env.MTLS).To(Equal(ptr.To(true)))
		Expect(env.DaprVersion).To(Equal("1.14.4"))
		Expect(env.ManagerVersion).To(Equal(version.Get().String()), "the manager that ran it says which it is")
		Expect(conditionOf(run, perfv1alpha1.ConditionDaprReady).Reason).To(Equal(perfv1alpha1.ReasonDaprFound))

		// The target carries the Dapr annotations. The Configuration passed
		// Dapr's own CRD schema to exist at all.
		target := deployment(ns, "invoke-target")
		Eventually(exists(target)).Should(BeTrue())
		Expect(target.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/app-id", "invoke-target"))
		Expect(target.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/sidecar-cpu-limit", "500m"))
		Expect(target.Spec.Template.Spec.Containers[0].Image).To(Equal(testImage))
		// The baseline calls the target's own pod (spec.baselineTarget SamePod): no twin.
		baseline := deployment(ns, "invoke-baseline")
		tracing := daprObj("Configuration", ns, "invoke-tracing")
		Eventually(exists(tracing)).Should(BeTrue())
		rate, _, _ := unstructured.NestedString(tracing.Object, "spec", "tracing", "samplingRate")
		Expect(rate).To(Equal("0.1"))
		Consistently(exists(&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "invoke-load-1"}}), time.Second).Should(BeFalse(),
			"no load before the target is Available")

		markAvailable(ns, "invoke-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		Expect(exists(baseline)()).To(BeFalse(), "no sidecar-free twin for a same-pod baseline")
		job := currentJobOf(run)
		targetPod := &corev1.Pod{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "invoke-target-pod"}, targetPod)).To(Succeed())
		Expect(targetPod.Status.PodIP).NotTo(BeEmpty())
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("http://localhost:3500/v1.0/invoke/invoke-target/method/test"))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(Equal("http://"+targetPod.Status.PodIP+":3000/test"), "the Dapr path's own pod, by IP")
		Expect(latest(run).Status.Environment.BaselinePod).To(Equal("invoke-target-pod (" + targetPod.Status.PodIP + ") on " + testNode))
		Expect(envValue(job, "DAPRBENCH_PAYLOAD_BYTES")).To(Equal("1024"))
		Expect(*job.Spec.BackoffLimit).To(Equal(int32(0)))
		Expect(envValue(job, "DAPRBENCH_UNIFORM")).To(BeEmpty(), "Synchronized, fortio's default, unless asked")

		// envtest serves no metrics API: sampling reports the API's own error, and the run
		// goes on (it never fails for want of metrics).
		startLoad(run)
		// Where the load is: from the load tester's start (a minute ago), written by the
		// controller for the plugin's progress bar.
		Eventually(func() *perfv1alpha1.RunProgress { return latest(run).Status.Progress }).ShouldNot(BeNil())
		progress := latest(run).Status.Progress
		Expect(progress.Repetitions).To(Equal(int32(3)))
		Expect(progress.LoadStartTime.Time).To(BeTemporally("~", fakeClock.Now().Add(-time.Minute), time.Second))
		Expect(progress.ExpectedEndTime.Sub(progress.LoadStartTime.Time)).To(Equal(run.Spec.LoadTime()))
		Eventually(func() string {
			c := conditionOf(run, perfv1alpha1.ConditionResourceUsageAvailable)
			if c == nil || c.Status != metav1.ConditionFalse {
				return ""
			}
			return c.Reason + ": " + c.Message
		}).Should(And(HavePrefix(perfv1alpha1.ReasonMetricsUnavailable), ContainSubstring("the server could not find the requested resource")))

		// Three repetitions; the latency of a path is that of all its requests (the merged
		// histograms), and added is Dapr's merged p90 minus the baseline's.
		runs := []result.Run{
			summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000),
			summaryRun(result.Baseline, 1, 500), summaryRun(result.Dapr, 1, 1100),
			summaryRun(result.Baseline, 2, 700), summaryRun(result.Dapr, 2, 1200),
		}
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: runs}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(latest(run).Status.Progress).To(BeNil(), "progress is cleared when the run ends")

		mergedP90 := func(v result.Variant) time.Duration {
			h := result.NewHistogram()
			for _, r := range runs {
				if r.Variant == v {
					h.Merge(histogramOf(r))
				}
			}
			return time.Duration(h.ValueAtPercentile(90)) * time.Microsecond
		}
		st := latest(run).Status
		Expect(st.CompletionTime).NotTo(BeNil())
		res := resultOf(run)
		Expect(res.Generation).To(Equal(int64(1)))
		Expect(res.RequestedQPS).To(Equal(int32(1000)))
		Expect(res.ActualQPS).To(Equal("998.4"))
		Expect(res.Requests).To(Equal(int64(3 * 9984)))
		Expect(res.ReturnCodes).To(Equal(map[string]int64{"200": 3 * 9984}))
		Expect(res.LatencySignificantDigits).To(Equal(int32(3)))
		daprP90, baseP90 := mergedP90(result.Dapr), mergedP90(result.Baseline)
		Expect(daprP90).To(BeNumerically(">", 1300*time.Microsecond), "not the median of the repetitions' p90s")
		Expect(res.Latency.P90.Duration).To(Equal(daprP90))
		Expect(res.Baseline.P90.Duration).To(Equal(baseP90))
		Expect(res.Added.P90.Duration).To(Equal(daprP90 - baseP90))
		Expect(res.Added.Max).To(BeNil(), "max minus max is noise")
		Expect(res.AddedInterval.ConfidencePercent).To(Equal(int32(95)))
		Expect(res.AddedInterval.Low.P90.Duration).To(BeNumerically("<=", res.Added.P90.Duration))
		Expect(res.AddedInterval.High.P90.Duration).To(BeNumerically(">=", res.Added.P90.Duration))
		Expect(res.AddedInterval.Basis).To(Equal(perfv1alpha1.IntervalBetweenRepetitions))
		Expect(res.AddedInterval.Repetitions).To(Equal(int32(3)))
		// Every request went out on time here: service time is latency, the send lag zero.
		Expect(res.ServiceTime.P90.Duration).To(Equal(daprP90))
		Expect(res.SendLag.P99.Duration).To(BeZero())
		Expect(res.BaselineServiceTime.P90.Duration).To(Equal(baseP90))
		Expect(res.Saturated).To(BeEmpty())
		Expect(conditionOf(run, perfv1alpha1.ConditionSaturated).Reason).To(Equal(perfv1alpha1.ReasonScheduleKept))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Reason).To(Equal(perfv1alpha1.ReasonSucceeded))
		Expect(res.Spread.Latency.Min.P90.Duration).To(Equal(1200 * time.Microsecond))
		Expect(res.Spread.Latency.Max.P90.Duration).To(Equal(1400 * time.Microsecond))
		Expect(st.Environment.TargetNode).To(Equal(testNode))
		Expect(st.Environment.SameNode).To(Equal(ptr.To(true)))
		Expect(st.Environment.SidecarImage).To(Equal(testSidecarImage), "the daprd the injector put into the target")
		// The node's calibration, from its pods' calibration init containers, once per node.
		Expect(st.Environment.Calibration).To(HaveLen(1))
		Expect(st.Environment.Calibration[0]).To(And(HaveField("Node", testNode), HaveField("Single", "12346"), HaveField("PerCPUSecond", "12500"),
			HaveField("Parallel", "20000"), HaveField("Parallelism", int32(2))))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).To(ContainSubstring("added by Dapr p90 " + res.Added.P90.Duration.String() + " ["))
		Expect(res.Resources).To(BeNil())
		Expect(res.Restarts).To(Equal(&perfv1alpha1.Restarts{}))
		Expect(st.LiveUsage).To(BeNil())
		Expect(conditionOf(run, perfv1alpha1.ConditionResourceUsageAvailable).Status).To(Equal(metav1.ConditionFalse))

		// Cleanup OnSuccess removes every child; the PerfRun stays.
		Eventually(exists(target)).Should(BeFalse())
		Eventually(exists(baseline)).Should(BeFalse())
		Eventually(exists(tracing)).Should(BeFalse())
		Eventually(exists(job)).Should(BeFalse())
		Eventually(exists(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "invoke-target"}})).Should(BeFalse())
		Expect(latest(run).Status.Phase).To(Equal(perfv1alpha1.PhaseSucceeded))
		Eventually(eventReasons(run)).Should(ContainElements(perfv1alpha1.ReasonDaprFound, perfv1alpha1.ReasonWorkloadsAvailable, perfv1alpha1.ReasonSucceeded))
	})

	It("runs an ActorActivation run with an in-memory actor state store", func() {
		run := createRun(ns, "actors", perfv1alpha1.ScenarioActorActivation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.QPS = 500
			s.Cleanup = perfv1alpha1.CleanupNever
		})
		store := daprObj("Component", ns, "actors-statestore")
		Eventually(exists(store)).Should(BeTrue())
		Expect(store.Object["spec"]).To(HaveKeyWithValue("type", "state.in-memory"))
		Expect(store.Object["scopes"]).To(ConsistOf("actors-target", "actors-loadtester"))
		Consistently(exists(deployment(ns, "actors-baseline")), time.Second).Should(BeFalse(), "actors have no baseline")
		target := deployment(ns, "actors-target")
		Expect(exists(target)()).To(BeTrue())
		// An actor type of the run's own: placement never spreads its calls over other targets.
		actorType := "PerfActor-" + string(latest(run).UID)[:8] + "-1"
		Expect(target.Spec.Template.Spec.Containers[0].Args).To(ContainElement("--actor-type=" + actorType))

		markAvailable(ns, "actors-target")
		job := currentJobOf(run)
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("http://localhost:3500/v1.0/actors/" + actorType + "/{uuid}/method/activate"))
		Expect(envValue(job, "DAPRBENCH_PAYLOAD")).To(Equal("{}"))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(BeEmpty())
		Expect(job.Spec.Template.Annotations).NotTo(HaveKey("dapr.io/app-port"))

		finishLoad(run, result.Summary{RequestedQPS: 500, Runs: []result.Run{summaryRun(result.Dapr, 0, 3000)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		res := resultOf(run)
		Expect(res.Latency.P90.Duration).To(Equal(3201 * time.Microsecond)) // 3.2 ms, reported as the top of its 2 µs HDR bucket
		Expect(res.Baseline).To(BeNil())
		Expect(res.Added).To(BeNil())
		Expect(res.Spread.Baseline).To(BeNil(), "the default three repetitions have a spread, of the Dapr path only")
		Consistently(exists(store), time.Second).Should(BeTrue(), "cleanup: Never keeps children")
	})

	It("fails with DaprNotInstalled, creating nothing, when no control plane is found", Serial, func() {
		restartManagerWith(func(r *perfrun.Reconciler) { r.DaprNamespace = "dapr-elsewhere" })
		run := createRun(ns, "nodapr", perfv1alpha1.ScenarioServiceInvocation)
		c := failedWith(run, perfv1alpha1.ReasonDaprNotInstalled)
		Expect(c.Message).To(ContainSubstring(`no sidecar injector runs in namespace "dapr-elsewhere"`))
		Expect(c.Message).To(ContainSubstring("the operator's --dapr-namespace"))
		Expect(conditionOf(run, perfv1alpha1.ConditionDaprReady).Status).To(Equal(metav1.ConditionFalse))
		Consistently(func() int {
			var list appsv1.DeploymentList
			Expect(k8sClient.List(suiteCtx, &list, client.InNamespace(ns))).To(Succeed())
			return len(list.Items)
		}, time.Second).Should(BeZero())
		Eventually(eventReasons(run)).Should(ContainElement(perfv1alpha1.ReasonDaprNotInstalled))
	})

	It("fails with MTLSMismatch when the run expects mTLS off on a cluster that has it on", func() {
		run := createRun(ns, "mtls", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.MTLS = perfv1alpha1.MTLSDisabled
		})
		c := failedWith(run, perfv1alpha1.ReasonMTLSMismatch)
		Expect(c.Message).To(ContainSubstring("spec.dapr.mtls is Disabled but the cluster has mTLS Enabled"))
		Expect(c.Message).To(ContainSubstring("dapr-system/daprsystem has spec.mtls.enabled=true"))
		Expect(latest(run).Status.Environment.MTLS).To(Equal(ptr.To(true)))
		Consistently(exists(deployment(ns, "mtls-target")), time.Second).Should(BeFalse())
	})

	It("caches only the runs' own pods, Deployments, Services and Jobs", func() {
		unrelated := deploymentSkeleton(ns, "someone-elses", map[string]string{"app": "web"}, "nginx")
		Expect(k8sClient.Create(suiteCtx, unrelated)).To(Succeed())
		stray := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "stray"},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}
		Expect(k8sClient.Create(suiteCtx, stray)).To(Succeed())
		run := createRun(ns, "cached", perfv1alpha1.ScenarioServiceInvocation)
		By("the run's target is in the cache, and preflight still found Dapr's unlabelled injector")
		Eventually(func() error {
			return managerCache.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "cached-target"}, &appsv1.Deployment{})
		}).Should(Succeed())
		Eventually(reasonOf(run, perfv1alpha1.ConditionDaprReady)).Should(Equal(perfv1alpha1.ReasonDaprFound))
		By("objects without the run label never are")
		Consistently(func() bool {
			err := managerCache.Get(suiteCtx, client.ObjectKeyFromObject(unrelated), &appsv1.Deployment{})
			return apierrors.IsNotFound(err)
		}, 2*time.Second).Should(BeTrue())
		Expect(apierrors.IsNotFound(managerCache.Get(suiteCtx, client.ObjectKeyFromObject(stray), &corev1.Pod{}))).To(BeTrue())
	})

	It("dates condition transitions by the injected clock, like startTime and completionTime", func() {
		past := time.Now().Add(-72 * time.Hour).Truncate(time.Second)
		fakeClock.SetTime(past)
		run := createRun(ns, "dated", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.MTLS = perfv1alpha1.MTLSDisabled
		})
		failedWith(run, perfv1alpha1.ReasonMTLSMismatch)
		st := latest(run).Status
		Expect(st.StartTime.Time).To(BeTemporally("==", past))
		Expect(st.CompletionTime.Time).To(BeTemporally("==", past))
		Expect(st.Conditions).NotTo(BeEmpty())
		for _, c := range st.Conditions {
			Expect(c.LastTransitionTime.Time).To(BeTemporally("==", past), c.Type)
		}
	})

	It("fails with StateStoreNotFound when the named actor state store is missing", func() {
		run := createRun(ns, "store", perfv1alpha1.ScenarioActorActivation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Actors = &perfv1alpha1.ActorsSpec{StateStore: "redis-actors"}
		})
		c := failedWith(run, perfv1alpha1.ReasonStateStoreNotFound)
		Expect(c.Message).To(ContainSubstring(`Component "redis-actors"`))
	})

	It("fails with StateStoreNotAllowed, creating nothing, for a store the platform team did not list", func() {
		// It exists: a team's production store that a PerfRun-only user must not flood.
		store := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "dapr.io/v1alpha1", "kind": "Component",
			"metadata": map[string]any{"name": "orders", "namespace": ns},
			"spec":     map[string]any{"type": "state.in-memory", "version": "v1", "metadata": []any{}}}}
		Expect(k8sClient.Create(suiteCtx, store)).To(Succeed())
		run := createRun(ns, "flood", perfv1alpha1.ScenarioActorActivation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Actors = &perfv1alpha1.ActorsSpec{StateStore: "orders"}
		})
		c := failedWith(run, perfv1alpha1.ReasonStateStoreNotAllowed)
		Expect(c.Message).To(ContainSubstring(`spec.actors.stateStore "orders" is not a store runs may write (allowed: redis-actors)`))
		Expect(exists(deployment(ns, "flood-target"))()).To(BeFalse())
	})

	It("fails with LoadTesterFailed, keeping the workloads for inspection", func() {
		run := createRun(ns, "broken", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "broken-target")
		finishLoad(run, result.Summary{RequestedQPS: 1000, Error: "baseline path, repetition 1: dial tcp 10.0.0.7:3000: connect: connection refused"}, false)
		c := failedWith(run, perfv1alpha1.ReasonLoadTesterFailed)
		Expect(c.Message).To(ContainSubstring("connection refused"))
		Consistently(exists(deployment(ns, "broken-target")), time.Second).Should(BeTrue(), "OnSuccess keeps a failed run's children")
		Eventually(eventReasons(run)).Should(ContainElement(perfv1alpha1.ReasonLoadTesterFailed))
	})

	It("fails with InvalidResult when the load tester's termination message is unreadable", func() {
		run := createRun(ns, "garbled", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "garbled-target")
		finishLoadWithMessage(run, "panic: runtime error: index out of range", true)
		c := failedWith(run, perfv1alpha1.ReasonInvalidResult)
		Expect(c.Message).To(ContainSubstring("panic: runtime error"))
	})

	It("fails with InvalidResult when the summary lacks the baseline the spec asked for", func() {
		run := createRun(ns, "halfway", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "halfway-target")
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		c := failedWith(run, perfv1alpha1.ReasonInvalidResult)
		Expect(c.Message).To(ContainSubstring("holds 0 of the 3 repetitions of the baseline path"))
	})

	It("waits for the load tester's terminated state when the Job's completion is seen first, within a bound", func() {
		run := createRun(ns, "early", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "early-target")
		job := currentJobOf(run)
		startLoad(run)
		completeJob(job, true)
		Consistently(phaseOf(run), 2*time.Second).Should(Equal(perfv1alpha1.PhaseRunning), "the summary is on its way, not missing")
		terminateLoadTester(job, encoded(ns, job.Name+"-pod", result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}), true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded), func() string { return fmt.Sprint(latest(run).Status.Conditions) })

		By("a pod that never reports is InvalidResult once the grace has passed")
		late := createRun(ns, "never", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "never-target")
		startLoad(late)
		completeJob(currentJobOf(late), true)
		Consistently(phaseOf(late), time.Second).Should(Equal(perfv1alpha1.PhaseRunning))
		fakeClock.Step(31 * time.Second)
		c := failedWith(late, perfv1alpha1.ReasonInvalidResult)
		Expect(c.Message).To(ContainSubstring("no load-tester container reported a terminated state within 30s"))
	})

	It("fails with ImageNotStarting, in the kubelet's words, when the target image cannot start", func() {
		run := createRun(ns, "noimage", perfv1alpha1.ScenarioServiceInvocation)
		podWaiting(ns, "noimage-target", "ErrImageNeverPull", `Container image "daprbench:test" is not present with pull policy of Never`)
		c := failedWith(run, perfv1alpha1.ReasonImageNotStarting)
		Expect(c.Message).To(ContainSubstring("ErrImageNeverPull"))
		Expect(c.Message).To(ContainSubstring("is not present with pull policy of Never"))
	})

	It("names a pod in ImagePullBackOff at once while it waits, before the grace ends the run", func() {
		run := createRun(ns, "pulling", perfv1alpha1.ScenarioServiceInvocation)
		podWaiting(ns, "pulling-target", "ImagePullBackOff", `Back-off pulling image "redis:7"`)
		Eventually(func() string {
			if c := conditionOf(run, perfv1alpha1.ConditionWorkloadsReady); c != nil {
				return c.Message
			}
			return ""
		}, 10*time.Second).Should(And(ContainSubstring("pod pulling-target-pod container"), ContainSubstring(`is in ImagePullBackOff: Back-off pulling image "redis:7"`)))
		Expect(phaseOf(run)()).NotTo(Equal(perfv1alpha1.PhaseFailed), "within the grace the run waits")
	})

	It("fails with PodsUnschedulable, in the scheduler's words and with the sidecar-request hint, once the grace has passed", func() {
		run := createRun(ns, "nocpu", perfv1alpha1.ScenarioServiceInvocation)
		d := &appsv1.Deployment{}
		Eventually(func() error { return k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "nocpu-target"}, d) }).Should(Succeed())
		pod := podFromTemplate(d, "nocpu-target-pod", d.Spec.Template)
		pod.Spec.NodeName = ""
		Expect(k8sClient.Create(suiteCtx, pod)).To(Succeed())
		pod.Status.Phase = corev1.PodPending
		pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
			Message: "0/1 nodes are available: 1 Insufficient cpu.", LastTransitionTime: metav1.NewTime(fakeClock.Now())}}
		Expect(k8sClient.Status().Update(suiteCtx, pod)).To(Succeed())
		// The pass that created the Deployment writes the phase after it: wait for that first.
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		Consistently(phaseOf(run), time.Second).Should(Equal(perfv1alpha1.PhaseProvisioning), "an autoscaler may add a node within the grace")
		fakeClock.Step(time.Minute + time.Second) // the suite's image-start grace
		c := failedWith(run, perfv1alpha1.ReasonPodsUnschedulable)
		Expect(c.Message).To(ContainSubstring("Insufficient cpu"))
		Expect(c.Message).To(ContainSubstring("set dapr.sidecar.cpuRequest"))
	})

	It("fails with SidecarNotInjected when a fail-open injector admitted the target without daprd", func() {
		run := createRun(ns, "bare", perfv1alpha1.ScenarioServiceInvocation)
		d := &appsv1.Deployment{}
		Eventually(func() error { return k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "bare-target"}, d) }).Should(Succeed())
		Expect(k8sClient.Create(suiteCtx, podWithoutInjection(d, "bare-target-pod", d.Spec.Template))).To(Succeed())
		c := failedWith(run, perfv1alpha1.ReasonSidecarNotInjected)
		Expect(c.Message).To(ContainSubstring("bare-target-pod has no daprd container"))
		Expect(c.Message).To(ContainSubstring("dapr-sidecar-injector"))
		Expect(conditionOf(run, perfv1alpha1.ConditionWorkloadsReady).Reason).To(Equal(perfv1alpha1.ReasonSidecarNotInjected))
		var jobs batchv1.JobList
		Expect(k8sClient.List(suiteCtx, &jobs, client.InNamespace(ns))).To(Succeed())
		Expect(jobs.Items).To(BeEmpty(), "no load is driven at a target without its sidecar")
	})

	It("fails with PodsRefused, in the API server's words, when the cluster refuses the run's pods", func() {
		quota := `pods "refused-target-5d4f" is forbidden: exceeded quota: no-pods, requested: pods=1, used: pods=0, limited: pods=0`
		run := createRun(ns, "refused", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		By("the Deployment controller reports the refusal as ReplicaFailure")
		d := deployment(ns, "refused-target")
		Eventually(exists(d)).Should(BeTrue())
		Eventually(func() error {
			Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(d), d)).To(Succeed())
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Conditions: []appsv1.DeploymentCondition{{
				Type: appsv1.DeploymentReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate", Message: quota,
				LastUpdateTime: metav1.Now(), LastTransitionTime: metav1.Now()}}}
			return k8sClient.Status().Update(suiteCtx, d)
		}).Should(Succeed())
		Eventually(func() string {
			if c := conditionOf(run, perfv1alpha1.ConditionWorkloadsReady); c != nil {
				return c.Message
			}
			return ""
		}).Should(
			And(ContainSubstring("exceeded quota: no-pods"), ContainSubstring("the run fails if this lasts 1m0s")))
		Expect(latest(run).Status.Phase).To(Equal(perfv1alpha1.PhaseProvisioning))
		fakeClock.Step(time.Minute + time.Second)
		c := failedWith(run, perfv1alpha1.ReasonPodsRefused)
		Expect(c.Message).To(ContainSubstring("the cluster refuses to create the Deployment refused-target's pods: " + quota))

		By("the Job controller reports it only as a FailedCreate event")
		fakeClock.SetTime(time.Now())
		jobRun := createRun(ns, "refusedjob", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "refusedjob-target")
		job := currentJobOf(jobRun)
		denied := `pods "refusedjob-load-1-x" is forbidden: violates PodSecurity "restricted:latest": privileged`
		Expect(k8sClient.Create(suiteCtx, &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Namespace: ns, GenerateName: "refusedjob-"},
			InvolvedObject: corev1.ObjectReference{Kind: "Job", APIVersion: "batch/v1", Namespace: ns, Name: job.Name, UID: job.UID},
			Reason:         "FailedCreate", Message: "Error creating: " + denied, Type: corev1.EventTypeWarning,
			LastTimestamp: metav1.Now(), FirstTimestamp: metav1.Now(), Source: corev1.EventSource{Component: "job-controller"},
		})).To(Succeed())
		Consistently(phaseOf(jobRun), time.Second).Should(Equal(perfv1alpha1.PhaseRunning), "within the grace a refusal may clear")
		fakeClock.Step(time.Minute + time.Second)
		c = failedWith(jobRun, perfv1alpha1.ReasonPodsRefused)
		Expect(c.Message).To(ContainSubstring(denied))
	})

	It("fails with TargetNotAvailable when the target never becomes Available within the timeout", func() {
		run := createRun(ns, "slow", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Timeout = &metav1.Duration{Duration: 2 * time.Minute}
		})
		podWaiting(ns, "slow-target", "ContainerCreating", "")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		Consistently(phaseOf(run), time.Second).Should(Equal(perfv1alpha1.PhaseProvisioning))
		fakeClock.Step(2*time.Minute + time.Second)
		c := failedWith(run, perfv1alpha1.ReasonTargetNotAvailable)
		Expect(c.Message).To(ContainSubstring("within the run's timeout (2m0s)"))
		Expect(c.Message).To(ContainSubstring("ContainerCreating"))
		Expect(conditionOf(run, perfv1alpha1.ConditionWorkloadsReady).Reason).To(Equal(perfv1alpha1.ReasonTargetNotAvailable))
	})

	It("fails with Timeout when the load outlasts the timeout", func() {
		run := createRun(ns, "long", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "long-target")
		currentJobOf(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		fakeClock.Step(run.Spec.EffectiveTimeout() + time.Second)
		c := failedWith(run, perfv1alpha1.ReasonTimeout)
		Expect(c.Message).To(ContainSubstring("did not finish within its timeout"))

		By("the finished run drives no more load, though OnSuccess keeps a failed run's children")
		job := currentJobOf(run)
		Eventually(func() bool {
			Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(job), job)).To(Succeed())
			return ptr.Deref(job.Spec.Suspend, false)
		}).Should(BeTrue(), "the Job is suspended, so its pod stops")
		Expect(exists(deployment(ns, "long-target"))()).To(BeTrue())
	})

	It("runs again when the spec changes, keeping the previous result until replaced", func() {
		run := createRun(ns, "rerun", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "rerun-target")
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(resultOf(run).Generation).To(Equal(int64(1)))

		updated := latest(run)
		updated.Spec.Load.QPS = 2000
		Expect(k8sClient.Update(suiteCtx, updated)).To(Succeed())
		Eventually(func() int64 { return latest(run).Status.ObservedGeneration }).Should(Equal(int64(2)))
		st := latest(run).Status
		Expect(st.Phase).NotTo(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(st.Result.Generation).To(Equal(int64(1)), "the previous result stays visible")
		Expect(st.CompletionTime).To(BeNil())

		markAvailable(ns, "rerun-target")
		job := currentJobOf(run)
		Expect(job.Name).To(Equal("rerun-load-2"))
		Expect(envValue(job, "DAPRBENCH_QPS")).To(Equal("2000"))
		finishLoad(run, result.Summary{RequestedQPS: 2000, Runs: []result.Run{summaryRun(result.Dapr, 0, 2000)}}, true)
		Eventually(func() int64 {
			r := resultOf(run)
			return r.Generation
		}, 10*time.Second).Should(Equal(int64(2)))
		Expect(resultOf(run).RequestedQPS).To(Equal(int32(2000)))
		Expect(latest(run).Status.Phase).To(Equal(perfv1alpha1.PhaseSucceeded))
	})

	It("owns every child, so deleting a PerfRun mid-run removes them", func() {
		run := createRun(ns, "gone", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{BaselineTarget: perfv1alpha1.BaselineTwin}
		})
		markAvailable(ns, "gone-target")
		markAvailable(ns, "gone-baseline")
		job := currentJobOf(run)
		uid := latest(run).UID
		// envtest runs no garbage collector: assert the controller references it acts on
		// (the real-cluster e2e suite sees the children actually go).
		children := []client.Object{deployment(ns, "gone-target"), deployment(ns, "gone-baseline"), job,
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "gone-target"}},
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "gone-baseline"}},
			daprObj("Configuration", ns, "gone-tracing")}
		for _, c := range children {
			Expect(exists(c)()).To(BeTrue(), "%T %s", c, c.GetName())
			owner := metav1.GetControllerOf(c)
			Expect(owner).NotTo(BeNil(), "%T %s has no controller", c, c.GetName())
			Expect(owner.UID).To(Equal(uid))
			Expect(owner.BlockOwnerDeletion).To(Equal(ptr.To(true)))
		}
		Expect(k8sClient.Delete(suiteCtx, run)).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(run), run))
		}).Should(BeTrue())
		// Nothing is re-created for a deleted run.
		Expect(k8sClient.Delete(suiteCtx, job, client.PropagationPolicy(metav1.DeletePropagationBackground))).To(Succeed())
		Consistently(exists(&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: job.Name}}), 2*time.Second).Should(BeFalse())
	})

	It("completes a run exactly once across a controller restart", func() {
		run := createRun(ns, "restart", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Baseline = ptr.To(false)
			s.Cleanup = perfv1alpha1.CleanupNever
		})
		markAvailable(ns, "restart-target")
		job := currentJobOf(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))

		stopManager()
		stopManager = startManager()

		Consistently(phaseOf(run), time.Second).Should(Equal(perfv1alpha1.PhaseRunning))
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 900)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		var jobs batchv1.JobList
		Expect(k8sClient.List(suiteCtx, &jobs, client.InNamespace(ns))).To(Succeed())
		Expect(jobs.Items).To(HaveLen(1), "no duplicate Job")
		Expect(jobs.Items[0].UID).To(Equal(job.UID))
		succeededAt := conditionOf(run, perfv1alpha1.ConditionSucceeded).LastTransitionTime
		Consistently(func() metav1.Time { return conditionOf(run, perfv1alpha1.ConditionSucceeded).LastTransitionTime }, time.Second).Should(Equal(succeededAt))
		Expect(strings.Count(strings.Join(eventReasons(run)(), ","), perfv1alpha1.ReasonSucceeded)).To(Equal(1), "one Succeeded event")
	})

	It("cleans up only after the finished status is written, and never overwrites a newer status", func() {
		run := createRun(ns, "unwritten", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Baseline = ptr.To(false) })
		markAvailable(ns, "unwritten-target")
		currentJobOf(run)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		stopManager()
		DeferCleanup(func() { stopManager = startManager() })
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, 900)}}, true)

		By("a pass whose status write fails leaves every child in place")
		base, err := client.NewWithWatch(restConfig, client.Options{Scheme: scheme})
		Expect(err).NotTo(HaveOccurred())
		failing := interceptor.NewClient(base, interceptor.Funcs{
			SubResourcePatch: func(context.Context, client.Client, string, client.Object, client.Patch, ...client.SubResourcePatchOption) error {
				return errors.New("etcdserver: request timed out")
			},
		})
		r := &perfrun.Reconciler{Client: failing, APIReader: k8sClient, Recorder: events.NewFakeRecorder(10), Clock: fakeClock,
			PollInterval: testPollInterval, ImageStartGrace: time.Minute}
		req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)}
		_, err = r.Reconcile(suiteCtx, req)
		Expect(err).To(MatchError(ContainSubstring("request timed out")))
		Expect(exists(deployment(ns, "unwritten-target"))()).To(BeTrue(), "a rerun would follow if the children went")
		Expect(exists(currentJobOf(run))()).To(BeTrue())
		Expect(latest(run).Status.Phase).To(Equal(perfv1alpha1.PhaseRunning))

		By("a status written from a stale read is refused, not overwritten")
		stale := latest(run)
		newer := stale.DeepCopy()
		newer.Status.Phase = perfv1alpha1.PhaseRunning
		meta.SetStatusCondition(&newer.Status.Conditions, metav1.Condition{Type: "Probe", Status: metav1.ConditionTrue, Reason: "Probe"})
		Expect(k8sClient.Status().Update(suiteCtx, newer)).To(Succeed())
		r.Client = k8sClient
		mine := stale.DeepCopy()
		mine.Status.Phase = perfv1alpha1.PhaseSucceeded
		res, written, err := pass.Finish(suiteCtx, k8sClient, r.Recorder, pass.End{Orig: stale, Obj: mine, OrigStatus: stale.Status, Status: mine.Status, Now: metav1.Now()})
		Expect(err).NotTo(HaveOccurred(), "a conflict alone requeues quietly")
		Expect(written).To(BeFalse())
		Expect(res.RequeueAfter).To(Equal(time.Second))
		Expect(conditionOf(run, "Probe")).NotTo(BeNil(), "the newer status survives")
	})

	It("judges thresholds: met, inconclusive within the interval, and violated with failRun", func() {
		gate := func(failRun bool) func(*perfv1alpha1.PerfRunSpec) {
			return func(s *perfv1alpha1.PerfRunSpec) {
				s.Load.Repetitions = 3
				s.Thresholds = &perfv1alpha1.Thresholds{MaxAddedP90: &metav1.Duration{Duration: 2 * time.Millisecond},
					MinQPSPercent: ptr.To[int32](99), MaxErrors: ptr.To[int64](0), FailRun: failRun}
			}
		}
		finish := func(name string, addedUs ...int64) *perfv1alpha1.PerfRun {
			run := createRun(ns, name, perfv1alpha1.ScenarioServiceInvocation, gate(name == "violated"))
			markAvailable(ns, name+"-target")
			var runs []result.Run
			for i, a := range addedUs { // added p90 per repetition = a
				runs = append(runs, summaryRun(result.Baseline, i, 500), summaryRun(result.Dapr, i, 500+a))
			}
			finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: runs}, true)
			Eventually(func() bool { return latest(run).Finished() }, 10*time.Second).Should(BeTrue())
			return run
		}

		// Three repetitions: the interval is the point ± t(2)·se of their own differences, so
		// repetitions 300 µs apart could not be judged against a 2 ms limit 500 µs away.
		met := finish("met", 1200, 1300, 1250)
		c := conditionOf(met, perfv1alpha1.ConditionThresholdsMet)
		Expect(c.Status).To(Equal(metav1.ConditionTrue))
		Expect(c.Message).To(MatchRegexp(`added p90 [0-9.]+ms \(95% interval 1\.[0-9.]+ms\.\.1\.[0-9.]+ms\) \(limit <= 2ms\): met`))
		Expect(c.Message).To(ContainSubstring("actual qps 998.4 (99.84%)"))

		// Dapr's own gate once failed at 2.01ms against 2ms: within the interval, that is noise.
		noisy := finish("noisy", 1800, 2220, 2000)
		c = conditionOf(noisy, perfv1alpha1.ConditionThresholdsMet)
		Expect(c.Status).To(Equal(metav1.ConditionUnknown))
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonInconclusive))
		Expect(latest(noisy).Status.Phase).To(Equal(perfv1alpha1.PhaseSucceeded))

		violated := finish("violated", 2500, 2600, 2550)
		f := failedWith(violated, perfv1alpha1.ReasonThresholdsViolated)
		Expect(f.Message).To(MatchRegexp(`added p90 2\.[0-9.]+ms \(95% interval 2\.[0-9.]+ms\.\.2\.[0-9.]+ms\) \(limit <= 2ms\): VIOLATED`))
		Expect(resultOf(violated).Added.P90.Duration).To(BeNumerically("~", 2550*time.Microsecond, 50*time.Microsecond), "the result is kept")
	})

	It("judges a variant's thresholds on its difference from the first into ThresholdsMet, and re-judges an edit of them", func() {
		run := createRun(ns, "variants", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Repetitions = 3
			s.Variants = []perfv1alpha1.SidecarVariant{{Name: "base"}, {Name: "fast", LogLevel: "debug",
				Thresholds: &perfv1alpha1.VariantThresholds{MaxSlowdownP90: &metav1.Duration{Duration: 200 * time.Microsecond}}}}
			s.Cleanup = perfv1alpha1.CleanupNever // envtest collects no garbage: the targets stay for the re-judged generation
		})
		markAvailable(ns, "variants-target")
		markAvailable(ns, "variants-target-fast")
		// fast is 300, 320 and 310 µs slower than base in the three repetitions: its p90
		// difference's interval lies wholly above the 200 µs limit.
		var runs []result.Run
		for i, slower := range []int64{300, 320, 310} {
			runs = append(runs, summaryRun(result.Baseline, i, 500), summaryRun(result.Dapr, i, 1000), summaryRun(result.DaprVariant(1), i, 1000+slower))
		}
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: runs}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded), "without failRun a violation does not fail the run")
		fast := resultOf(run).Variants[1]
		Expect(fast.DifferenceInterval.Low.P90.Duration).To(BeNumerically(">", 200*time.Microsecond))
		c := conditionOf(run, perfv1alpha1.ConditionThresholdsMet)
		Expect(c).NotTo(BeNil(), "the variant's thresholds are gates: ThresholdsMet reports them")
		Expect(c.Status).To(Equal(metav1.ConditionFalse))
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonThresholdsViolated))
		Expect(c.Message).To(Equal(fmt.Sprintf("variant fast p90 slowdown %s (95%% interval %s..%s) (limit <= 200µs): VIOLATED",
			fast.Difference.P90.Duration, fast.DifferenceInterval.Low.P90.Duration, fast.DifferenceInterval.High.P90.Duration)))

		By("a looser limit on the variant: the same result, judged again")
		editSpec(run, func(s *perfv1alpha1.PerfRunSpec) {
			s.Variants[1].Thresholds.MaxSlowdownP90 = &metav1.Duration{Duration: time.Millisecond}
		})
		Eventually(func() string {
			c := conditionOf(run, perfv1alpha1.ConditionThresholdsMet)
			if c == nil || c.ObservedGeneration != 2 {
				return ""
			}
			return string(c.Status) + " " + c.Message
		}, 10*time.Second).Should(MatchRegexp(`^True variant fast p90 slowdown 3[0-9]{2}µs \(95% interval .*\) \(limit <= 1ms\): met$`))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).To(ContainSubstring("re-judged: generation 2 changed only the thresholds"))
		Expect(exists(&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "variants-load-2"}})()).To(BeFalse(), "no load for a thresholds-only edit")
	})

	It("ends Saturated, claiming no added latency, when the load tester could not keep its schedule", func() {
		run := createRun(ns, "behind", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Load.Connections = 1 })
		markAvailable(ns, "behind-target")
		// One connection at 1000 rps to a 1.4 ms service: the Dapr path carried 714 rps.
		slow := summaryRun(result.Dapr, 0, 1400)
		slow.ActualQPS, slow.Requests = 714.2, 7142
		finishLoad(run, result.Summary{RequestedQPS: 1000, GapUs: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), slow}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		res := resultOf(run)
		Expect(res.Added).To(BeNil(), "no added latency for a rate that was not carried")
		Expect(res.Saturated).To(HaveLen(1))
		Expect(res.Saturated[0].Path).To(Equal("dapr"))
		Expect(res.Saturated[0].ActualQPS).To(Equal("714.2"))
		sat := conditionOf(run, perfv1alpha1.ConditionSaturated)
		Expect(sat.Status).To(Equal(metav1.ConditionTrue))
		Expect(sat.Message).To(ContainSubstring("dapr path (repetition 1) achieved 714.2 of 1000 qps"))
		done := conditionOf(run, perfv1alpha1.ConditionSucceeded)
		Expect(done.Reason).To(Equal(perfv1alpha1.ReasonSaturated))
		Expect(done.Message).To(ContainSubstring("no added latency is claimed"))
	})

	It("names the pods disturbed during a measured run: a control-plane pod replaced, a sidecar restarted", func() {
		run := createRun(ns, "disturbed", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "disturbed-target")
		// The load tester starts after its pod and the target's were created, as on a cluster.
		setPodStatus(loadTesterPod(currentJobOf(run)), corev1.PodRunning, func(string) corev1.ContainerState {
			return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
		}, true)
		time.Sleep(1100 * time.Millisecond) // the API server stamps times to the second
		// Dapr's placement StatefulSet replaces a deleted pod under the same name...
		placement := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "dapr-system", Name: "dapr-placement-server-0", Labels: map[string]string{"app": "dapr-placement-server"}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "dapr-placement-server", Image: "placement"}}},
		}
		Expect(k8sClient.Create(suiteCtx, placement)).To(Succeed())
		DeferCleanup(func() { Expect(k8sClient.Delete(suiteCtx, placement, client.GracePeriodSeconds(0))).To(Succeed()) })
		// ... and the target's daprd is OOM-killed and restarted.
		target := &corev1.Pod{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "disturbed-target-pod"}, target)).To(Succeed())
		killed := metav1.NewTime(time.Now())
		for i := range target.Status.ContainerStatuses {
			if cs := &target.Status.ContainerStatuses[i]; cs.Name == workload.ContainerDaprd {
				cs.RestartCount = 1
				cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled", FinishedAt: killed}
			}
		}
		Expect(k8sClient.Status().Update(suiteCtx, target)).To(Succeed())
		// Both are recorded while the load runs: a pod shows only its latest restart, and a
		// deleted one vanishes.
		Eventually(func() []string {
			var roles []string
			for _, d := range latest(run).Status.Disturbances {
				roles = append(roles, string(d.Kind)+" "+d.Role)
			}
			return roles
		}).Should(ContainElements("Created controlPlane/dapr-placement-server", "Restarted target"))

		// The Dapr path's first run was measured from 20 s ago for a minute: both hit it.
		now := time.Now().Unix()
		baseline, dapr := summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)
		baseline.StartUnix, baseline.Seconds = now-40, 20
		dapr.StartUnix, dapr.Seconds = now-20, 60
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{baseline, dapr}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		disturbed := conditionOf(run, perfv1alpha1.ConditionDisturbed)
		Expect(disturbed.Status).To(Equal(metav1.ConditionTrue))
		Expect(disturbed.Reason).To(Equal(perfv1alpha1.ReasonPodsDisturbed))
		done := conditionOf(run, perfv1alpha1.ConditionSucceeded)
		Expect(done.Message).To(ContainSubstring("disturbed while measured: "))
		Expect(done.Message).To(MatchRegexp(`control-plane pod dapr-placement-server-0 \(dapr-placement-server\) created at %s \(dapr run 1 of 3, \d+s in; not ready yet\)`,
			placement.CreationTimestamp.UTC().Format(time.TimeOnly)))
		Expect(done.Message).To(MatchRegexp(`target pod disturbed-target-pod container daprd restarted at %s \(dapr run 1 of 3, \d+s in; exit 137 OOMKilled, restart 1\)`,
			killed.UTC().Format(time.TimeOnly)))
		Eventually(scrape).Should(And(
			ContainSubstring(`daprbench_perfrun_disturbances{namespace="`+ns+`",perfrun="disturbed",role="controlPlane/dapr-placement-server",schedule=""} 1`),
			ContainSubstring(`daprbench_perfrun_disturbances{namespace="`+ns+`",perfrun="disturbed",role="target",schedule=""} 1`)))
	})

	It("says no pod was disturbed when none was", func() {
		run := createRun(ns, "calm", perfv1alpha1.ScenarioServiceInvocation)
		markAvailable(ns, "calm-target")
		startLoad(run)
		// The measured runs begin after the warm-up, seconds after the pods were created.
		baseline, dapr := summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)
		baseline.StartUnix, dapr.StartUnix = baseline.StartUnix+2, dapr.StartUnix+12
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{baseline, dapr}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(conditionOf(run, perfv1alpha1.ConditionDisturbed).Reason).To(Equal(perfv1alpha1.ReasonUndisturbed))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).NotTo(ContainSubstring("disturbed"))
	})

	It("says so when the added latency cannot be told from zero, never reporting a silent negative", func() {
		run := createRun(ns, "noise", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Load.Repetitions = 2 })
		markAvailable(ns, "noise-target")
		// Dapr 10 µs faster in one repetition, 20 µs slower in the other.
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{
			summaryRun(result.Baseline, 0, 800), summaryRun(result.Dapr, 0, 790),
			summaryRun(result.Baseline, 1, 700), summaryRun(result.Dapr, 1, 720),
		}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		res := resultOf(run)
		Expect(res.AddedInterval.Low.P50.Duration).To(BeNumerically("<=", 0))
		Expect(res.AddedInterval.High.P50.Duration).To(BeNumerically(">", 0))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).To(
			MatchRegexp(`added p50 -?[0-9.]+µs \[<0, [0-9.]+µs\].* within noise: Dapr's cost there cannot be told from zero`),
			"the low end below zero resolves nothing: it is said as <0, not as negative microseconds")
	})

	It("measures only the direct path when Dapr is disabled, with no Dapr objects", func() {
		run := createRun(ns, "direct", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Enabled = ptr.To(false)
			s.Placement = perfv1alpha1.PlacementDifferentNodes
		})
		Eventually(exists(deployment(ns, "direct-target"))).Should(BeTrue())
		Eventually(reasonOf(run, perfv1alpha1.ConditionDaprReady)).Should(Equal(perfv1alpha1.ReasonDaprNotRequired))
		Expect(exists(daprObj("Configuration", ns, "direct-tracing"))()).To(BeFalse())
		markAvailable(ns, "direct-target")
		job := currentJobOf(run)
		Expect(job.Spec.Template.Annotations).NotTo(HaveKey("dapr.io/enabled"))
		Expect(envValue(job, "DAPRBENCH_DIRECT_URL")).To(Equal("http://direct-target:3000/test"))
		Expect(envValue(job, "DAPRBENCH_SIDECAR_URL")).To(BeEmpty())
		anti := job.Spec.Template.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
		Expect(anti).To(HaveLen(1))
		Expect(anti[0].TopologyKey).To(Equal(corev1.LabelHostname))
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Direct, 0, 400)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(resultOf(run).Latency.P50.Duration).To(Equal(400 * time.Microsecond))
	})
})
