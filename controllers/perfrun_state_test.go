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
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// stateComponent creates a Component in ns as a user would (the suite's policy lets runs
// name "redis-actors" only).
func stateComponent(ns, name, kind string, metadata ...map[string]any) {
	items := []any{}
	for _, m := range metadata {
		items = append(items, m)
	}
	c := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "dapr.io/v1alpha1", "kind": "Component",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec":     map[string]any{"type": kind, "version": "v1", "metadata": items}}}
	Expect(k8sClient.Create(suiteCtx, c)).To(Succeed())
}

// storeOf is the store a run's status names.
func storeOf(run *perfv1alpha1.PerfRun) func() string {
	return func() string {
		if env := latest(run).Status.Environment; env != nil {
			return env.Store
		}
		return ""
	}
}

var _ = Describe("PerfRun State scenario", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("deploys Redis and a state.redis Component it owns, measures both paths, and removes them with the run", func() {
		run := createRun(ns, "kv", perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
			s.State = &perfv1alpha1.StateSpec{Keys: 500}
		})
		store := deployment(ns, "kv-store")
		Eventually(exists(store)).Should(BeTrue())
		Expect(metav1.IsControlledBy(store, latest(run))).To(BeTrue(), "the run owns its store")
		Expect(store.Spec.Template.Spec.Containers[0].Image).To(Equal("docker.io/library/redis:7.4"))
		component := daprObj("Component", ns, "kv-statestore")
		Eventually(exists(component)).Should(BeTrue())
		Expect(component.Object["spec"]).To(HaveKeyWithValue("type", "state.redis"))
		Expect(component.Object["scopes"]).To(ConsistOf("kv-loadtester"))
		Expect(exists(deployment(ns, "kv-target"))()).To(BeFalse(), "a State run has no target app")
		Eventually(storeOf(run)).Should(Equal("kv-statestore (state.redis, deployed by the run) at kv-store:6379"))

		markAvailable(ns, "kv-store")
		job := currentJobOf(run)
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("dapr-state+http://localhost:3500/kv-statestore?keys=500&op=Get"))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(Equal("redis://kv-store:6379/?keys=500&op=Get"))

		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 300), summaryRun(result.Dapr, 0, 900)}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(resultOf(run).Added).NotTo(BeNil(), "Dapr's state API against the store's own client")
		Eventually(exists(store)).Should(BeFalse(), "cleanup removes the store")
		Eventually(exists(component)).Should(BeFalse(), "and its Component")
		Eventually(exists(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kv-store"}})).Should(BeFalse())
	})

	It("names a restart of the store it deployed during a measured run as a disturbance", func() {
		run := createRun(ns, "flaky", perfv1alpha1.ScenarioState)
		markAvailable(ns, "flaky-store")
		setPodStatus(loadTesterPod(currentJobOf(run)), corev1.PodRunning, func(string) corev1.ContainerState {
			return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}
		}, true)
		time.Sleep(1100 * time.Millisecond) // the API server stamps times to the second
		store := &corev1.Pod{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "flaky-store-pod"}, store)).To(Succeed())
		killed := metav1.NewTime(time.Now())
		for i := range store.Status.ContainerStatuses {
			if cs := &store.Status.ContainerStatuses[i]; cs.Name == workload.ContainerStore {
				cs.RestartCount = 1
				cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled", FinishedAt: killed}
			}
		}
		Expect(k8sClient.Status().Update(suiteCtx, store)).To(Succeed())
		Eventually(func() []string {
			var kinds []string
			for _, d := range latest(run).Status.Disturbances {
				kinds = append(kinds, string(d.Kind)+" "+d.Role)
			}
			return kinds
		}).Should(ContainElement("Restarted store"))

		now := time.Now().Unix()
		baseline, dapr := summaryRun(result.Baseline, 0, 300), summaryRun(result.Dapr, 0, 900)
		baseline.StartUnix, baseline.Seconds = now-40, 20
		dapr.StartUnix, dapr.Seconds = now-20, 60
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{baseline, dapr}}, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(conditionOf(run, perfv1alpha1.ConditionDisturbed).Status).To(Equal(metav1.ConditionTrue))
		Expect(conditionOf(run, perfv1alpha1.ConditionSucceeded).Message).To(MatchRegexp(
			`store pod flaky-store-pod container store restarted at %s \(dapr run 1 of 3, \d+s in; exit 137 OOMKilled, restart 1\)`,
			killed.UTC().Format(time.TimeOnly)))
	})

	It("fails with ComponentNotFound, creating nothing, for a Component of another namespace", func() {
		other := newNamespace()
		stateComponent(other, "redis-actors", "state.redis", map[string]any{"name": "redisHost", "value": "redis:6379"})
		run := createRun(ns, "elsewhere", perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
			s.State = &perfv1alpha1.StateSpec{Component: "redis-actors"}
		})
		c := failedWith(run, perfv1alpha1.ReasonComponentNotFound)
		Expect(c.Message).To(ContainSubstring(`Component "redis-actors", which does not exist in namespace "` + ns + `"`))
		Expect(exists(deployment(ns, "elsewhere-store"))()).To(BeFalse())
	})

	It("fails with BaselineImpossible when a named Component's store has no direct client", func() {
		stateComponent(ns, "redis-actors", "state.in-memory")
		run := createRun(ns, "memory", perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
			s.State = &perfv1alpha1.StateSpec{Component: "redis-actors"}
			s.Baseline = ptr.To(true)
		})
		c := failedWith(run, perfv1alpha1.ReasonBaselineImpossible)
		Expect(c.Message).To(And(ContainSubstring("state.in-memory"), ContainSubstring("Set spec.baseline false")))
	})

	It("measures the namespace's own state.redis Component, its baseline calling that Redis", func() {
		stateComponent(ns, "redis-actors", "state.redis", map[string]any{"name": "redisHost", "value": "redis.shared:6380"},
			map[string]any{"name": "redisPassword", "value": ""})
		run := createRun(ns, "own", perfv1alpha1.ScenarioState, func(s *perfv1alpha1.PerfRunSpec) {
			s.State = &perfv1alpha1.StateSpec{Component: "redis-actors", Operation: perfv1alpha1.StateSave}
			s.Baseline = ptr.To(true)
		})
		job := currentJobOf(run)
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("dapr-state+http://localhost:3500/redis-actors?keys=1000&op=Save"))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(Equal("redis://redis.shared:6380/?keys=1000&op=Save"))
		Eventually(storeOf(run)).Should(Equal("redis-actors (state.redis, the namespace's own) at redis.shared:6380"))
		Expect(exists(deployment(ns, "own-store"))()).To(BeFalse(), "nothing deployed for the user's own store")
	})
})
