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
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// directRun is a ServiceInvocation run without Dapr: the cluster's own network floor,
// measured for real. The lifecycle specs use it because it needs the fewest moving parts.
func directRun(ns, name string, mutate ...func(*perfv1alpha1.PerfRunSpec)) *perfv1alpha1.PerfRun {
	run := &perfv1alpha1.PerfRun{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: perfv1alpha1.PerfRunSpec{
			Scenario: perfv1alpha1.ScenarioServiceInvocation,
			// One repetition (the default is 3) keeps CI's e2e time.
			Load: perfv1alpha1.LoadSpec{QPS: 200, Connections: 8, Repetitions: 1,
				Duration: &metav1.Duration{Duration: 45 * time.Second}, Warmup: &metav1.Duration{Duration: 5 * time.Second}},
			Dapr: perfv1alpha1.DaprSpec{Enabled: ptr.To(false)},
		},
	}
	for _, m := range mutate {
		m(&run.Spec)
	}
	Expect(k8sClient.Create(ctx, run)).To(Succeed())
	return run
}

func get(run *perfv1alpha1.PerfRun) *perfv1alpha1.PerfRun {
	out := &perfv1alpha1.PerfRun{}
	ExpectWithOffset(1, k8sClient.Get(ctx, client.ObjectKeyFromObject(run), out)).To(Succeed())
	return out
}

// documentOf is run's result document, read as every reader reads it: through the
// ConfigMap its status names, checked against the status's digest.
func documentOf(run *perfv1alpha1.PerfRun) *perfv1alpha1.ResultDocument {
	doc, _, err := document.Read(ctx, k8sClient, get(run))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "the result document of %s", run.Name)
	return doc
}

// resultOf is run's result: its document's figures.
func resultOf(run *perfv1alpha1.PerfRun) *perfv1alpha1.Result {
	doc, _, err := document.Read(ctx, k8sClient, get(run))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "the result document of %s", run.Name)
	return doc.Result
}

func phase(run *perfv1alpha1.PerfRun) func() perfv1alpha1.Phase {
	return func() perfv1alpha1.Phase { return get(run).Status.Phase }
}

// children counts what the run owns by label, pods included.
func children(run *perfv1alpha1.PerfRun) func() int {
	return func() int {
		sel := client.MatchingLabels{workload.LabelRun: run.Name}
		var d appsv1.DeploymentList
		var s corev1.ServiceList
		var j batchv1.JobList
		var p corev1.PodList
		n := 0
		for _, l := range []client.ObjectList{&d, &s, &j, &p} {
			Expect(k8sClient.List(ctx, l, client.InNamespace(run.Namespace), sel)).To(Succeed())
			n += meta.LenList(l)
		}
		return n
	}
}

var _ = Describe("PerfRun on a real cluster", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("measures the direct path with real pods, real load and the real metrics-server", func() {
		run := directRun(ns, "floor")
		expectSucceeded(run, 4*time.Minute)
		st := get(run).Status
		res := resultOf(run)
		GinkgoWriter.Printf("result: %+v\nlatency: %+v\nresources: %+v\n", res, res.Latency, res.Resources)

		actual, err := strconv.ParseFloat(res.ActualQPS, 64)
		Expect(err).NotTo(HaveOccurred())
		Expect(math.Abs(actual-200)/200).To(BeNumerically("<=", 0.02), "actual qps %v not within 2%% of 200", actual)
		Expect(res.Errors).To(BeZero())
		Expect(res.ReturnCodes).To(HaveKeyWithValue("200", res.Requests))
		Expect(res.Requests).To(BeNumerically(">=", 8000))
		l := res.Latency
		Expect(l.P50.Duration).To(BeNumerically(">", 0))
		Expect(l.P50.Duration).To(BeNumerically("<=", l.P90.Duration))
		Expect(l.P90.Duration).To(BeNumerically("<=", l.P99.Duration))
		Expect(l.P99.Duration).To(BeNumerically("<=", l.P999.Duration))
		Expect(l.P999.Duration).To(BeNumerically("<=", l.Max.Duration))
		Expect(res.Baseline).To(BeNil())

		Expect(meta.IsStatusConditionTrue(st.Conditions, perfv1alpha1.ConditionResourceUsageAvailable)).To(BeTrue(), "%s", describe(run))
		Expect(res.Resources).NotTo(BeNil())
		for name, role := range map[string]*perfv1alpha1.RoleUsage{"serverApp": res.Resources.ServerApp, "loadTester": res.Resources.LoadTester} {
			Expect(role).NotTo(BeNil(), name)
			Expect(role.Samples).To(BeNumerically(">=", 2), name)
			Expect(role.CPUAvg.MilliValue()).To(BeNumerically(">", 0), name)
			Expect(role.MemoryAvg.Value()).To(BeNumerically(">", 1<<20), name)
			Expect(role.CPUMax.Cmp(*role.CPUAvg)).To(BeNumerically(">=", 0), name)
		}
		Expect(res.Restarts).To(Equal(&perfv1alpha1.Restarts{}))
		Expect(st.Environment.TargetNode).NotTo(BeEmpty())
		Eventually(children(run), time.Minute).Should(BeZero(), "cleanup OnSuccess leaves no child")
	})

	It("completes a run exactly once when the controller is killed mid-run", func() {
		run := directRun(ns, "survivor", func(s *perfv1alpha1.PerfRunSpec) {
			s.Cleanup = perfv1alpha1.CleanupNever
			// 25 s: the manager is deleted as soon as the run measures, and its replacement
			// takes over before or after the load ends; either way one Job, one result.
			s.Load.Duration = &metav1.Duration{Duration: 25 * time.Second}
		})
		Eventually(phase(run), 2*time.Minute).Should(Equal(perfv1alpha1.PhaseRunning), func() string { return describe(run) })
		var jobs batchv1.JobList
		Expect(k8sClient.List(ctx, &jobs, client.InNamespace(ns))).To(Succeed())
		Expect(jobs.Items).To(HaveLen(1))
		jobUID := jobs.Items[0].UID

		By("deleting the manager's pod")
		var pods corev1.PodList
		Expect(k8sClient.List(ctx, &pods, client.InNamespace(operatorNamespace), client.MatchingLabels{"app.kubernetes.io/component": "manager"})).To(Succeed())
		Expect(pods.Items).NotTo(BeEmpty())
		for i := range pods.Items {
			Expect(k8sClient.Delete(ctx, &pods.Items[i])).To(Succeed())
		}

		expectSucceeded(run, 4*time.Minute)
		Expect(k8sClient.List(ctx, &jobs, client.InNamespace(ns))).To(Succeed())
		Expect(jobs.Items).To(HaveLen(1), "no second Job")
		Expect(jobs.Items[0].UID).To(Equal(jobUID))
		Expect(resultOf(run).Requests).To(BeNumerically(">=", 4500), "the run's whole result: at least 90% of the 25 s at 200 rps")
		Eventually(managerAvailable, 2*time.Minute).Should(BeTrue())
	})

	It("fails with the kubelet's reason when the load tester's image cannot start", func() {
		run := directRun(ns, "noimage", func(s *perfv1alpha1.PerfRunSpec) {
			s.LoadTester.Image = "daprbench:does-not-exist"
			s.Load.Duration = &metav1.Duration{Duration: 10 * time.Second}
			s.Timeout = &metav1.Duration{Duration: 3 * time.Minute}
		})
		Eventually(phase(run), 3*time.Minute+30*time.Second).Should(Equal(perfv1alpha1.PhaseFailed), func() string { return describe(run) })
		c := meta.FindStatusCondition(get(run).Status.Conditions, perfv1alpha1.ConditionFailed)
		GinkgoWriter.Println(c.Message)
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonImageNotStarting))
		Expect(c.Message).To(ContainSubstring("daprbench:does-not-exist"))
		Expect(c.Message).To(MatchRegexp("ErrImagePull|ImagePullBackOff"))
	})

	It("fails NameConflict in one pass and leaves a Service named like its target untouched", func() {
		theirs := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: "taken-target", Namespace: ns},
			Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "payments"}, Ports: []corev1.ServicePort{{Port: 80}}},
		}
		Expect(k8sClient.Create(ctx, theirs)).To(Succeed())
		run := directRun(ns, "taken", func(s *perfv1alpha1.PerfRunSpec) { s.Cleanup = perfv1alpha1.CleanupAlways })
		Eventually(phase(run), 30*time.Second).Should(Equal(perfv1alpha1.PhaseFailed), func() string { return describe(run) })
		c := meta.FindStatusCondition(get(run).Status.Conditions, perfv1alpha1.ConditionFailed)
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonNameConflict))
		Expect(c.Message).To(ContainSubstring("Service taken-target already exists"))
		Consistently(func() map[string]string {
			after := &corev1.Service{}
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(theirs), after)).To(Succeed())
			return after.Spec.Selector
		}, 5*time.Second).Should(Equal(map[string]string{"app": "payments"}), "neither taken over nor deleted by cleanup")
	})

	It("fails ChildRefused within a minute, quoting the API server, for a template field only its validation rejects", func() {
		run := directRun(ns, "badkey", func(s *perfv1alpha1.PerfRunSpec) {
			s.Target.NodeSelector = map[string]string{"pool": "not a label value!"}
		})
		Eventually(phase(run), time.Minute).Should(Equal(perfv1alpha1.PhaseFailed), func() string { return describe(run) })
		c := meta.FindStatusCondition(get(run).Status.Conditions, perfv1alpha1.ConditionFailed)
		Expect(c.Reason).To(Equal(perfv1alpha1.ReasonChildRefused))
		Expect(c.Message).To(ContainSubstring(`Deployment.apps "badkey-target" is invalid`))
	})

	It("leaves no child behind when a PerfRun is deleted mid-run", func() {
		run := directRun(ns, "doomed")
		Eventually(phase(run), 2*time.Minute).Should(Equal(perfv1alpha1.PhaseRunning))
		Expect(children(run)()).To(BeNumerically(">=", 4)) // Deployment, Service, Job, pods
		Expect(k8sClient.Delete(ctx, run)).To(Succeed())
		Eventually(children(run), 2*time.Minute).Should(BeZero(), "the garbage collector removes every child")
	})
})
