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

package pubsub

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/operator/workload/workloadtest"
	// A caller-only run's load tester, to tell apart from a subscriber's.
	_ "github.com/daprbench/daprbench/internal/scenario/invocation"
)

// A PubSub run on a broker it deploys: the store's Redis, a pubsub.redis Component that trims
// its streams as the baseline trims its own, and the load tester's daprd delivering to the
// load tester's subscriber; the topic is the generation's own, the baseline's stream apart.
func TestAPubSubRunDeploysABrokerAndSubscribesTheLoadTester(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioPubSub)
	run.UID = "u1"
	objs := workload.ScenarioChildren(run, workload.Options{})
	if len(objs) != 3 {
		t.Fatalf("children = %d, want the broker's Service, Deployment and Component (no Subscription: programmatic)", len(objs))
	}
	comp := objs[2].(*unstructured.Unstructured)
	kind, _, _ := unstructured.NestedString(comp.Object, "spec", "type")
	md, _, _ := unstructured.NestedSlice(comp.Object, "spec", "metadata")
	if comp.GetName() != "bench-pubsub" || kind != "pubsub.redis" ||
		!slices.ContainsFunc(md, func(m any) bool {
			return m.(map[string]any)["name"] == "maxLenApprox" && m.(map[string]any)["value"] == "43690"
		}) {
		t.Errorf("Component %s of type %s, metadata %v: want pubsub.redis trimmed to 64 MiB of 1 KiB messages (43690)", comp.GetName(), kind, md)
	}
	job := workload.LoadTesterJob(run, workload.Options{}, "")
	if got := job.Spec.Template.Annotations["dapr.io/app-port"]; got != strconv.Itoa(ls.SubscriberPort) {
		t.Errorf("load tester's app port %q, want the subscriber's %d", got, ls.SubscriberPort)
	}
	env := workloadtest.EnvMap(job.Spec.Template.Spec.Containers[0].Env)
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-pubsub+http://localhost:3500/bench-pubsub/daprbench-u1-3"; got != want {
		t.Errorf("dapr URL %q, want %q", got, want)
	}
	if got, want := env[ls.Env(ls.BaselineURL)], "redis-stream://bench-store:6379/daprbench-direct-daprbench-u1-3?maxlen=43690"; got != want {
		t.Errorf("baseline URL %q, want %q", got, want)
	}
	if u := workload.UnwantedChildren(run); len(u) != 1 || u[0].GetName() != "bench-subscription" || !workload.HasTargetPod(run) || workload.NeedsTargetIP(run) {
		t.Errorf("a broker the run deploys, subscribed programmatically: unwanted %v (want an earlier declared Subscription alone), its store waited for, no target IP", u)
	}
	for payload, want := range map[int32]int{16: 50000, 1024: 43690, 65536: 1016, 1 << 20: 1000} {
		run.Spec.Load.PayloadBytes = &payload
		if got := StreamMaxLen(run); got != want {
			t.Errorf("stream length for %d-byte messages: %d, want %d", payload, got, want)
		}
	}
	run.Spec.Load.PayloadBytes = nil

	run.Spec.PubSub = &perfv1alpha1.PubSubSpec{Component: "orders", Subscription: perfv1alpha1.SubscriptionDeclarative}
	objs = workload.ScenarioChildren(run, workload.Options{})
	if len(objs) != 1 || objs[0].GetObjectKind().GroupVersionKind() != SubscriptionGVK {
		t.Fatalf("a named broker, declared subscription: children %v, want the Subscription alone", objs)
	}
	if n := len(workload.UnwantedChildren(run)); n != 3 || workload.HasTargetPod(run) {
		t.Errorf("a broker given up for a named Component: %d unwanted (want its Deployment, Service, Component)", n)
	}
	if invocation := workloadtest.NewRun(perfv1alpha1.ScenarioServiceInvocation); workload.LoadTesterJob(invocation, workload.Options{}, "").Spec.Template.Annotations["dapr.io/app-port"] != "" {
		t.Error("a caller-only load tester got an app port")
	}
}

// Bulk publish and bulk subscribe reach both paths alike: the Dapr path's URL asks for them,
// the baseline's publishes and reads batches of the same size, and a declared Subscription
// carries Dapr's bulkSubscribe with its defaults filled in.
func TestBulkPubSubReachesBothPathsAndTheDeclaredSubscription(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioPubSub, func(s *perfv1alpha1.PerfRunSpec) {
		s.PubSub = &perfv1alpha1.PubSubSpec{BulkPublish: 10, Subscription: perfv1alpha1.SubscriptionDeclarative,
			BulkSubscribe: &perfv1alpha1.BulkSubscribeSpec{MaxMessagesCount: 50}}
	})
	run.UID = "u1"
	env := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))
	if got, want := env[ls.Env(ls.DaprURL)], "dapr-pubsub+http://localhost:3500/bench-pubsub/daprbench-u1-3?awaitMs=1000&batch=50&bulk=10&subscription=declared"; got != want {
		t.Errorf("dapr URL %q, want %q", got, want)
	}
	if got, want := env[ls.Env(ls.BaselineURL)], "redis-stream://bench-store:6379/daprbench-direct-daprbench-u1-3?batch=50&bulk=10&maxlen=43690"; got != want {
		t.Errorf("baseline URL %q, want %q", got, want)
	}
	bulk, _, _ := unstructured.NestedMap(DeclaredSubscription(run).Object, "spec", "bulkSubscribe")
	if bulk["enabled"] != true || bulk["maxMessagesCount"] != int64(50) || bulk["maxAwaitDurationMs"] != int64(1000) {
		t.Errorf("the Subscription's bulkSubscribe %v: want enabled, 50 messages, Dapr's default 1000 ms", bulk)
	}
	// The deployed broker's workers can fill a batch: as many as a batch's messages.
	md, _, _ := unstructured.NestedSlice(BrokerComponent(run).Object, "spec", "metadata")
	if !slices.ContainsFunc(md, func(m any) bool {
		return m.(map[string]any)["name"] == "concurrency" && m.(map[string]any)["value"] == "50"
	}) {
		t.Errorf("broker metadata %v: want concurrency 50, a batch's messages", md)
	}
	run.Spec.PubSub.BulkSubscribe = nil
	md, _, _ = unstructured.NestedSlice(BrokerComponent(run).Object, "spec", "metadata")
	if slices.ContainsFunc(md, func(m any) bool { return m.(map[string]any)["name"] == "concurrency" }) {
		t.Errorf("broker metadata %v: concurrency set without a bulk subscription", md)
	}
}

// The known-answer annotation holds a PubSub run's deliveries through daprd: its Dapr path's
// URL carries the hold, the baseline's does not.
func TestKnownAnswerDelayHoldsThePubSubDaprPathOnly(t *testing.T) {
	run := workloadtest.NewRun(perfv1alpha1.ScenarioPubSub)
	run.Annotations = map[string]string{perfv1alpha1.AnnotationKnownAnswerDelay: "2ms"}
	env := workloadtest.EnvMap(workload.LoadTesterEnv(run, ""))
	if got := env[ls.Env(ls.DaprURL)]; !strings.Contains(got, "hold=2ms") {
		t.Errorf("dapr URL %q lacks the hold", got)
	}
	if got := env[ls.Env(ls.BaselineURL)]; strings.Contains(got, "hold") {
		t.Errorf("baseline URL %q is held", got)
	}
}
