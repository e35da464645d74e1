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
	"fmt"
	"net/url"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	ls "github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// SubscriptionGVK is Dapr's declarative Subscription.
var SubscriptionGVK = schema.GroupVersionKind{Group: "dapr.io", Version: "v2alpha1", Kind: "Subscription"}

// StreamMaxLen bounds each of a run's two Redis streams (approximately: maxLenApprox on
// daprd's, the baseline's URL on its own) to about 64 MiB of messages, between 1000 and
// 50 000 of them: delivered messages are throwaway, an unbounded stream would fill the
// broker (384 MB), and a short one would trim messages not yet read, lost to the benchmark
// rather than to Dapr (43 690 messages of 1 KiB: ~44 s of backlog at 1000 rps; admission caps
// a PubSub payload at 64 KiB, ~1000 messages).
func StreamMaxLen(run *perfv1alpha1.PerfRun) int {
	n, literal := run.Spec.Body()
	if literal != nil {
		n = len(*literal)
	}
	return min(max((64<<20)/(n+512), 1000), 50000)
}

// side is PubSub's operator side: no target app. The load tester publishes through its
// own daprd and subscribes to the same topic (its daprd delivers to the load tester's
// subscriber port), against Redis the run deploys (the State store's Deployment and Service,
// and a pubsub.redis Component) or the user's Component the run names; the baseline
// publishes to and consumes from the same Redis with its Go client from the same pod.
type side struct{}

func (side) Children(run *perfv1alpha1.PerfRun, o workload.Options) []client.Object {
	var out []client.Object
	if run.Spec.PubSubSettings().Component == "" {
		out = append(out, workload.StoreService(run), workload.StoreDeployment(run, o), BrokerComponent(run))
	}
	if run.Spec.PubSubSettings().Subscription == perfv1alpha1.SubscriptionDeclarative {
		out = append(out, DeclaredSubscription(run))
	}
	return out
}

func (side) Waited(run *perfv1alpha1.PerfRun) []string {
	if run.Spec.PubSubSettings().Component != "" {
		return nil
	}
	return []string{workload.NamesFor(run).Store}
}

func (side) Demands(run *perfv1alpha1.PerfRun, o workload.Options) []workload.PodDemand {
	if run.Spec.PubSubSettings().Component != "" {
		return nil
	}
	return workload.StoreDemands(run, o)
}

func (side) PathEnv(run *perfv1alpha1.PerfRun, _ string) []corev1.EnvVar {
	p := run.Spec.PubSubSettings()
	q := url.Values{}
	if p.RawPayload {
		q.Set("raw", "true")
	}
	if p.Subscription == perfv1alpha1.SubscriptionDeclarative {
		q.Set("subscription", "declared")
	}
	if d, err := run.KnownAnswerDelay(); err == nil && d > 0 {
		q.Set("hold", d.String()) // the known answer: every delivery through daprd held this long
	}
	// The baseline publishes and reads as the Dapr path does: as many messages a call, in
	// batches of the same size.
	direct := url.Values{"maxlen": {strconv.Itoa(StreamMaxLen(run))}}
	if p.BulkPublish > 0 {
		q.Set("bulk", strconv.Itoa(int(p.BulkPublish)))
		direct.Set("bulk", strconv.Itoa(int(p.BulkPublish)))
	}
	if b := p.BulkSubscribe; b != nil {
		q.Set("batch", strconv.Itoa(int(b.MaxMessagesCount)))
		q.Set("awaitMs", strconv.Itoa(int(b.MaxAwaitDurationMs)))
		direct.Set("batch", strconv.Itoa(int(b.MaxMessagesCount)))
	}
	query := ""
	if len(q) > 0 {
		query = "?" + q.Encode()
	}
	scheme, port := "dapr-pubsub+http", workload.SidecarHTTPPort
	if run.Spec.CallerProtocol() == perfv1alpha1.ProtocolGRPC {
		scheme, port = "dapr-pubsub+grpc", workload.SidecarGRPCPort
	}
	topic := Topic(run)
	env := []corev1.EnvVar{workload.Setting(ls.DaprURL, fmt.Sprintf("%s://localhost:%d/%s/%s%s", scheme, port, ComponentName(run), topic, query))}
	if run.Spec.BaselineEnabled() {
		env = append(env, workload.Setting(ls.BaselineURL, fmt.Sprintf("redis-stream://%s/%s?%s", workload.StoreAddress(run), BaselineStream(run), direct.Encode())))
	}
	return env
}

func (side) Unwanted(run *perfv1alpha1.PerfRun) []client.Object {
	var out []client.Object
	if run.Spec.PubSubSettings().Component != "" {
		out = workload.DeployedStore(run, workload.NamesFor(run).PubSub)
	}
	if run.Spec.PubSubSettings().Subscription != perfv1alpha1.SubscriptionDeclarative {
		// An earlier generation's declared subscription: daprd would still load it.
		out = append(out, workload.DaprObject(run, SubscriptionGVK, workload.NamesFor(run).Subscription))
	}
	return out
}

// daprLeftovers: the broker's Component and the Subscription whatever the spec says now (an
// earlier generation may have declared them).
func (side) DaprLeftovers(run *perfv1alpha1.PerfRun) []client.Object {
	names := workload.NamesFor(run)
	return []client.Object{workload.DaprObject(run, workload.ComponentGVK, names.PubSub), workload.DaprObject(run, SubscriptionGVK, names.Subscription)}
}

// peer: the load tester is placed relative to the broker the run deploys.
func (side) Peer(*perfv1alpha1.PerfRun) workload.Role { return workload.RoleStore }

func (side) NeedsTargetIP(*perfv1alpha1.PerfRun) bool { return false }

// testerAppPort: the load tester's daprd delivers the run's messages to its subscriber.
func (side) TesterAppPort(*perfv1alpha1.PerfRun) int { return ls.SubscriberPort }

// ComponentName is the pub/sub Component a PubSub run publishes to: the one it names,
// or the one it deploys.
func ComponentName(run *perfv1alpha1.PerfRun) string {
	if c := run.Spec.PubSubSettings().Component; c != "" {
		return c
	}
	return workload.NamesFor(run).PubSub
}

// Topic is the run's topic: the one it names, or one of its own per generation, so
// no other subscriber of a shared broker takes its messages and no earlier backlog reaches it.
func Topic(run *perfv1alpha1.PerfRun) string {
	if t := run.Spec.PubSubSettings().Topic; t != "" {
		return t
	}
	return fmt.Sprintf("daprbench-%s-%d", run.UID, run.Generation)
}

// BaselineStream is the Redis stream the baseline publishes to and consumes: the topic's
// name under a prefix, so it never shares a stream with daprd's (pubsub.redis keeps a topic
// in the stream of its name).
func BaselineStream(run *perfv1alpha1.PerfRun) string { return "daprbench-direct-" + Topic(run) }

// BrokerComponent is the pubsub.redis Component for the broker the run deploys, scoped to
// the load tester, whose daprd alone publishes and subscribes.
//
// Under a bulk subscription it raises the Component's concurrency (10 by default) to the
// batch's size: pubsub.redis has no bulk subscribe of its own, and daprd's default one holds
// each of the Component's workers until its message's batch is delivered, so with fewer
// workers than a batch's messages no batch ever fills and every one waits the whole
// maxAwaitDurationMs (a named Component's concurrency is its owner's).
func BrokerComponent(run *perfv1alpha1.PerfRun) *unstructured.Unstructured {
	md := []map[string]any{{"name": "maxLenApprox", "value": strconv.Itoa(StreamMaxLen(run))}}
	if b := run.Spec.PubSubSettings().BulkSubscribe; b != nil && b.MaxMessagesCount > 10 {
		md = append(md, map[string]any{"name": "concurrency", "value": strconv.Itoa(int(b.MaxMessagesCount))})
	}
	return workload.RedisComponent(run, workload.NamesFor(run).PubSub, "pubsub.redis", md...)
}

// DeclaredSubscription subscribes the load tester to the run's topic declaratively.
func DeclaredSubscription(run *perfv1alpha1.PerfRun) *unstructured.Unstructured {
	names := workload.NamesFor(run)
	u := workload.DaprObject(run, SubscriptionGVK, names.Subscription)
	spec := map[string]any{
		"pubsubname": ComponentName(run),
		"topic":      Topic(run),
		"routes":     map[string]any{"default": "/deliver"},
	}
	p := run.Spec.PubSubSettings()
	if p.RawPayload {
		spec["metadata"] = map[string]any{"rawPayload": "true"}
	}
	if b := p.BulkSubscribe; b != nil {
		spec["bulkSubscribe"] = map[string]any{"enabled": true,
			"maxMessagesCount": int64(b.MaxMessagesCount), "maxAwaitDurationMs": int64(b.MaxAwaitDurationMs)}
	}
	u.Object["spec"] = spec
	u.Object["scopes"] = []any{names.TesterAppID}
	return u
}
