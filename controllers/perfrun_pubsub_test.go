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

	pubsubscenario "github.com/daprbench/daprbench/internal/scenario/pubsub"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// deliveryPath is a path's delivery figures as the load tester reports them.
func deliveryPath(v result.Variant, baseUs int64, n result.Messages) result.DeliveryPath {
	p := result.DeliveryPath{Variant: v, AvgUs: baseUs + 50, MaxUs: baseUs * 10, Messages: n}
	for i, pc := range result.StandardPercentiles {
		p.Percentiles = append(p.Percentiles, result.Percentile{P: pc, Us: baseUs + int64(i)*100})
	}
	return p
}

var _ = Describe("PerfRun PubSub scenario", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("deploys Redis, a pubsub.redis Component and a Subscription it owns, subscribes the load tester, reports delivery, and removes them with the run", func() {
		run := createRun(ns, "orders", perfv1alpha1.ScenarioPubSub, func(s *perfv1alpha1.PerfRunSpec) {
			s.PubSub = &perfv1alpha1.PubSubSpec{Subscription: perfv1alpha1.SubscriptionDeclarative, RawPayload: true}
		})
		store := deployment(ns, "orders-store")
		Eventually(exists(store)).Should(BeTrue())
		Expect(metav1.IsControlledBy(store, latest(run))).To(BeTrue(), "the run owns its broker")
		component := daprObj("Component", ns, "orders-pubsub")
		Eventually(exists(component)).Should(BeTrue())
		Expect(component.Object["spec"]).To(HaveKeyWithValue("type", "pubsub.redis"))
		Expect(component.Object["scopes"]).To(ConsistOf("orders-loadtester"))
		subscription := daprObj("Component", ns, "orders-subscription")
		subscription.SetGroupVersionKind(pubsubscenario.SubscriptionGVK)
		Eventually(exists(subscription)).Should(BeTrue())
		topic := pubsubscenario.Topic(latest(run))
		Expect(subscription.Object["spec"]).To(And(HaveKeyWithValue("topic", topic), HaveKeyWithValue("pubsubname", "orders-pubsub"),
			HaveKeyWithValue("routes", HaveKeyWithValue("default", "/deliver"))))
		Expect(exists(deployment(ns, "orders-target"))()).To(BeFalse(), "a PubSub run has no target app")

		markAvailable(ns, "orders-store")
		job := currentJobOf(run)
		Expect(job.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/app-port", "3001"), "its daprd delivers to the load tester")
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("dapr-pubsub+http://localhost:3500/orders-pubsub/" + topic + "?raw=true&subscription=declared"))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(Equal("redis-stream://orders-store:6379/daprbench-direct-" + topic + "?maxlen=43690"))

		sum := result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 300), summaryRun(result.Dapr, 0, 900)}}
		sum.Delivery = &result.Delivery{
			Paths: []result.DeliveryPath{
				deliveryPath(result.Baseline, 400, result.Messages{Published: 9984, Delivered: 9984}),
				deliveryPath(result.Dapr, 1500, result.Messages{Published: 9984, Delivered: 9984, Duplicated: 2}),
			},
			Added: &result.Added{Confidence: 0.95, Resamples: 1000, Reps: 1, Avg: result.Interval{Us: 1100, LowUs: 1000, HighUs: 1200},
				Percentiles: []result.AddedPercentile{{P: 50, Interval: result.Interval{Us: 1100, LowUs: 1000, HighUs: 1200}}}},
		}
		finishLoad(run, sum, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		d := resultOf(run).Delivery
		Expect(d).NotTo(BeNil())
		Expect(d.Latency.P50.Duration).To(Equal(1500 * time.Microsecond))
		Expect(d.Baseline.P50.Duration).To(Equal(400 * time.Microsecond))
		Expect(d.Added.P50.Duration).To(Equal(1100 * time.Microsecond))
		Expect(*d.Messages).To(Equal(perfv1alpha1.MessageCounts{Published: 9984, Delivered: 9984, Duplicated: 2}))
		Expect(resultOf(run).Added).NotTo(BeNil(), "the publish call's own added latency")

		Eventually(exists(store)).Should(BeFalse(), "cleanup removes the broker")
		Eventually(exists(component)).Should(BeFalse(), "its Component")
		Eventually(exists(subscription)).Should(BeFalse(), "and its Subscription")
		Eventually(exists(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-store"}})).Should(BeFalse())
	})

	It("claims no added delivery latency when messages were lost", func() {
		run := createRun(ns, "lossy", perfv1alpha1.ScenarioPubSub)
		markAvailable(ns, "lossy-store")
		sum := result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 300), summaryRun(result.Dapr, 0, 900)}}
		sum.Delivery = &result.Delivery{
			Paths: []result.DeliveryPath{
				deliveryPath(result.Baseline, 400, result.Messages{Published: 9984, Delivered: 9984}),
				deliveryPath(result.Dapr, 1500, result.Messages{Published: 9984, Delivered: 9900, Lost: 84}),
			},
			Added: &result.Added{Confidence: 0.95, Resamples: 1000, Reps: 1,
				Percentiles: []result.AddedPercentile{{P: 50, Interval: result.Interval{Us: 1100, LowUs: 1000, HighUs: 1200}}}},
		}
		finishLoad(run, sum, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))
		d := resultOf(run).Delivery
		Expect(d.Messages.Lost).To(Equal(int64(84)))
		Expect(d.Added).To(BeNil(), "a delivery figure over messages that did not all arrive is not claimed")
	})

	It("fails with ComponentNotFound, creating nothing, when the named Component is missing or no broker", func() {
		missing := createRun(ns, "nobroker", perfv1alpha1.ScenarioPubSub, func(s *perfv1alpha1.PerfRunSpec) {
			s.PubSub = &perfv1alpha1.PubSubSpec{Component: "redis-actors"}
		})
		c := failedWith(missing, perfv1alpha1.ReasonComponentNotFound)
		Expect(c.Message).To(ContainSubstring(`spec.pubsub.component names Component "redis-actors", which does not exist in namespace "` + ns + `"`))
		Expect(exists(deployment(ns, "nobroker-store"))()).To(BeFalse())

		other := newNamespace()
		stateComponent(other, "redis-actors", "state.redis", map[string]any{"name": "redisHost", "value": "redis:6379"})
		run := createRun(other, "astore", perfv1alpha1.ScenarioPubSub, func(s *perfv1alpha1.PerfRunSpec) {
			s.PubSub = &perfv1alpha1.PubSubSpec{Component: "redis-actors"}
			s.Baseline = ptr.To(false)
		})
		c = failedWith(run, perfv1alpha1.ReasonComponentNotFound)
		Expect(c.Message).To(ContainSubstring(`of type "state.redis", which is not a pub/sub broker`))
	})

	It("measures the namespace's own pubsub.redis Component, its baseline on that Redis", func() {
		stateComponent(ns, "redis-actors", "pubsub.redis", map[string]any{"name": "redisHost", "value": "redis.shared:6380"})
		run := createRun(ns, "own", perfv1alpha1.ScenarioPubSub, func(s *perfv1alpha1.PerfRunSpec) {
			s.PubSub = &perfv1alpha1.PubSubSpec{Component: "redis-actors", Topic: "orders"}
			s.Baseline = ptr.To(true)
			s.Protocol.Caller = perfv1alpha1.ProtocolGRPC
		})
		job := currentJobOf(run)
		Expect(envValue(job, "DAPRBENCH_DAPR_URL")).To(Equal("dapr-pubsub+grpc://localhost:50001/redis-actors/orders"))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(Equal("redis-stream://redis.shared:6380/daprbench-direct-orders?maxlen=43690"))
		Eventually(storeOf(run)).Should(Equal("redis-actors (pubsub.redis, the namespace's own) at redis.shared:6380, topic orders"))
		Expect(exists(deployment(ns, "own-store"))()).To(BeFalse(), "nothing deployed for the user's own broker")
	})
})
