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

package v1alpha1_test

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/testenv"
)

// perfRun builds an unstructured PerfRun from a minimal valid spec with edits applied;
// unstructured so a case can hold what the Go types could not (a string for a number...).
func perfRun(name string, edits ...func(spec map[string]any)) *unstructured.Unstructured {
	spec := map[string]any{
		"scenario": "ServiceInvocation",
		"load":     map[string]any{"qps": int64(100)},
	}
	for _, e := range edits {
		e(spec)
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "perf.daprbench.io/v1alpha1",
		"kind":       "PerfRun",
		"metadata":   map[string]any{"name": name, "namespace": "default"},
		"spec":       spec,
	}}
	return u
}

// set returns an edit that sets a dotted path (e.g. "load.qps") in the spec.
func set(path string, value any) func(map[string]any) {
	return func(spec map[string]any) {
		Expect(unstructured.SetNestedField(spec, value, strings.Split(path, ".")...)).To(Succeed())
	}
}

func unset(path string) func(map[string]any) {
	return func(spec map[string]any) { unstructured.RemoveNestedField(spec, strings.Split(path, ".")...) }
}

var actors = set("scenario", "ActorActivation")

var state = set("scenario", "State")

var pubsub = set("scenario", "PubSub")

var workflows = set("scenario", "Workflow")

var scheduler = set("scenario", "Scheduler")

// variants returns an edit that sets spec.variants to variants of these names.
func variants(names ...string) func(map[string]any) {
	var vs []any
	for _, n := range names {
		vs = append(vs, map[string]any{"name": n})
	}
	return set("variants", vs)
}

var _ = Describe("PerfRun admission", func() {
	DescribeTable("refuses an invalid PerfRun with a message naming the field",
		func(want []string, edits ...func(map[string]any)) {
			// Strict field validation is what kubectl asks for by default.
			err := k8s.Create(ctx, perfRun("invalid", edits...), client.DryRunAll, client.FieldValidation("Strict"))
			Expect(err).To(HaveOccurred(), "the API server admitted it")
			GinkgoWriter.Println(err.Error())
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("scenario missing", []string{"spec.scenario", "Required value"}, unset("scenario")),
		Entry("scenario unknown", []string{"spec.scenario", "Unsupported value", "ServiceInvocation"}, set("scenario", "Pubsub")),
		Entry("load missing", []string{"spec.load", "Required value"}, unset("load")),
		Entry("qps missing", []string{"spec.load.qps", "Required value"}, unset("load.qps")),
		Entry("qps zero", []string{"spec.load.qps", "greater than or equal to 1"}, set("load.qps", int64(0))),
		Entry("qps above 100000", []string{"spec.load.qps", "less than or equal to 100000"}, set("load.qps", int64(100001))),
		Entry("qps not a number", []string{"spec.load.qps", "integer"}, set("load.qps", "fast")),
		Entry("connections zero", []string{"spec.load.connections", "greater than or equal to 1"}, set("load.connections", int64(0))),
		Entry("connections above 1024", []string{"spec.load.connections", "less than or equal to 1024"}, set("load.connections", int64(1025))),
		Entry("duration below 5s", []string{"spec.load.duration", "between 5s and 24h"}, set("load.duration", "4s")),
		Entry("duration above 24h", []string{"spec.load.duration", "between 5s and 24h"}, set("load.duration", "25h")),
		Entry("duration not a duration", []string{"spec.load.duration", "should match"}, set("load.duration", "soon")),
		Entry("warmup above 10m", []string{"spec.load.warmup", "between 0s and 10m"}, set("load.warmup", "11m")),
		Entry("warmup negative", []string{"spec.load.warmup", "between 0s and 10m"}, set("load.warmup", "-1s")),
		Entry("repetitions zero", []string{"spec.load.repetitions", "greater than or equal to 1"}, set("load.repetitions", int64(0))),
		Entry("repetitions above 10", []string{"spec.load.repetitions", "less than or equal to 10"}, set("load.repetitions", int64(11))),
		Entry("payloadBytes negative", []string{"spec.load.payloadBytes", "greater than or equal to 0"}, set("load.payloadBytes", int64(-1))),
		Entry("payloadBytes above 4 MiB", []string{"spec.load.payloadBytes", "less than or equal to 4194304"}, set("load.payloadBytes", int64(4194305))),
		Entry("payload too long", []string{"spec.load.payload", "65536"}, set("load.payload", strings.Repeat("x", 65537))),
		Entry("payload and payloadBytes", []string{"spec.load", "payloadBytes and payload are mutually exclusive"},
			set("load.payload", "{}"), set("load.payloadBytes", int64(10))),
		Entry("baseline with actors", []string{"spec", "baseline cannot be true for ActorActivation"}, actors, set("baseline", true)),
		Entry("actors with invocation", []string{"spec", "actors may only be set when scenario is ActorActivation"},
			set("actors", map[string]any{"actorType": "A"})),
		Entry("dapr disabled with actors", []string{"spec", "dapr.enabled=false needs scenario ServiceInvocation"},
			actors, set("dapr.enabled", false)),
		Entry("baseline with dapr disabled", []string{"spec", "baseline cannot be true with dapr.enabled=false"},
			set("dapr.enabled", false), set("baseline", true)),
		Entry("mtls unknown", []string{"spec.dapr.mtls", "Unsupported value", "Enabled", "Disabled"}, set("dapr.mtls", "Strict")),
		Entry("sampling above 1", []string{"spec.dapr.tracingSamplingRate", "should match"}, set("dapr.tracingSamplingRate", "1.5")),
		Entry("sampling not a number", []string{"spec.dapr.tracingSamplingRate", "should match"}, set("dapr.tracingSamplingRate", "often")),
		Entry("sampling negative", []string{"spec.dapr.tracingSamplingRate", "should match"}, set("dapr.tracingSamplingRate", "-0.1")),
		Entry("log level unknown", []string{"spec.dapr.logLevel", "Unsupported value"}, set("dapr.logLevel", "verbose")),
		Entry("control plane namespace invalid", []string{"spec.dapr.controlPlaneNamespace", "should match"},
			set("dapr.controlPlaneNamespace", "Dapr_System")),
		Entry("sidecar cpu not a quantity", []string{"spec.dapr.sidecar.cpuLimit"}, set("dapr.sidecar.cpuLimit", "lots")),
		Entry("actor type invalid", []string{"spec.actors.actorType", "should match"}, actors, set("actors.actorType", "1 actor")),
		Entry("actor method too long", []string{"spec.actors.method", "63"}, actors, set("actors.method", strings.Repeat("m", 64))),
		Entry("state store name invalid", []string{"spec.actors.stateStore", "should match"}, actors, set("actors.stateStore", "Bad_Store")),
		Entry("placement unknown", []string{"spec.placement", "Unsupported value", "SameNode"}, set("placement", "Anywhere")),
		Entry("cleanup unknown", []string{"spec.cleanup", "Unsupported value", "OnSuccess"}, set("cleanup", "Sometimes")),
		// Both match the pattern; the first overflows Go's time.Duration, which would leave the
		// stored object undecodable by every informer.
		Entry("threshold beyond a Duration", []string{"spec.thresholds.maxP90"}, set("thresholds.maxP90", "2562048h")),
		Entry("threshold above 1h", []string{"spec.thresholds.maxAddedP99", "maxAddedP99 must be above 0s and at most 1h"},
			set("thresholds.maxAddedP99", "2h")),
		Entry("maxQueueWait beyond a week", []string{"spec.maxQueueWait", "maxQueueWait must be above 0s and at most 168h"}, set("maxQueueWait", "169h")),
		Entry("threshold zero", []string{"spec.thresholds.maxP99", "maxP99 must be above 0s and at most 1h"}, set("thresholds.maxP99", "0s")),
		Entry("timeout below 30s", []string{"spec.timeout", "between 30s and 72h"}, set("timeout", "10s")),
		Entry("timeout above 72h", []string{"spec.timeout", "between 30s and 72h"}, set("timeout", "80h")),
		Entry("timeout shorter than the load", []string{"spec", "timeout must be longer than warmup + duration × repetitions"},
			set("load.duration", "60s"), set("load.repetitions", int64(3)), set("timeout", "2m")),
		Entry("added-latency threshold without a baseline", []string{"spec", "thresholds.maxAddedP90/maxAddedP99 need added latency"},
			set("baseline", false), set("thresholds.maxAddedP90", "2ms")),
		Entry("added-latency threshold on actors", []string{"spec", "thresholds.maxAddedP90/maxAddedP99 need added latency"},
			actors, set("thresholds.maxAddedP99", "2ms")),
		Entry("qps threshold above 100%", []string{"spec.thresholds.minQPSPercent", "less than or equal to 100"}, set("thresholds.minQPSPercent", int64(101))),
		Entry("threshold duration malformed", []string{"spec.thresholds.maxP99", "should match"}, set("thresholds.maxP99", "fast")),
		Entry("timeout shorter than baseline + Dapr runs", []string{"spec", "× paths (the variants, 1 without, plus 1 for a baseline"},
			set("load.duration", "60s"), set("timeout", "2m")), // 10s + 2 × 60s > 2m
		Entry("derived timeout above 72h", []string{"spec", "the derived timeout", "exceeds the 72h limit"},
			set("load.duration", "24h"), set("load.repetitions", int64(2))),
		Entry("more connections than requests", []string{"spec.load", "connections must not exceed the requests one run sends"},
			set("load.qps", int64(1)), set("load.duration", "5s"), set("load.connections", int64(6))),
		Entry("sidecar cpu request above its limit", []string{"spec.dapr.sidecar", "cpuRequest must not exceed cpuLimit"},
			set("dapr.sidecar.cpuRequest", "1"), set("dapr.sidecar.cpuLimit", "500m")),
		Entry("sidecar memory request above its limit", []string{"spec.dapr.sidecar", "memoryRequest must not exceed memoryLimit"},
			set("dapr.sidecar.memoryRequest", "1Gi"), set("dapr.sidecar.memoryLimit", "256Mi")),
		Entry("sidecar cpu limit negative", []string{"spec.dapr.sidecar.cpuLimit", "cpuLimit must be positive"}, set("dapr.sidecar.cpuLimit", "-1")),
		Entry("sidecar memory request negative", []string{"spec.dapr.sidecar.memoryRequest", "must not be negative"}, set("dapr.sidecar.memoryRequest", "-64Mi")),
		Entry("target cpu request above its limit", []string{"spec.target", "resources.requests.cpu must not exceed resources.limits.cpu"},
			set("target.resources", map[string]any{"requests": map[string]any{"cpu": "2"}, "limits": map[string]any{"cpu": "1"}})),
		Entry("load tester memory request above its limit", []string{"spec.loadTester", "resources.requests.memory must not exceed resources.limits.memory"},
			set("loadTester.resources", map[string]any{"requests": map[string]any{"memory": "1Gi"}, "limits": map[string]any{"memory": "1Mi"}})),
		Entry("sidecar threshold negative", []string{"spec.thresholds.maxSidecarCPUPer1kQPS", "must not be negative"},
			set("thresholds.maxSidecarCPUPer1kQPS", "-100m")),
		Entry("sidecar threshold without a sidecar", []string{"spec", "maxSidecarCPUPer1kQPS/maxSidecarMemoryPer1kQPS/maxSidecarMemoryGrowthPerHour/maxSidecarGoroutineGrowthPerHour need a sidecar"},
			set("dapr.enabled", false), set("thresholds.maxSidecarMemoryPer1kQPS", "30Mi")),
		Entry("unknown field", []string{"spec.load.rps", "unknown field"}, set("load.rps", int64(5))),
		Entry("protocol unknown", []string{"spec.protocol.caller", "Unsupported value", "GRPC"}, set("protocol.caller", "QUIC")),
		Entry("actors over gRPC", []string{"spec", "ActorActivation is measured over HTTP"}, actors, set("protocol.app", "GRPC")),
		Entry("variants on actors", []string{"spec", "variants compare sidecars"}, actors, variants("a", "b")),
		Entry("state settings on invocation", []string{"spec", "state may only be set when scenario is State"}, set("state.keys", int64(10))),
		Entry("invocation settings on state", []string{"spec", "serviceInvocation may only be set when scenario is ServiceInvocation"},
			state, set("serviceInvocation.baselineTarget", "Twin")),
		Entry("state with a gRPC app", []string{"spec", "Scheduler and Configuration have no app"}, state, set("protocol.app", "GRPC")),
		Entry("state without Dapr", []string{"spec", "dapr.enabled=false needs scenario ServiceInvocation"}, state, set("dapr.enabled", false)),
		Entry("profiling a State run", []string{"spec", "a State run has no target"}, state, set("profiling", map[string]any{})),
		Entry("state with no keys", []string{"spec.state.keys", "greater than or equal to 1"}, state, set("state.keys", int64(0))),
		Entry("state operation unknown", []string{"spec.state.operation", "Unsupported value"}, state, set("state.operation", "Delete")),
		Entry("state component not a name", []string{"spec.state.component", "should match"}, state, set("state.component", "Orders_DB")),
		Entry("a target on a State run", []string{"spec", "a State run has none"}, state, set("target.image", "daprbench:dev")),
		Entry("placement on a named Component", []string{"spec", "a named Component's store is not the run's to place"},
			state, set("state.component", "orders"), set("placement", "SameNode")),
		Entry("state data above 128 MiB", []string{"spec", "state.keys × the payload must be at most 128 MiB"},
			state, set("state.keys", int64(100000)), set("load.payloadBytes", int64(4096))),
		Entry("bulkSize on a single-key operation", []string{"spec.state", "bulkSize is how many keys a BulkGet, BulkSave or Transaction request carries"},
			state, set("state.bulkSize", int64(5))),
		Entry("bulkSize above 100", []string{"spec.state.bulkSize", "less than or equal to 100"},
			state, set("state.operation", "BulkGet"), set("state.bulkSize", int64(101))),
		Entry("fewer keys than a bulk request's", []string{"spec.state", "keys must be at least bulkSize"},
			state, set("state.operation", "Transaction"), set("state.keys", int64(5))),
		Entry("a bulk request above 3 MiB", []string{"spec", "state.bulkSize × the payload must be at most 3 MiB"},
			state, set("state.operation", "BulkSave"), set("state.bulkSize", int64(50)), set("load.payloadBytes", int64(65536))),
		Entry("added-latency threshold on a named component without a baseline", []string{"spec", "need added latency"},
			state, set("state.component", "orders"), set("thresholds.maxAddedP90", "2ms")),
		Entry("delivery gate on invocation", []string{"spec", "gate message delivery: they need scenario PubSub"}, set("thresholds.maxDeliveryP99", "5ms")),
		Entry("lost-messages gate on state", []string{"spec", "gate message delivery: they need scenario PubSub"}, state, set("thresholds.maxLostMessages", int64(0))),
		Entry("pubsub settings on state", []string{"spec", "pubsub may only be set when scenario is PubSub"}, state, set("pubsub.topic", "orders")),
		Entry("a target on a PubSub run", []string{"spec", "a PubSub run has none"}, pubsub, set("target.image", "daprbench:dev")),
		Entry("pubsub messages above 64 KiB", []string{"spec", "a PubSub run's payload must be at most 64 KiB"}, pubsub, set("load.payloadBytes", int64(65537))),
		Entry("pubsub over two load testers", []string{"spec", "loadTester.replicas must be 1 for PubSub"}, pubsub, set("loadTester.replicas", int64(2))),
		Entry("profiling a PubSub run", []string{"spec", "a PubSub run has no target"}, pubsub, set("profiling", map[string]any{})),
		Entry("pubsub with a gRPC app", []string{"spec", "Scheduler and Configuration have no app"}, pubsub, set("protocol.app", "GRPC")),
		Entry("bulk publish of none", []string{"spec.pubsub.bulkPublish", "greater than or equal to 1"}, pubsub, set("pubsub.bulkPublish", int64(0))),
		Entry("bulk publish above 3 MiB", []string{"spec", "pubsub.bulkPublish × the payload must be at most 3 MiB"},
			pubsub, set("pubsub.bulkPublish", int64(100)), set("load.payloadBytes", int64(65536))),
		Entry("bulk subscribe of too many", []string{"spec.pubsub.bulkSubscribe.maxMessagesCount", "less than or equal to 1000"},
			pubsub, set("pubsub.bulkSubscribe.maxMessagesCount", int64(1001))),
		Entry("bulk subscribe waiting over a minute", []string{"spec.pubsub.bulkSubscribe.maxAwaitDurationMs", "less than or equal to 60000"},
			pubsub, set("pubsub.bulkSubscribe.maxAwaitDurationMs", int64(60001))),
		Entry("workflow settings on pubsub", []string{"spec", "workflow may only be set when scenario is Workflow"}, pubsub, set("workflow.activities", int64(3))),
		Entry("a workflow baseline", []string{"spec", "baseline cannot be true for Workflow"}, workflows, set("baseline", true)),
		Entry("workflows without Dapr", []string{"spec", "dapr.enabled=false needs scenario ServiceInvocation"}, workflows, set("dapr.enabled", false)),
		Entry("a target on a Workflow run", []string{"spec", "a Workflow run has none"}, workflows, set("target.image", "daprbench:dev")),
		Entry("workflows over two load testers", []string{"spec", "loadTester.replicas must be 1 for Workflow"}, workflows, set("loadTester.replicas", int64(2))),
		Entry("profiling a Workflow run", []string{"spec", "a Workflow run has no target"}, workflows, set("profiling", map[string]any{})),
		Entry("placing a Workflow run", []string{"spec", "a Workflow run has none: leave placement Any"}, workflows, set("placement", "SameNode")),
		Entry("a workflow input above 64 KiB", []string{"spec", "a Workflow run's payload must be at most 64 KiB"}, workflows, set("load.payloadBytes", int64(65537))),
		Entry("workflows with a gRPC app", []string{"spec", "Scheduler and Configuration have no app"}, workflows, set("protocol.app", "GRPC")),
		Entry("no activities", []string{"spec.workflow.activities", "greater than or equal to 1"}, workflows, set("workflow.activities", int64(0))),
		Entry("an unknown pattern", []string{"spec.workflow.pattern", "Unsupported value"}, workflows, set("workflow.pattern", "Saga")),
		Entry("an activity delay above 10s", []string{"spec.workflow.activityDelay", "activityDelay must be from 0s to 10s"}, workflows, set("workflow.activityDelay", "11s")),
		Entry("a completion gate on pubsub", []string{"spec", "gate workflow instances: they need scenario Workflow"}, pubsub, set("thresholds.maxCompletionP99", "1s")),
		Entry("added latency on workflows", []string{"spec", "need added latency"}, workflows, set("thresholds.maxAddedP90", "2ms")),
		Entry("scheduler settings on workflows", []string{"spec", "scheduler may only be set when scenario is Scheduler"}, workflows, set("scheduler.api", "Jobs")),
		Entry("a scheduler baseline", []string{"spec", "baseline cannot be true for Scheduler"}, scheduler, set("baseline", true)),
		Entry("a target on a Scheduler run", []string{"spec", "a Scheduler run has none"}, scheduler, set("target.image", "daprbench:dev")),
		Entry("scheduler over two load testers", []string{"spec", "loadTester.replicas must be 1 for Scheduler"}, scheduler, set("loadTester.replicas", int64(2))),
		Entry("scheduler over gRPC", []string{"spec", "a Scheduler run registers over daprd's HTTP API"}, scheduler, set("protocol.caller", "GRPC")),
		Entry("a due time below 100ms", []string{"spec.scheduler.dueTime", "dueTime must be from 100ms to 1m"}, scheduler, set("scheduler.dueTime", "50ms")),
		Entry("actors for jobs", []string{"spec.scheduler", "actors is how many actor ids the reminders or timers spread over"}, scheduler, set("scheduler.actors", int64(10))),
		Entry("another method on the Go SDK's actor", []string{"spec.actors", "the Go SDK host's actor has one method, Activate"}, actors, set("actors.host", "GoSDK"), set("actors.method", "activate")),
		Entry("an unknown actor host", []string{"spec.actors.host", "Unsupported value"}, actors, set("actors.host", "JavaSDK")),
		Entry("an unknown scheduler API", []string{"spec.scheduler.api", "Unsupported value"}, scheduler, set("scheduler.api", "Timers")),
		Entry("a trigger gate on workflows", []string{"spec", "gate jobs' and reminders' triggers: they need scenario Scheduler"}, workflows, set("thresholds.maxMissedTriggers", int64(0))),
		Entry("pubsub without Dapr", []string{"spec", "dapr.enabled=false needs scenario ServiceInvocation"}, pubsub, set("dapr.enabled", false)),
		Entry("pubsub subscription unknown", []string{"spec.pubsub.subscription", "Unsupported value"}, pubsub, set("pubsub.subscription", "Streaming")),
		Entry("pubsub topic not a name", []string{"spec.pubsub.topic", "should match"}, pubsub, set("pubsub.topic", "orders/eu")),
		Entry("placement on a named broker", []string{"spec", "a named Component's broker is not the run's to place"},
			pubsub, set("pubsub.component", "orders"), set("placement", "SameNode")),
		Entry("added-latency threshold on a named broker without a baseline", []string{"spec", "need added latency"},
			pubsub, set("pubsub.component", "orders"), set("thresholds.maxAddedP90", "2ms")),
		Entry("variants without Dapr", []string{"spec", "variants compare sidecars"}, set("dapr.enabled", false), set("baseline", false), variants("a")),
		Entry("more than four variants", []string{"spec.variants", "must have at most 4 items"}, variants("a", "b", "c", "d", "e")),
		Entry("variant names repeat", []string{"spec.variants[1]", "Duplicate value"}, variants("a", "a")),
		Entry("variant name too long", []string{"spec.variants[0].name", "12"}, variants("a-very-long-name")),
		Entry("four paths on actors", []string{"spec", "serviceInvocation.paths FourPaths splits what Dapr adds"}, actors, set("serviceInvocation.paths", "FourPaths")),
		Entry("four paths without the baseline", []string{"spec", "with the baseline (the direct path)"}, set("baseline", false), set("serviceInvocation.paths", "FourPaths")),
		Entry("four paths with variants", []string{"spec", "without variants"}, variants("a", "b"), set("serviceInvocation.paths", "FourPaths")),
		Entry("four paths with a gRPC caller", []string{"spec", "needs protocol.caller and protocol.app HTTP", "non-Dapr HTTP endpoint"},
			set("protocol.caller", "GRPC"), set("serviceInvocation.paths", "FourPaths")),
		Entry("four paths to a gRPC app", []string{"spec", "needs protocol.caller and protocol.app HTTP"}, set("protocol.app", "GRPC"), set("serviceInvocation.paths", "FourPaths")),
		Entry("an unknown path set", []string{"spec.serviceInvocation.paths", "Unsupported value"}, set("serviceInvocation.paths", "Three")),
		Entry("timeout shorter than four paths' runs", []string{"spec", "timeout must be longer than warmup + duration × repetitions × paths"},
			set("serviceInvocation.paths", "FourPaths"), set("load.duration", "60s"), set("load.repetitions", int64(2)), set("timeout", "8m")), // 10s + 2 × 4 × 60s > 8m
		Entry("timeout shorter than every variant's runs", []string{"spec", "timeout must be longer than warmup + duration × repetitions × paths"},
			variants("a", "b"), set("load.duration", "60s"), set("timeout", "3m")), // 10s + 3 × 60s > 3m
		Entry("mtls per variant", []string{"spec.variants[0]", "mTLS is cluster-wide in Dapr"}, variants("a"), set("variants", []any{map[string]any{"name": "a", "mtls": "Disabled"}})),
		Entry("an mtls annotation per variant", []string{"spec.variants[0]", "mTLS cannot vary between variants"},
			set("variants", []any{map[string]any{"name": "a", "annotations": map[string]any{"dapr.io/enable-mtls": "false"}}})),
		Entry("a non-Dapr annotation", []string{"spec.variants[0]", "must be dapr.io/ annotations"},
			set("variants", []any{map[string]any{"name": "a", "annotations": map[string]any{"sidecar.istio.io/inject": "true"}}})),
		Entry("an annotation the operator owns", []string{"spec.variants[0]", "must not set dapr.io/enabled, app-id"},
			set("variants", []any{map[string]any{"name": "a", "annotations": map[string]any{"dapr.io/app-id": "other"}}})),
		Entry("an annotation that reads Secrets", []string{"spec.variants[0]", "may only be sidecar settings a benchmark varies"},
			set("variants", []any{map[string]any{"name": "a", "annotations": map[string]any{"dapr.io/env-from-secret": "TOKEN=db-password"}}})),
		Entry("an annotation that sends load elsewhere", []string{"spec.variants[0]", "may only be sidecar settings a benchmark varies"},
			set("variants", []any{map[string]any{"name": "a", "annotations": map[string]any{"dapr.io/app-channel-address": "payments.prod"}}})),
		Entry("an annotation that mounts volumes", []string{"spec.variants[0]", "may only be sidecar settings a benchmark varies"},
			set("variants", []any{map[string]any{"name": "a", "annotations": map[string]any{"dapr.io/volume-mounts": "host:/etc"}}})),
		Entry("an image with whitespace", []string{"spec.target.image", "should match"}, set("target.image", "daprbench:dev --privileged")),
		Entry("an image path that climbs", []string{"spec.target.image", "should match"}, set("target.image", "ghcr.io/dapr/../daprd:1.16.0")),
		Entry("an image repository in upper case", []string{"spec.loadTester.image", "should match"}, set("loadTester.image", "ghcr.io/Dapr/daprd")),
		Entry("an image digest that is not one", []string{"spec.target.image", "should match"}, set("target.image", "ghcr.io/dapr/daprd@sha256:abc")),
		Entry("an image tag over 128 characters", []string{"spec.target.image", "should match"}, set("target.image", "daprd:"+strings.Repeat("t", 129))),
		Entry("a sidecar image with whitespace", []string{"spec.variants[0].sidecarImage", "should match"},
			set("variants", []any{map[string]any{"name": "a", "sidecarImage": "ghcr.io/dapr/daprd:1.16.0 "}})),
		Entry("target toleration malformed", []string{"spec.target.tolerations"}, set("target.tolerations", "all")),
		Entry("a toleration effect that does not exist", []string{"spec.target.tolerations", "effect must be NoSchedule, PreferNoSchedule or NoExecute"},
			set("target.tolerations", []any{map[string]any{"key": "k", "operator": "Exists", "effect": "Sometimes"}})),
		Entry("a toleration operator that does not exist", []string{"spec.loadTester.tolerations", "operator must be Exists or Equal"},
			set("loadTester.tolerations", []any{map[string]any{"key": "k", "operator": "Maybe"}})),
		Entry("a toleration that Exists with a value", []string{"spec.target.tolerations", "operator Exists must not set a value"},
			set("target.tolerations", []any{map[string]any{"key": "k", "operator": "Exists", "value": "v"}})),
		Entry("load-tester replicas zero", []string{"spec.loadTester.replicas", "greater than or equal to 1"}, set("loadTester.replicas", int64(0))),
		Entry("load-tester replicas above 10", []string{"spec.loadTester.replicas", "less than or equal to 10"}, set("loadTester.replicas", int64(11))),
		Entry("more load-tester pods than connections", []string{"spec", "loadTester.replicas must not exceed load.connections nor load.qps"},
			set("loadTester.replicas", int64(4)), set("load.connections", int64(3))),
		Entry("more load-tester pods than the rate", []string{"spec", "every load-tester pod needs a connection and a share of the rate"},
			set("loadTester.replicas", int64(4)), set("load.qps", int64(3)), set("load.connections", int64(3))),
		Entry("replicas on the target", []string{`unknown field "spec.target.replicas"`}, set("target.replicas", int64(2))),
		Entry("profiling without Dapr", []string{"spec", "profiling profiles the daprd sidecars: it needs dapr.enabled"},
			set("dapr.enabled", false), set("profiling", map[string]any{})),
		Entry("a profiling window without 2s on each side", []string{"spec", "profiling.seconds must leave 2s of the profiled phase on each side"},
			set("load.duration", "30s"), set("profiling.seconds", int64(27))),
		Entry("the default window in a phase too short for it", []string{"spec", "profiling.seconds must leave 2s"},
			set("load.duration", "13s"), set("profiling", map[string]any{})), // 10s + 4s > 13s
		Entry("a window longer than the half phases of one repetition", []string{"spec", "half of it less 4s with one repetition"},
			set("load.duration", "60s"), set("load.repetitions", int64(1)), set("profiling.seconds", int64(27))), // 27s + 4s > 30s
		Entry("profiling a four-path run", []string{"spec", "profiling cannot be combined with serviceInvocation.paths FourPaths"},
			set("serviceInvocation.paths", "FourPaths"), set("profiling", map[string]any{})),
		Entry("a profiling window of zero", []string{"spec.profiling.seconds", "greater than or equal to 1"}, set("profiling.seconds", int64(0))),
		Entry("a profiling window above 60s", []string{"spec.profiling.seconds", "less than or equal to 60"},
			set("load.duration", "10m"), set("profiling.seconds", int64(61))),
	)

	DescribeTable("refuses an invalid PerfSchedule with a message naming the field",
		func(name string, want []string, edit func(spec map[string]any)) {
			spec := map[string]any{"schedule": "0 3 * * *", "template": map[string]any{"spec": map[string]any{
				"scenario": "ServiceInvocation", "load": map[string]any{"qps": int64(100)}}}}
			edit(spec)
			u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfSchedule",
				"metadata": map[string]any{"name": name, "namespace": "default"}, "spec": spec}}
			err := k8s.Create(ctx, u, client.DryRunAll, client.FieldValidation("Strict"))
			Expect(err).To(HaveOccurred())
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("schedule missing", "s", []string{"spec.schedule", "Required value"}, func(s map[string]any) { delete(s, "schedule") }),
		Entry("name too long for run names", strings.Repeat("s", 29), []string{"metadata.name must be at most 28 characters"}, func(map[string]any) {}),
		Entry("name not a DNS-1035 label", "1nightly", []string{"metadata.name must be a DNS-1035 label"}, func(map[string]any) {}),
		Entry("time zone inside the schedule", "s", []string{"spec.schedule", "use spec.timeZone"}, func(s map[string]any) { s["schedule"] = "CRON_TZ=UTC 0 3 * * *" }),
		Entry("starting deadline zero", "s", []string{"spec.startingDeadlineSeconds", "greater than or equal to 1"}, func(s map[string]any) { s["startingDeadlineSeconds"] = int64(0) }),
		Entry("history shorter than the regression window", "s", []string{"spec", "successfulRunsHistoryLimit must be at least regression.window"}, func(s map[string]any) {
			s["successfulRunsHistoryLimit"] = int64(2)
			s["regression"] = map[string]any{"window": int64(5)}
		}),
		Entry("a time zone that is no IANA name", "s", []string{"spec.timeZone", "should match"}, func(s map[string]any) { s["timeZone"] = "Europe/Berlin; rm -rf" }),
		Entry("concurrency policy unknown", "s", []string{"spec.concurrencyPolicy", "Unsupported value"}, func(s map[string]any) { s["concurrencyPolicy"] = "Queue" }),
		Entry("negative history limit", "s", []string{"spec.successfulRunsHistoryLimit", "greater than or equal to 0"}, func(s map[string]any) { s["successfulRunsHistoryLimit"] = int64(-1) }),
		Entry("regression window zero", "s", []string{"spec.regression.window", "greater than or equal to 1"}, func(s map[string]any) { s["regression"] = map[string]any{"window": int64(0)} }),
		Entry("the template's own rules apply", "s", []string{"spec.template.spec.load.qps", "greater than or equal to 1"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, int64(0), "template", "spec", "load", "qps")).To(Succeed())
		}),
		Entry("the template's CEL rules apply", "s", []string{"spec.template.spec", "baseline cannot be true for ActorActivation"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, "ActorActivation", "template", "spec", "scenario")).To(Succeed())
			Expect(unstructured.SetNestedField(s, true, "template", "spec", "baseline")).To(Succeed())
		}),
	)

	DescribeTable("refuses an invalid PerfSweep with a message naming the field",
		func(name string, want []string, edit func(spec map[string]any)) {
			spec := map[string]any{"points": map[string]any{"connections": []any{int64(1), int64(2)}},
				"template": map[string]any{"spec": map[string]any{"scenario": "ServiceInvocation", "load": map[string]any{"qps": int64(100)}}}}
			edit(spec)
			u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfSweep",
				"metadata": map[string]any{"name": name, "namespace": "default"}, "spec": spec}}
			err := k8s.Create(ctx, u, client.DryRunAll, client.FieldValidation("Strict"))
			Expect(err).To(HaveOccurred(), "the API server admitted it")
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("neither points nor search", "s", []string{"spec", "set exactly one of spec.points"}, func(s map[string]any) { delete(s, "points") }),
		Entry("both points and search", "s", []string{"spec", "set exactly one of spec.points"}, func(s map[string]any) {
			s["search"] = map[string]any{"startQPS": int64(100)}
		}),
		Entry("more than 50 points", "s", []string{"spec", "a sweep has at most 50 points"}, func(s map[string]any) {
			s["points"] = map[string]any{"connections": []any{int64(1), int64(2), int64(4), int64(8), int64(16), int64(32), int64(64), int64(128)},
				"qps": []any{int64(100), int64(200), int64(300), int64(400), int64(500), int64(600), int64(700)}}
		}),
		Entry("longer than 72h", "s", []string{"spec", "the sweep would take longer than 72h"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, "24h", "template", "spec", "load", "duration")).To(Succeed())
		}),
		Entry("a search longer than 72h", "s", []string{"spec", "maxSteps runs would take longer than 72h"}, func(s map[string]any) {
			delete(s, "points")
			s["search"] = map[string]any{"startQPS": int64(100), "maxSteps": int64(20)}
			Expect(unstructured.SetNestedField(s, "4h", "template", "spec", "load", "duration")).To(Succeed())
		}),
		Entry("an objective that is no duration", "s", []string{"spec.search.objective.maxP90", "should match"}, func(s map[string]any) {
			delete(s, "points")
			s["search"] = map[string]any{"startQPS": int64(100), "objective": map[string]any{"maxP90": "fast"}}
		}),
		Entry("an objective beyond a Duration", "s", []string{"spec.search.objective.maxP99"}, func(s map[string]any) {
			delete(s, "points")
			s["search"] = map[string]any{"startQPS": int64(100), "objective": map[string]any{"maxP99": "2562048h"}}
		}),
		Entry("failRun in an objective", "s", []string{"spec.search.objective", "failRun has no meaning in an objective"}, func(s map[string]any) {
			delete(s, "points")
			s["search"] = map[string]any{"startQPS": int64(100), "objective": map[string]any{"maxP99": "5ms", "failRun": true}}
		}),
		Entry("search ceiling below its start", "s", []string{"spec.search", "maxQPS must be at least startQPS"}, func(s map[string]any) {
			delete(s, "points")
			s["search"] = map[string]any{"startQPS": int64(1000), "maxQPS": int64(500)}
		}),
		Entry("an empty points list", "s", []string{"spec.points", "at least one of connections, qps, payloadBytes and settings"}, func(s map[string]any) {
			s["points"] = map[string]any{}
		}),
		Entry("connections out of range", "s", []string{"spec.points.connections[0]", "less than or equal to 1024"}, func(s map[string]any) {
			s["points"] = map[string]any{"connections": []any{int64(2000)}}
		}),
		Entry("a repeated value", "s", []string{"spec.points.connections[1]", "Duplicate value"}, func(s map[string]any) {
			s["points"] = map[string]any{"connections": []any{int64(4), int64(4)}}
		}),
		Entry("two settings of one name", "s", []string{"spec.points.settings[1]", "Duplicate value"}, func(s map[string]any) {
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "trace", "tracingSamplingRate": "0"},
				map[string]any{"name": "trace", "tracingSamplingRate": "1"}}}
		}),
		Entry("a setting's sampling rate above 1", "s", []string{"spec.points.settings[0].tracingSamplingRate", "should match"}, func(s map[string]any) {
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "trace-2", "tracingSamplingRate": "2"}}}
		}),
		Entry("a setting's name too long", "s", []string{"spec.points.settings[0].name"}, func(s map[string]any) {
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "tracing-at-one-tenth"}}}
		}),
		Entry("a setting's mtls unknown", "s", []string{"spec.points.settings[0].mtls", "Unsupported value"}, func(s map[string]any) {
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "mtls", "mtls": "Permissive"}}}
		}),
		Entry("a gRPC app setting for an actor template", "s", []string{"spec.points.settings", "appProtocol GRPC needs a ServiceInvocation template"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, "ActorActivation", "template", "spec", "scenario")).To(Succeed())
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "grpc", "appProtocol": "GRPC"}}}
		}),
		Entry("a component setting for an invocation template", "s", []string{"spec.points.settings", "component names a point's state store or broker"}, func(s map[string]any) {
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "team", "component": "team-redis"}}}
		}),
		Entry("a bulk size setting for a single-key State template", "s", []string{"spec.points.settings", "bulkSize is a point's keys a request"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, "State", "template", "spec", "scenario")).To(Succeed())
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "b50", "bulkSize": int64(50)}}}
		}),
		Entry("a sidecar image setting for a template with variants", "s", []string{"spec.points.settings", "a sidecarImage needs"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, []any{map[string]any{"name": "a"}}, "template", "spec", "variants")).To(Succeed())
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "next", "sidecarImage": "ghcr.io/dapr/daprd:1.17.0"}}}
		}),
		Entry("a gRPC app setting for a four-path template", "s", []string{"spec.points.settings", "a FourPaths template measures HTTP without variants"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, "FourPaths", "template", "spec", "serviceInvocation", "paths")).To(Succeed())
			s["points"] = map[string]any{"settings": []any{map[string]any{"name": "grpc", "appProtocol": "GRPC"}}}
		}),
		Entry("four paths' sweep longer than 72h", "s", []string{"spec", "the sweep would take longer than 72h", "× paths"}, func(s map[string]any) {
			// 36 points × (10s + 600s × 3 repetitions × 4 paths + 5m) = 75.1h; counted with two paths, 39.1h
			Expect(unstructured.SetNestedField(s, "FourPaths", "template", "spec", "serviceInvocation", "paths")).To(Succeed())
			Expect(unstructured.SetNestedField(s, "10m", "template", "spec", "load", "duration")).To(Succeed())
			Expect(unstructured.SetNestedField(s, int64(3), "template", "spec", "load", "repetitions")).To(Succeed())
			var qps []any
			for q := range 36 {
				qps = append(qps, int64(100+q))
			}
			s["points"] = map[string]any{"qps": qps}
		}),
		Entry("settings × connections beyond 50 points", "s", []string{"spec", "a sweep has at most 50 points"}, func(s map[string]any) {
			var settings []any
			for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
				settings = append(settings, map[string]any{"name": n})
			}
			s["points"] = map[string]any{"connections": []any{int64(1), int64(2), int64(4), int64(8), int64(16), int64(32), int64(64)}, "settings": settings}
		}),
		Entry("name too long for run names", strings.Repeat("s", 31), []string{"metadata.name must be at most 30 characters"}, func(map[string]any) {}),
		Entry("the template's rules apply", "s", []string{"spec.template.spec.load.qps", "greater than or equal to 1"}, func(s map[string]any) {
			Expect(unstructured.SetNestedField(s, int64(0), "template", "spec", "load", "qps")).To(Succeed())
		}),
	)

	// Admission's CEL repeats the count of the measured plan (result.MeasuredPaths) in its
	// timeout rule: in every mode it admits, a timeout of exactly the Go load time is refused
	// and one a second longer admitted.
	It("holds admission's timeout arithmetic to the measured plan in every mode", func() {
		admitted := 0
		for _, scenario := range []string{"ServiceInvocation", "ActorActivation", "State", "State on a Component", "PubSub", "PubSub on a Component"} {
			for _, dapr := range []any{nil, false} {
				for _, baseline := range []any{nil, true, false} {
					for _, vs := range [][]string{nil, {"a", "b"}} {
						for _, paths := range []string{"", "FourPaths"} {
							edits := []func(map[string]any){set("scenario", strings.TrimSuffix(scenario, " on a Component")), set("load.duration", "60s"),
								set("load.warmup", "10s"), set("load.repetitions", int64(2))}
							switch scenario {
							case "State on a Component":
								edits = append(edits, set("state.component", "orders"))
							case "PubSub on a Component":
								edits = append(edits, set("pubsub.component", "orders"))
							}
							if dapr != nil {
								edits = append(edits, set("dapr.enabled", dapr))
							}
							if baseline != nil {
								edits = append(edits, set("baseline", baseline))
							}
							if vs != nil {
								edits = append(edits, variants(vs...))
							}
							if paths != "" {
								edits = append(edits, set("serviceInvocation.paths", paths))
							}
							probe := perfRun("plan", append(edits, set("timeout", "10h"))...)
							if k8s.Create(ctx, probe, client.DryRunAll) != nil {
								continue // refused for another reason
							}
							var spec perfv1alpha1.PerfRunSpec
							Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(probe.Object["spec"].(map[string]any), &spec)).To(Succeed())
							load := spec.LoadTime()
							Expect(workload.PathNames(&spec)).To(HaveLen(spec.Paths()))
							exact := perfRun("plan", append(edits, set("timeout", load.String()))...)
							err := k8s.Create(ctx, exact, client.DryRunAll)
							Expect(err).To(MatchError(ContainSubstring("timeout must be longer than warmup")),
								"%s dapr %v baseline %v variants %v %s: a timeout of the load time %v (%v)", scenario, dapr, baseline, vs, paths, load, workload.MeasuredPaths(&spec))
							longer := perfRun("plan", append(edits, set("timeout", (load+time.Second).String()))...)
							Expect(k8s.Create(ctx, longer, client.DryRunAll)).To(Succeed(),
								"%s dapr %v baseline %v variants %v %s: a timeout past the load time %v (%v)", scenario, dapr, baseline, vs, paths, load, workload.MeasuredPaths(&spec))
							admitted++
						}
					}
				}
			}
		}
		GinkgoWriter.Printf("%d modes admitted\n", admitted)
		Expect(admitted).To(BeNumerically(">=", 10), "the modes admission admits")
	})

	It("admits every annotation of the variant allowlist", func() {
		allowed := map[string]any{}
		for _, k := range []string{"dapr.io/max-body-size", "dapr.io/app-max-concurrency", "dapr.io/enable-api-logging",
			"dapr.io/sidecar-readiness-probe-threshold", "dapr.io/app-health-probe-interval"} {
			allowed[k] = "1"
		}
		run := perfRun("allowlisted", set("variants", []any{map[string]any{"name": "a", "annotations": allowed}}))
		Expect(k8s.Create(ctx, run, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed())
	})

	It("admits a profiling window with exactly 2s on each side of it, and defaults its length", func() {
		whole := perfRun("profiled", set("load.duration", "24s"), set("profiling.seconds", int64(20)))
		Expect(k8s.Create(ctx, whole, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed())
		half := perfRun("profiled-half", set("load.duration", "60s"), set("load.repetitions", int64(1)), set("profiling.seconds", int64(26)))
		Expect(k8s.Create(ctx, half, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed())
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "profiled-default", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100},
				Profiling: &perfv1alpha1.ProfilingSpec{}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.Profiling.Seconds).To(Equal(int32(10)))
	})

	It("refuses a name too long to prefix the run's workloads", func() {
		err := k8s.Create(ctx, perfRun(strings.Repeat("a", 41)), client.DryRunAll)
		Expect(err).To(MatchError(ContainSubstring("metadata.name must be at most 40 characters")))
	})

	It("refuses a name that cannot name a Service (DNS-1035: a letter first)", func() {
		err := k8s.Create(ctx, perfRun("1st-run"), client.DryRunAll)
		Expect(err).To(MatchError(ContainSubstring("metadata.name must be a DNS-1035 label")))
		Expect(k8s.Create(ctx, perfRun("run-1"), client.DryRunAll)).To(Succeed())
	})

	It("fills the documented defaults into a minimal ServiceInvocation run", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "minimal", Namespace: "default"},
			Spec:       perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		s := run.Spec
		Expect(s.Load.Connections).To(Equal(int32(16)))
		Expect(s.Load.Duration).To(Equal(&metav1.Duration{Duration: time.Minute}))
		Expect(s.Load.Warmup).To(Equal(&metav1.Duration{Duration: 10 * time.Second}))
		Expect(s.Load.Repetitions).To(Equal(int32(3)))
		Expect(s.Dapr.Enabled).To(Equal(ptr.To(true)))
		Expect(s.Dapr.MTLS).To(Equal(perfv1alpha1.MTLSEnabled))
		Expect(s.Dapr.TracingSamplingRate).To(Equal("0.1"))
		Expect(s.Dapr.Sidecar.CPULimit).To(Equal(ptr.To(resource.MustParse("500m"))))
		Expect(s.Dapr.LogLevel).To(Equal(perfv1alpha1.LogLevel("info")))
		Expect(s.Dapr.ControlPlaneNamespace).To(BeEmpty(), "the control plane's namespace is the operator's setting, not defaulted into the run")
		Expect(s.Placement).To(Equal(perfv1alpha1.PlacementAny))
		Expect(s.Cleanup).To(Equal(perfv1alpha1.CleanupOnSuccess))
		// Scenario-dependent defaults are resolved by the operator, not written into the spec.
		Expect(s.Baseline).To(BeNil())
		Expect(s.BaselineEnabled()).To(BeTrue())
		n, literal := s.Body()
		Expect(n).To(Equal(1024))
		Expect(literal).To(BeNil())
	})

	It("keeps a status the previous release wrote writable: an added-latency interval without covers is ThisRun", func() {
		u := perfRun("old-status")
		Expect(k8s.Create(ctx, u)).To(Succeed())
		DeferCleanup(func() { Expect(k8s.Delete(ctx, u)).To(Succeed()) })
		// What the previous release's status.result held: the interval with its basis, no
		// covers; and figures the headline no longer has (pruned).
		Expect(unstructured.SetNestedField(u.Object, map[string]any{
			"generation": int64(1), "requestedQPS": int64(100), "actualQPS": "99.9", "basis": "BetweenRepetitions",
			"addedInterval": map[string]any{"confidencePercent": int64(95), "basis": "BetweenRepetitions",
				"low": map[string]any{"p90": "1ms"}, "high": map[string]any{"p90": "2ms"}},
		}, "status", "result")).To(Succeed())
		Expect(k8s.Status().Update(ctx, u)).To(Succeed())
		got := &perfv1alpha1.PerfRun{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(u), got)).To(Succeed())
		Expect(got.Status.Result.AddedInterval.Covers).To(Equal(perfv1alpha1.CoversThisRun))
		Expect(got.Status.Result.AddedInterval.High.P90.Duration).To(Equal(2 * time.Millisecond))
	})

	It("fills in the same defaults as the operator's helpers resolve for an unset field", func() {
		unset := perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation, Load: perfv1alpha1.LoadSpec{QPS: 100},
			Actors: &perfv1alpha1.ActorsSpec{}}
		run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "defaults", Namespace: "default"}, Spec: *unset.DeepCopy()}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		filled := run.Spec
		Expect(filled.Load.Connections).To(Equal(unset.Load.EffectiveConnections()))
		Expect(filled.Load.Repetitions).To(Equal(unset.Load.EffectiveRepetitions()))
		Expect(filled.Load.Duration.Duration).To(Equal(unset.Load.EffectiveDuration()))
		Expect(filled.Load.Warmup.Duration).To(Equal(unset.Load.EffectiveWarmup()))
		Expect(*filled.Dapr.Enabled).To(Equal(unset.DaprEnabled()))
		// The method's default depends on the host: the operator resolves it.
		Expect(filled.Actors.Host).To(Equal(unset.ActorSettings().Host))
		Expect(filled.Actors.Method).To(BeEmpty())
		Expect(filled.EffectiveTimeout()).To(Equal(unset.EffectiveTimeout()))
	})

	It("accepts a minimal ActorActivation run and resolves its defaults", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "minimal-actors", Namespace: "default"},
			Spec:       perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation, Load: perfv1alpha1.LoadSpec{QPS: 500}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.BaselineEnabled()).To(BeFalse())
		_, literal := run.Spec.Body()
		Expect(literal).To(Equal(ptr.To("{}")))
		Expect(run.Spec.ActorSettings()).To(Equal(perfv1alpha1.ActorsSpec{Host: perfv1alpha1.ActorHostMinimal, Method: "activate"}))
		Expect(run.ActorType()).To(MatchRegexp(`^PerfActor-[0-9a-f]{8}-1$`), "a type of the run's own, unique per uid and generation")
	})

	It("accepts the Go SDK actor host with its one method by default, and timers on actors", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "sdk-actors", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation, Load: perfv1alpha1.LoadSpec{QPS: 500},
				Actors: &perfv1alpha1.ActorsSpec{Host: perfv1alpha1.ActorHostGoSDK}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.ActorSettings()).To(Equal(perfv1alpha1.ActorsSpec{Host: perfv1alpha1.ActorHostGoSDK, Method: "Activate"}))
		timers := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "timers", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioScheduler, Load: perfv1alpha1.LoadSpec{QPS: 50},
				Scheduler: &perfv1alpha1.SchedulerSpec{API: perfv1alpha1.SchedulerActorTimers}},
		}
		Expect(k8s.Create(ctx, timers, client.DryRunAll)).To(Succeed())
		Expect(timers.Spec.SchedulerSettings().Actors).To(Equal(int32(perfv1alpha1.DefaultReminderActors)))
	})

	It("refuses a change of scenario: a run's children are its scenario's", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "fixed-scenario", Namespace: "default"},
			Spec:       perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}},
		}
		Expect(k8s.Create(ctx, run)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, run))).To(Succeed()) })
		run.Spec.Scenario = perfv1alpha1.ScenarioState
		Expect(k8s.Update(ctx, run)).To(MatchError(ContainSubstring("scenario cannot be changed")))
	})

	It("accepts a minimal State run and resolves its defaults", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "minimal-state", Namespace: "default"},
			Spec:       perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioState, Load: perfv1alpha1.LoadSpec{QPS: 1000}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.BaselineEnabled()).To(BeTrue(), "the run deploys the store, so its baseline can call it")
		Expect(workload.PathNames(&run.Spec)).To(Equal([]string{"baseline", "dapr"}))
		n, _ := run.Spec.Body()
		Expect(n).To(Equal(1024))
		Expect(run.Spec.StateSettings()).To(Equal(perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateGet, Keys: 1000}))
		run.Spec.State = &perfv1alpha1.StateSpec{Component: "orders"}
		Expect(run.Spec.BaselineEnabled()).To(BeFalse(), "a named Component's store is measured through Dapr alone unless asked")
	})

	It("accepts a bulk State run at its limits and gives a bulk operation 10 keys a request unless set", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "bulk-state", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioState, Load: perfv1alpha1.LoadSpec{QPS: 200, PayloadBytes: ptr.To(int32(32768))},
				State: &perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateTransaction, BulkSize: 96, Keys: 96}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.StateSettings().BulkSize).To(Equal(int32(96)))
		run.Spec.State = &perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateBulkGet}
		Expect(run.Spec.StateSettings().BulkSize).To(Equal(int32(10)))
		run.Spec.State = &perfv1alpha1.StateSpec{Operation: perfv1alpha1.StateSaveThenGet}
		Expect(run.Spec.StateSettings().BulkSize).To(BeZero(), "a single-key operation has no bulk")
	})

	It("accepts a minimal PubSub run and resolves its defaults", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "minimal-pubsub", Namespace: "default"},
			Spec:       perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioPubSub, Load: perfv1alpha1.LoadSpec{QPS: 1000}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.BaselineEnabled()).To(BeTrue(), "the run deploys the broker, so its baseline can reach it")
		Expect(workload.PathNames(&run.Spec)).To(Equal([]string{"baseline", "dapr"}))
		Expect(run.Spec.PubSubSettings()).To(Equal(perfv1alpha1.PubSubSpec{Subscription: perfv1alpha1.SubscriptionProgrammatic}))
		run.Spec.PubSub = &perfv1alpha1.PubSubSpec{Component: "orders"}
		Expect(run.Spec.BaselineEnabled()).To(BeFalse(), "a named Component's broker is measured through Dapr alone unless asked")
	})

	It("accepts a minimal Workflow run, gRPC or HTTP, and resolves its defaults", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "minimal-workflow", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioWorkflow, Load: perfv1alpha1.LoadSpec{QPS: 50},
				Protocol: perfv1alpha1.ProtocolSpec{Caller: perfv1alpha1.ProtocolGRPC}, Workflow: &perfv1alpha1.WorkflowSpec{}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.BaselineEnabled()).To(BeFalse(), "a workflow cannot run without Dapr")
		Expect(workload.PathNames(&run.Spec)).To(Equal([]string{"dapr"}))
		Expect(*run.Spec.Workflow).To(Equal(perfv1alpha1.WorkflowSpec{Pattern: perfv1alpha1.WorkflowChain, Activities: 5}), "the API server fills in the defaults")
		run.Spec.Workflow = nil
		Expect(run.Spec.WorkflowSettings()).To(Equal(perfv1alpha1.WorkflowSpec{Pattern: perfv1alpha1.WorkflowChain, Activities: 5}))
		fanOut := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "fan-out", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioWorkflow, Load: perfv1alpha1.LoadSpec{QPS: 50},
				Workflow:   &perfv1alpha1.WorkflowSpec{Pattern: perfv1alpha1.WorkflowFanOut, Activities: 100, ActivityDelay: &metav1.Duration{Duration: 10 * time.Second}},
				Thresholds: &perfv1alpha1.Thresholds{MaxCompletionP99: &metav1.Duration{Duration: time.Second}, MaxFailedWorkflows: ptr.To[int64](0)}},
		}
		Expect(k8s.Create(ctx, fanOut, client.DryRunAll)).To(Succeed(), "the limits, over HTTP, with the workflow gates")
	})

	It("accepts Scheduler runs of jobs and of reminders, and resolves their defaults", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "minimal-jobs", Namespace: "default"},
			Spec:       perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioScheduler, Load: perfv1alpha1.LoadSpec{QPS: 50}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(run.Spec.BaselineEnabled()).To(BeFalse())
		Expect(run.Spec.SchedulerSettings()).To(Equal(perfv1alpha1.SchedulerSpec{API: perfv1alpha1.SchedulerJobs, DueTime: &metav1.Duration{Duration: time.Second}}))
		reminders := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "reminders", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioScheduler, Load: perfv1alpha1.LoadSpec{QPS: 50},
				Scheduler:  &perfv1alpha1.SchedulerSpec{API: perfv1alpha1.SchedulerActorReminders, DueTime: &metav1.Duration{Duration: time.Minute}},
				Thresholds: &perfv1alpha1.Thresholds{MaxTriggerLatenessP99: &metav1.Duration{Duration: time.Second}, MaxMissedTriggers: ptr.To[int64](0)}},
		}
		Expect(k8s.Create(ctx, reminders, client.DryRunAll)).To(Succeed(), "the longest due time, with the trigger gates")
		Expect(reminders.Spec.SchedulerSettings().Actors).To(Equal(int32(100)), "reminders spread over 100 actors unless told")
	})

	It("accepts bulk publish and bulk subscribe, and defaults a bulk subscription as Dapr does", func() {
		run := &perfv1alpha1.PerfRun{
			ObjectMeta: metav1.ObjectMeta{Name: "bulk-pubsub", Namespace: "default"},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioPubSub, Load: perfv1alpha1.LoadSpec{QPS: 100},
				PubSub: &perfv1alpha1.PubSubSpec{BulkPublish: 100, BulkSubscribe: &perfv1alpha1.BulkSubscribeSpec{}}},
		}
		Expect(k8s.Create(ctx, run, client.DryRunAll)).To(Succeed())
		Expect(*run.Spec.PubSub.BulkSubscribe).To(Equal(perfv1alpha1.BulkSubscribeSpec{MaxMessagesCount: 100, MaxAwaitDurationMs: 1000}),
			"the API server fills in Dapr's defaults")
		run.Spec.PubSub.BulkSubscribe = &perfv1alpha1.BulkSubscribeSpec{MaxAwaitDurationMs: 50}
		Expect(*run.Spec.PubSubSettings().BulkSubscribe).To(Equal(perfv1alpha1.BulkSubscribeSpec{MaxMessagesCount: 100, MaxAwaitDurationMs: 50}))
	})

	It("accepts every sample in config/samples (server-side dry-run)", func() {
		files, err := filepath.Glob(filepath.Join(testenv.RepoRoot(), "config", "samples", "perf_*.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(len(files)).To(BeNumerically(">=", 2))
		for _, f := range files {
			b, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			u := &unstructured.Unstructured{}
			Expect(yaml.Unmarshal(b, &u.Object)).To(Succeed(), f)
			u.SetNamespace("default")
			Expect(k8s.Create(ctx, u, client.DryRunAll)).To(Succeed(), f)
		}
	})
})
