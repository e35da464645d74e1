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
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The refusals of the shared-cluster review (issue #34). Each row is an object the API
// server must refuse, with a message naming the field, and its valid twin: the same object
// with that one field made sane, which must still be admitted. A rule that refuses too much
// fails here as surely as one that refuses too little.

// objEdit changes a whole object (metadata included), unlike the spec edits of the run table.
type objEdit func(obj map[string]any)

// at sets a dotted path of the object, e.g. "spec.load.qps".
func at(path string, value any) objEdit {
	return func(obj map[string]any) {
		Expect(unstructured.SetNestedField(obj, value, strings.Split(path, ".")...)).To(Succeed())
	}
}

// both applies edits in order.
func both(edits ...objEdit) objEdit {
	return func(obj map[string]any) {
		for _, e := range edits {
			e(obj)
		}
	}
}

// kind builds the minimal valid object of one kind; a row edits it.
type kind func() map[string]any

func minimalSpec() map[string]any {
	return map[string]any{"scenario": "ServiceInvocation", "load": map[string]any{"qps": int64(100)}}
}

func runKind() map[string]any {
	return map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfRun",
		"metadata": map[string]any{"name": "twin", "namespace": "default"}, "spec": minimalSpec()}
}

func scheduleKind() map[string]any {
	return map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfSchedule",
		"metadata": map[string]any{"name": "twin", "namespace": "default"},
		"spec":     map[string]any{"schedule": "0 3 * * *", "template": map[string]any{"spec": minimalSpec()}}}
}

func sweepKind() map[string]any {
	return map[string]any{"apiVersion": "perf.daprbench.io/v1alpha1", "kind": "PerfSweep",
		"metadata": map[string]any{"name": "twin", "namespace": "default"},
		"spec": map[string]any{"points": map[string]any{"connections": []any{int64(1), int64(2)}},
			"template": map[string]any{"spec": minimalSpec()}}}
}

// variantWith is a one-variant list whose variant carries these fields.
func variantWith(fields map[string]any) []any {
	v := map[string]any{"name": "a"}
	for k, f := range fields {
		v[k] = f
	}
	return []any{v}
}

// secondVariantThresholds is two variants, the second gated by these thresholds.
func secondVariantThresholds(thresholds map[string]any) []any {
	return []any{map[string]any{"name": "a"}, map[string]any{"name": "b", "thresholds": thresholds}}
}

// refusedWithTwin is a refusal table's row: the object k with bad applied is refused with
// every message of want, and with good applied instead it is admitted.
func refusedWithTwin(k kind, want []string, bad, good objEdit) {
	refused := &unstructured.Unstructured{Object: k()}
	bad(refused.Object)
	err := k8s.Create(ctx, refused, client.DryRunAll, client.FieldValidation("Strict"))
	Expect(err).To(HaveOccurred(), "the API server admitted it")
	GinkgoWriter.Println(err.Error())
	for _, w := range want {
		Expect(err.Error()).To(ContainSubstring(w))
	}
	admitted := &unstructured.Unstructured{Object: k()}
	good(admitted.Object)
	Expect(k8s.Create(ctx, admitted, client.DryRunAll, client.FieldValidation("Strict"))).To(Succeed(), "the valid twin was refused")
}

var _ = Describe("Admission refusals of the shared-cluster review", func() {
	DescribeTable("refuses the object with a message naming the field, and admits its valid twin",
		refusedWithTwin,
		// Finding 7: dapr.io/env sets daprd's environment, HTTPS_PROXY included.
		Entry("a variant setting daprd's environment", runKind, []string{"spec.variants[0]", "sets daprd's environment"},
			at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/env": "HTTPS_PROXY=http://evil:3128"}})),
			at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/app-max-concurrency": "10"}}))),
		// Finding 9: the schedule multiplies startingDeadlineSeconds into a time.Duration.
		Entry("a memory-growth gate without a sidecar to grow", runKind, []string{"spec", "maxSidecarMemoryGrowthPerHour/maxSidecarGoroutineGrowthPerHour need a sidecar"},
			both(at("spec.dapr.enabled", false), at("spec.thresholds.maxSidecarMemoryGrowthPerHour", "10Mi")),
			both(at("spec.dapr.enabled", true), at("spec.thresholds.maxSidecarMemoryGrowthPerHour", "10Mi"))),
		Entry("a goroutine-growth gate without a daprd to read", runKind, []string{"spec", "maxSidecarGoroutineGrowthPerHour need a sidecar"},
			both(at("spec.dapr.enabled", false), at("spec.thresholds.maxSidecarGoroutineGrowthPerHour", int64(60))),
			both(at("spec.dapr.enabled", true), at("spec.thresholds.maxSidecarGoroutineGrowthPerHour", int64(60)))),
		Entry("a negative goroutine-growth gate", runKind, []string{"spec.thresholds.maxSidecarGoroutineGrowthPerHour", "greater than or equal to 0"},
			at("spec.thresholds.maxSidecarGoroutineGrowthPerHour", int64(-1)), at("spec.thresholds.maxSidecarGoroutineGrowthPerHour", int64(0))),
		Entry("a negative memory-growth gate", runKind, []string{"spec.thresholds.maxSidecarMemoryGrowthPerHour", "must not be negative"},
			at("spec.thresholds.maxSidecarMemoryGrowthPerHour", "-1Mi"), at("spec.thresholds.maxSidecarMemoryGrowthPerHour", "0")),
		Entry("a latency-drift gate beyond an hour an hour", runKind, []string{"spec.thresholds.maxLatencyDriftPerHour", "between 0s and 1h"},
			at("spec.thresholds.maxLatencyDriftPerHour", "2h"), at("spec.thresholds.maxLatencyDriftPerHour", "2ms")),
		Entry("a starting deadline that overflows a Duration", scheduleKind, []string{"spec.startingDeadlineSeconds", "less than or equal to 31536000"},
			at("spec.startingDeadlineSeconds", int64(9300000000)), at("spec.startingDeadlineSeconds", int64(31536000))),
		Entry("a starting deadline beyond a year", scheduleKind, []string{"spec.startingDeadlineSeconds", "less than or equal to 31536000"},
			at("spec.startingDeadlineSeconds", int64(31536001)), at("spec.startingDeadlineSeconds", int64(86400))),

		// Finding 6: the operator's label prefix is reserved in templates.
		Entry("a schedule template forging the operator's sweep label", scheduleKind,
			[]string{"spec.template.metadata.labels", "must not use the perf.daprbench.io/ prefix"},
			at("spec.template.metadata.labels", map[string]any{"perf.daprbench.io/sweep": "other"}),
			at("spec.template.metadata.labels", map[string]any{"team": "perf"})),
		Entry("a sweep template forging the operator's template hash", sweepKind,
			[]string{"spec.template.metadata.annotations", "must not use the perf.daprbench.io/ prefix"},
			at("spec.template.metadata.annotations", map[string]any{"perf.daprbench.io/template-hash": "0"}),
			at("spec.template.metadata.annotations", map[string]any{"example.com/note": "nightly"})),

		// Finding 4: every free-form map and list is bounded.
		Entry("17 template labels", scheduleKind, []string{"spec.template.metadata.labels", "must have at most 16 items"},
			at("spec.template.metadata.labels", stringMap(17, 1)), at("spec.template.metadata.labels", stringMap(16, 63))),
		Entry("a template label value longer than a label's", sweepKind, []string{"spec.template.metadata.labels", "a value at most 63"},
			at("spec.template.metadata.labels", stringMap(1, 64)), at("spec.template.metadata.labels", stringMap(1, 63))),
		Entry("17 template annotations", sweepKind, []string{"spec.template.metadata.annotations", "must have at most 16 items"},
			at("spec.template.metadata.annotations", stringMap(17, 1)), at("spec.template.metadata.annotations", stringMap(16, 1024))),
		Entry("a template annotation above 1 KiB", scheduleKind, []string{"spec.template.metadata.annotations", "a value at most 1024"},
			at("spec.template.metadata.annotations", stringMap(1, 1025)), at("spec.template.metadata.annotations", stringMap(1, 1024))),
		Entry("a variant annotation value above 256 characters", runKind, []string{"spec.variants[0].annotations", "at most 256 characters"},
			at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/app-health-check-path": "/" + strings.Repeat("h", 256)}})),
			at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/app-health-check-path": "/" + strings.Repeat("h", 255)}}))),
		Entry("9 node selector labels", runKind, []string{"spec.target.nodeSelector", "must have at most 8 items"},
			at("spec.target.nodeSelector", stringMap(9, 1)), at("spec.target.nodeSelector", stringMap(8, 63))),
		Entry("a node selector key that is not a label key", runKind, []string{"spec.target.nodeSelector", "a key must be a label key"},
			at("spec.target.nodeSelector", map[string]any{"not a label key!": "x"}), at("spec.target.nodeSelector", map[string]any{"example.com/pool_a.b-c": "x"})),
		Entry("a node selector key whose prefix is longer than a DNS subdomain", runKind, []string{"spec.loadTester.nodeSelector", "a key must be a label key"},
			at("spec.loadTester.nodeSelector", map[string]any{strings.Repeat("a", 254) + "/k": "x"}), at("spec.loadTester.nodeSelector", map[string]any{strings.Repeat("a", 253) + "/k": "x"})),
		Entry("a node selector value longer than a label's", runKind, []string{"spec.loadTester.nodeSelector", "a value at most 63"},
			at("spec.loadTester.nodeSelector", stringMap(1, 64)), at("spec.loadTester.nodeSelector", stringMap(1, 63))),
		Entry("nine tolerations", runKind, []string{"spec.target.tolerations", "must have at most 8 items"},
			at("spec.target.tolerations", tolerations(9)), at("spec.target.tolerations", tolerations(8))),
		Entry("a toleration key longer than a taint's", runKind, []string{"spec.target.tolerations", "key must be at most 317 characters"},
			at("spec.target.tolerations", []any{map[string]any{"key": strings.Repeat("k", 318), "operator": "Exists"}}),
			at("spec.target.tolerations", []any{map[string]any{"key": "perf.example.com/dedicated", "operator": "Exists"}})),
		Entry("a toleration value longer than a taint's", runKind, []string{"spec.loadTester.tolerations", "value at most 63"},
			at("spec.loadTester.tolerations", []any{map[string]any{"key": "pool", "value": strings.Repeat("v", 64)}}),
			at("spec.loadTester.tolerations", []any{map[string]any{"key": "pool", "value": strings.Repeat("v", 63)}})),
		Entry("tolerationSeconds on a taint that does not evict", runKind, []string{"spec.target.tolerations", "tolerationSeconds needs effect NoExecute"},
			at("spec.target.tolerations", []any{map[string]any{"key": "pool", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": int64(60)}}),
			at("spec.target.tolerations", []any{map[string]any{"key": "pool", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(60)}})),
		Entry("a twin baseline with the baseline off", runKind, []string{"spec", "baselineTarget Twin names what the baseline calls"},
			both(at("spec.serviceInvocation.baselineTarget", "Twin"), at("spec.baseline", false)), both(at("spec.serviceInvocation.baselineTarget", "Twin"), at("spec.baseline", true))),
		Entry("a twin baseline on a run without Dapr", runKind, []string{"spec", "baselineTarget Twin names what the baseline calls"},
			both(at("spec.serviceInvocation.baselineTarget", "Twin"), at("spec.dapr.enabled", false)), at("spec.serviceInvocation.baselineTarget", "Twin")),
		Entry("four paths with a twin baseline", runKind, []string{"spec", "FourPaths needs serviceInvocation.baselineTarget SamePod"},
			both(at("spec.serviceInvocation.paths", "FourPaths"), at("spec.serviceInvocation.baselineTarget", "Twin")),
			both(at("spec.serviceInvocation.paths", "FourPaths"), at("spec.serviceInvocation.baselineTarget", "SamePod"))),
		Entry("a variant turning on the profiler spec.profiling owns", runKind, []string{"spec", "dapr.io/enable-profiling annotation conflicts with spec.profiling"},
			both(at("spec.profiling", map[string]any{}), at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/enable-profiling": "true"}}))),
			both(at("spec.profiling", map[string]any{}), at("spec.variants", variantWith(map[string]any{"annotations": map[string]any{"dapr.io/log-as-json": "true"}})))),
		Entry("variant thresholds with one repetition", runKind, []string{"spec.variants", "need load.repetitions of 2 or more"},
			both(at("spec.load.repetitions", int64(1)), at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownPercent": int64(10)}))),
			both(at("spec.load.repetitions", int64(2)), at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownPercent": int64(10)})))),
		Entry("variant thresholds that set no limit", runKind, []string{"spec.variants[1].thresholds", "set no limit"},
			at("spec.variants", secondVariantThresholds(map[string]any{})),
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP90": "200us"}))),
		Entry("a sweep setting Dapr's tracing on a template without Dapr", sweepKind, []string{"spec.points.settings", "no sidecar to apply them to"},
			both(at("spec.template.spec.dapr", map[string]any{"enabled": false}), at("spec.template.spec.baseline", false),
				at("spec.points.settings", []any{map[string]any{"name": "trace", "tracingSamplingRate": "1"}})),
			both(at("spec.template.spec.dapr", map[string]any{"enabled": false}), at("spec.template.spec.baseline", false),
				at("spec.points.settings", []any{map[string]any{"name": "http", "appProtocol": "HTTP"}}))),
		Entry("a sweep setting mTLS on a template without Dapr", sweepKind, []string{"spec.points.settings", "no sidecar to apply them to"},
			both(at("spec.template.spec.dapr", map[string]any{"enabled": false}), at("spec.template.spec.baseline", false),
				at("spec.points.settings", []any{map[string]any{"name": "mtls", "mtls": "Enabled"}})),
			both(at("spec.points.settings", []any{map[string]any{"name": "mtls", "mtls": "Enabled"}}))),
		Entry("a cron of four fields", scheduleKind, []string{"spec.schedule", "must be five cron fields"},
			at("spec.schedule", "0 3 * *"), at("spec.schedule", "0 3 * * 1-5")),
		Entry("a cron of six fields (seconds)", scheduleKind, []string{"spec.schedule", "must be five cron fields"},
			at("spec.schedule", "0 0 3 * * *"), at("spec.schedule", "@every 6h")),
		Entry("a descriptor cron does not know", scheduleKind, []string{"spec.schedule", "or a descriptor"},
			at("spec.schedule", "@nightly"), at("spec.schedule", "@midnight")),
		Entry("a history limit above what the judge reads", scheduleKind, []string{"spec.successfulRunsHistoryLimit", "less than or equal to 100"},
			at("spec.successfulRunsHistoryLimit", int64(101)), at("spec.successfulRunsHistoryLimit", int64(100))),
		Entry("a failed-run history above 100", scheduleKind, []string{"spec.failedRunsHistoryLimit", "less than or equal to 100"},
			at("spec.failedRunsHistoryLimit", int64(1000)), at("spec.failedRunsHistoryLimit", int64(100))),

		// Finding 10: resource names and quantities the run's pods could not carry.
		Entry("a resource claim", runKind, []string{"spec.target.resources", "resources.claims is not supported"},
			at("spec.target.resources", map[string]any{"claims": []any{map[string]any{"name": "gpu"}}}),
			at("spec.target.resources", map[string]any{"requests": map[string]any{"cpu": "1"}})),
		Entry("an extended resource", runKind, []string{"spec.loadTester.resources", "requests may only name cpu, memory and ephemeral-storage"},
			at("spec.loadTester.resources", map[string]any{"requests": map[string]any{"cpu": "1", "nvidia.com/gpu": "1"}}),
			at("spec.loadTester.resources", map[string]any{"requests": map[string]any{"cpu": "1", "ephemeral-storage": "1Gi"}})),
		Entry("a resource name with a typo", runKind, []string{"spec.target.resources", "limits may only name cpu, memory and ephemeral-storage"},
			at("spec.target.resources", map[string]any{"limits": map[string]any{"memroy": "1Gi"}}),
			at("spec.target.resources", map[string]any{"limits": map[string]any{"memory": "1Gi"}})),
		Entry("a negative limit", runKind, []string{"spec.target.resources", "limits: a quantity must be at most 32 characters and not negative"},
			at("spec.target.resources", map[string]any{"limits": map[string]any{"memory": "-1Gi"}}),
			at("spec.target.resources", map[string]any{"limits": map[string]any{"memory": "1Gi"}})),
		Entry("a sidecar quantity of a thousand digits", runKind, []string{"spec.dapr.sidecar.cpuLimit", "a quantity of at most 32 characters"},
			at("spec.dapr.sidecar", map[string]any{"cpuLimit": strings.Repeat("0", 1000) + "1"}),
			at("spec.dapr.sidecar", map[string]any{"cpuLimit": "1"})),
		Entry("a threshold quantity of a thousand digits", runKind, []string{"spec.thresholds.maxSidecarCPUPer1kQPS", "a quantity of at most 32 characters"},
			at("spec.thresholds", map[string]any{"maxSidecarCPUPer1kQPS": strings.Repeat("0", 1000) + "1"}),
			at("spec.thresholds", map[string]any{"maxSidecarCPUPer1kQPS": "100m"})),
		Entry("a quantity of a thousand digits", runKind, []string{"spec.target.resources", "requests: a quantity must be at most 32 characters"},
			at("spec.target.resources", map[string]any{"requests": map[string]any{"cpu": strings.Repeat("0", 1000) + "1"}}),
			at("spec.target.resources", map[string]any{"requests": map[string]any{"cpu": "100m"}})),

		// Finding 10 (and 4): affinity is a bounded subset of a pod's, operators from an enum.
		Entry("a node affinity operator Kubernetes does not know", runKind,
			[]string{"spec.target.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator", "Unsupported value"},
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "Matches", "values": []any{"perf"}})),
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "In", "values": []any{"perf"}}))),
		Entry("Gt with two values", runKind, []string{"matchExpressions[0]", "operator Gt or Lt takes exactly one integer value"},
			at("spec.loadTester.affinity", requiredNode(map[string]any{"key": "cores", "operator": "Gt", "values": []any{"4", "8"}})),
			at("spec.loadTester.affinity", requiredNode(map[string]any{"key": "cores", "operator": "Gt", "values": []any{"4"}}))),
		Entry("Lt with no number", runKind, []string{"matchExpressions[0]", "operator Gt or Lt takes exactly one integer value"},
			at("spec.loadTester.affinity", requiredNode(map[string]any{"key": "cores", "operator": "Lt", "values": []any{"many"}})),
			at("spec.loadTester.affinity", requiredNode(map[string]any{"key": "cores", "operator": "Lt", "values": []any{"64"}}))),
		Entry("In without values", runKind, []string{"matchExpressions[0]", "values must not be empty with operator In or NotIn"},
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "In"})),
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "In", "values": []any{"perf"}}))),
		Entry("Exists with values", runKind, []string{"matchExpressions[0]", "values must be empty with operator Exists or DoesNotExist"},
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "Exists", "values": []any{"perf"}})),
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "Exists"}))),
		Entry("a pod selector operator only nodes have", runKind, []string{"spec.target.affinity.podAntiAffinity", "matchExpressions[0].operator", "Unsupported value"},
			at("spec.target.affinity", podAnti(map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "Gt", "values": []any{"1"}}}})),
			at("spec.target.affinity", podAnti(map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "In", "values": []any{"db"}}}}))),
		Entry("pod anti-affinity aimed at another namespace's pods", runKind, []string{"namespaceSelector", "unknown field"},
			at("spec.target.affinity", podAnti(map[string]any{"matchLabels": map[string]any{"app": "db"}}, "namespaceSelector", map[string]any{})),
			at("spec.target.affinity", podAnti(map[string]any{"matchLabels": map[string]any{"app": "db"}}))),
		Entry("three node selector terms", runKind, []string{"spec.target.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", "must have at most 2 items"},
			at("spec.target.affinity", nodeTerms(3)), at("spec.target.affinity", nodeTerms(2))),
		Entry("nine values in one expression", runKind, []string{"matchExpressions[0].values", "must have at most 8 items"},
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "In", "values": values(9)})),
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "In", "values": values(8)}))),
		Entry("a node label value longer than a label's", runKind, []string{"matchExpressions[0].values[0]", "may not be more than 63"},
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "In", "values": []any{strings.Repeat("v", 64)}})),
			at("spec.target.affinity", requiredNode(map[string]any{"key": "pool", "operator": "In", "values": []any{strings.Repeat("v", 63)}}))),
		Entry("a preference weight above 100", runKind, []string{"preferredDuringSchedulingIgnoredDuringExecution[0].weight", "less than or equal to 100"},
			at("spec.target.affinity", map[string]any{"nodeAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{
				map[string]any{"weight": int64(1000), "preference": map[string]any{}}}}}),
			at("spec.target.affinity", map[string]any{"nodeAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{
				map[string]any{"weight": int64(100), "preference": map[string]any{}}}}})),

		// Finding 10: child names Dapr derives, image references, cron text, bandwidth.
		Entry("a run name too long for a variant's Dapr Service", runKind, []string{"metadata.name and a variant's name (after the first) must be at most 50 characters"},
			both(at("metadata.name", strings.Repeat("r", 39)), at("spec.variants", []any{map[string]any{"name": "a"}, map[string]any{"name": "twelve-chars"}})),
			both(at("metadata.name", strings.Repeat("r", 38)), at("spec.variants", []any{map[string]any{"name": "a"}, map[string]any{"name": "twelve-chars"}}))),
		Entry("a long name on the first variant, whose target keeps the run's own name", runKind, []string{"metadata.name and a variant's name"},
			both(at("metadata.name", strings.Repeat("r", 40)), at("spec.variants", []any{map[string]any{"name": "twelve-chars"}, map[string]any{"name": "b"}, map[string]any{"name": "long-variant"}})),
			both(at("metadata.name", strings.Repeat("r", 40)), at("spec.variants", []any{map[string]any{"name": "twelve-chars"}, map[string]any{"name": "b"}}))),
		// Issue #36: a later variant's thresholds gate its difference from the first.
		Entry("thresholds on the first variant, the reference", runKind, []string{"spec.variants", "variants[0].thresholds: the first variant is the reference"},
			at("spec.variants", []any{map[string]any{"name": "a", "thresholds": map[string]any{"maxSlowdownP90": "200us"}}, map[string]any{"name": "b"}}),
			at("spec.variants", []any{map[string]any{"name": "a"}, map[string]any{"name": "b", "thresholds": map[string]any{"maxSlowdownP90": "200us"}}})),
		Entry("a variant's slowdown limit of zero", runKind, []string{"spec.variants[1].thresholds.maxSlowdownP90", "must be above 0s and at most 1h"},
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP90": "0s"})),
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP90": "1ns"}))),
		Entry("a variant's slowdown limit beyond an hour", runKind, []string{"spec.variants[1].thresholds.maxSlowdownP50", "must be above 0s and at most 1h"},
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP50": "1h0m1s"})),
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP50": "1h"}))),
		Entry("a variant's slowdown limit that is not a duration", runKind, []string{"spec.variants[1].thresholds.maxSlowdownP99", "should match"},
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP99": "-5ms"})),
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP99": "5ms"}))),
		Entry("a variant's slowdown limit of 33 characters", runKind, []string{"spec.variants[1].thresholds.maxSlowdownP99", "may not be more than 32"},
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP99": strings.Repeat("0", 30) + "1ms"})),
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownP99": strings.Repeat("0", 29) + "1ms"}))),
		Entry("a variant's slowdown percent of zero", runKind, []string{"spec.variants[1].thresholds.maxSlowdownPercent", "greater than or equal to 1"},
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownPercent": int64(0)})),
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownPercent": int64(1)}))),
		Entry("a variant's slowdown percent above 1000", runKind, []string{"spec.variants[1].thresholds.maxSlowdownPercent", "less than or equal to 1000"},
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownPercent": int64(1001)})),
			at("spec.variants", secondVariantThresholds(map[string]any{"maxSlowdownPercent": int64(1000)}))),
		Entry("an image carrying terminal escapes", runKind, []string{"spec.target.image", "should match"},
			at("spec.target.image", "ghcr.io/dapr/daprd:1.16.0\x1b[2J\a"), at("spec.target.image", "ghcr.io/dapr/daprd:1.16.0")),
		Entry("an image carrying markup", runKind, []string{"spec.loadTester.image", "should match"},
			at("spec.loadTester.image", "<h3>✅passed</h3>"), at("spec.loadTester.image", "registry.local:5000/perf/daprbench@sha256:"+strings.Repeat("a", 64))),
		Entry("a sidecar image carrying a control byte", runKind, []string{"spec.variants[0].sidecarImage", "should match"},
			at("spec.variants", variantWith(map[string]any{"sidecarImage": "ghcr.io/dapr/daprd:1.16.0\x07"})),
			at("spec.variants", variantWith(map[string]any{"sidecarImage": "ghcr.io/dapr/daprd:1.15.2"}))),
		Entry("cron text with characters cron never uses", scheduleKind, []string{"spec.schedule", "should match"},
			at("spec.schedule", "0 3 * * * <script>"), at("spec.schedule", "@every 1h30m")),
		Entry("cron text on two lines", scheduleKind, []string{"spec.schedule", "should match"},
			at("spec.schedule", "0 3 * * *\n0 4 * * *"), at("spec.schedule", "0 3,4 * JAN-MAR MON-FRI")),
		Entry("a bandwidth no node carries", runKind, []string{"spec.load", "qps × payloadBytes must be at most 12.5e9 bytes/s"},
			both(at("spec.load.qps", int64(100000)), at("spec.load.payloadBytes", int64(4194304))),
			both(at("spec.load.qps", int64(2980)), at("spec.load.payloadBytes", int64(4194304)))),

		// Finding 10: sweeps no point of which can run, objectives the template cannot measure.
		Entry("a grid whose every point has more connections than requests", sweepKind, []string{"spec.points", "no point of the grid can run"},
			both(at("spec.template.spec.load.qps", int64(1)), at("spec.template.spec.load.duration", "5s"), at("spec.template.spec.load.connections", int64(5)), at("spec.points", map[string]any{"connections": []any{int64(500), int64(600)}})),
			both(at("spec.template.spec.load.qps", int64(1)), at("spec.template.spec.load.duration", "5s"), at("spec.template.spec.load.connections", int64(5)), at("spec.points", map[string]any{"connections": []any{int64(5), int64(600)}}))),
		Entry("a grid whose every point has fewer connections than load-tester pods", sweepKind, []string{"spec.points", "no point of the grid can run"},
			both(at("spec.template.spec.loadTester", map[string]any{"replicas": int64(4)}), at("spec.points", map[string]any{"connections": []any{int64(1), int64(2), int64(3)}})),
			both(at("spec.template.spec.loadTester", map[string]any{"replicas": int64(4)}), at("spec.points", map[string]any{"connections": []any{int64(1), int64(2), int64(4)}}))),
		Entry("a grid whose every point exceeds any network", sweepKind, []string{"spec.points", "no point of the grid can run"},
			both(at("spec.template.spec.load.qps", int64(100000)), at("spec.points", map[string]any{"payloadBytes": []any{int64(4194304)}})),
			both(at("spec.template.spec.load.qps", int64(100000)), at("spec.points", map[string]any{"payloadBytes": []any{int64(4194304), int64(1024)}}))),
		Entry("a grid sweeping qps up to a bandwidth of the template's body no network carries", sweepKind, []string{"spec.points", "no point of the grid can run"},
			both(at("spec.template.spec.load.payloadBytes", int64(4194304)), at("spec.points", map[string]any{"qps": []any{int64(50000), int64(100000)}})),
			both(at("spec.template.spec.load.payloadBytes", int64(4194304)), at("spec.points", map[string]any{"qps": []any{int64(1000), int64(100000)}}))),
		Entry("an added-latency objective for a template without a baseline", sweepKind, []string{"spec.search.objective", "need added latency, which the template does not measure"},
			both(at("spec.template.spec.baseline", false), searchWith(map[string]any{"maxAddedP90": "2ms"})),
			both(at("spec.template.spec.baseline", true), searchWith(map[string]any{"maxAddedP90": "2ms"}))),
		Entry("an added-latency objective for an actor template", sweepKind, []string{"spec.search.objective", "need added latency"},
			both(at("spec.template.spec.scenario", "ActorActivation"), searchWith(map[string]any{"maxAddedP99": "5ms"})),
			both(at("spec.template.spec.scenario", "ActorActivation"), searchWith(map[string]any{"maxP99": "5ms"}))),
		Entry("a completion objective for an invocation template", sweepKind, []string{"spec.search.objective", "need a Workflow template"},
			both(searchWith(map[string]any{"maxCompletionP99": "1s"})),
			both(at("spec.template.spec.scenario", "Workflow"), at("spec.template.spec.baseline", nil), searchWith(map[string]any{"maxCompletionP99": "1s"}))),
		Entry("a trigger objective for a workflow template", sweepKind, []string{"spec.search.objective", "need a Scheduler template"},
			both(at("spec.template.spec.scenario", "Workflow"), at("spec.template.spec.baseline", nil), searchWith(map[string]any{"maxMissedTriggers": int64(0)})),
			both(at("spec.template.spec.scenario", "Scheduler"), at("spec.template.spec.baseline", nil), searchWith(map[string]any{"maxMissedTriggers": int64(0)}))),
		Entry("a workflow setting for an invocation template", sweepKind, []string{"spec.points.settings", "workflowPattern and activities are a point's workflow, for a Workflow template"},
			at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "fanout", "workflowPattern": "FanOut", "activities": int64(10)}}}),
			both(at("spec.template.spec.scenario", "Workflow"), at("spec.template.spec.baseline", nil),
				at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "fanout", "workflowPattern": "FanOut", "activities": int64(10)}}}))),
		Entry("an actor host setting for a workflow template", sweepKind, []string{"spec.points.settings", "actorHost is a point's actor runtime, for an ActorActivation template"},
			both(at("spec.template.spec.scenario", "Workflow"), at("spec.template.spec.baseline", nil),
				at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "gosdk", "actorHost": "GoSDK"}}})),
			both(at("spec.template.spec.scenario", "ActorActivation"), at("spec.template.spec.baseline", nil),
				at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "gosdk", "actorHost": "GoSDK"}}}))),
		Entry("a sidecar objective for a template without Dapr", sweepKind, []string{"spec.search.objective", "need a sidecar"},
			both(at("spec.template.spec.dapr", map[string]any{"enabled": false}), at("spec.template.spec.baseline", false), searchWith(map[string]any{"maxSidecarCPUPer1kQPS": "100m"})),
			both(at("spec.template.spec.dapr", map[string]any{"enabled": false}), at("spec.template.spec.baseline", false), searchWith(map[string]any{"maxP90": "10ms"}))),
		// Issue #48 item 3: a run measures a team's own Configuration, by name, in its namespace.
		Entry("a named Configuration in another namespace", runKind, []string{"spec.dapr.configuration", "should match"},
			at("spec.dapr.configuration", "dapr-system/daprsystem"), at("spec.dapr.configuration", "appconfig")),
		Entry("a named Configuration beside a sampling rate the run would write", runKind,
			[]string{"spec.dapr", "the named Configuration's own spec.tracing.samplingRate is measured"},
			both(at("spec.dapr.configuration", "appconfig"), at("spec.dapr.tracingSamplingRate", "1")),
			both(at("spec.dapr.configuration", "appconfig"), at("spec.dapr.tracingSamplingRate", "0.1"))),
		Entry("a variant's sampling rate beside the run's named Configuration", runKind,
			[]string{"spec", "a variant's tracingSamplingRate would put it on a Configuration holding only that rate"},
			both(at("spec.dapr.configuration", "appconfig"), at("spec.variants", variantWith(map[string]any{"tracingSamplingRate": "1"}))),
			both(at("spec.dapr.configuration", "appconfig"), at("spec.variants", variantWith(map[string]any{"configuration": "appconfig-traced"})))),
		Entry("a variant naming a Configuration and a sampling rate", runKind, []string{"spec.variants[0]", "names a Configuration or sets a tracingSamplingRate, not both"},
			at("spec.variants", variantWith(map[string]any{"configuration": "with-middleware", "tracingSamplingRate": "1"})),
			at("spec.variants", variantWith(map[string]any{"configuration": "with-middleware"}))),
		// The Configuration scenario (#61's seventh): its baseline writes the items, its payload is each item.
		Entry("a Configuration run without its baseline", runKind, []string{"spec", "baseline cannot be false for Configuration"},
			both(at("spec.scenario", "Configuration"), at("spec.baseline", false)),
			both(at("spec.scenario", "Configuration"), at("spec.baseline", true))),
		Entry("a Configuration run's items over 64 KiB", runKind, []string{"spec", "a Configuration run's payload must be at most 64 KiB"},
			both(at("spec.scenario", "Configuration"), at("spec.load.payloadBytes", int64(65537))),
			both(at("spec.scenario", "Configuration"), at("spec.load.payloadBytes", int64(65536)))),
		Entry("a Configuration run's items with no value", runKind, []string{"spec", "a Configuration run's items need a value"},
			both(at("spec.scenario", "Configuration"), at("spec.load.payloadBytes", int64(0))),
			both(at("spec.scenario", "Configuration"), at("spec.load.payloadBytes", int64(1)))),
		Entry("configuration settings on another scenario's run", runKind, []string{"spec", "configuration may only be set when scenario is Configuration"},
			both(at("spec.scenario", "State"), at("spec.configuration", map[string]any{"keys": int64(10)})),
			both(at("spec.scenario", "Configuration"), at("spec.configuration", map[string]any{"keys": int64(10)}))),
		// Issue #62 item 3: what a Scheduler run holds in the shared scheduler at once.
		Entry("a Scheduler run holding 393 GB in the shared scheduler", runKind, []string{"spec", "at most 256 MiB at once"},
			both(at("spec.scenario", "Scheduler"), at("spec.scheduler", map[string]any{"dueTime": "1m"}), at("spec.load.payloadBytes", int64(65536)),
				at("spec.load.qps", int64(100000))),
			both(at("spec.scenario", "Scheduler"), at("spec.scheduler", map[string]any{"dueTime": "1s"}), at("spec.load.payloadBytes", int64(65536)),
				at("spec.load.qps", int64(4000)))),
		// Issue #62 item 12: what can never run, refused when it is applied.
		Entry("a named Configuration on a run without Dapr", runKind, []string{"spec.dapr", "enabled: false runs no sidecar"},
			both(at("spec.dapr", map[string]any{"enabled": false, "configuration": "appconfig"}), at("spec.baseline", false)),
			both(at("spec.dapr", map[string]any{"enabled": true, "configuration": "appconfig"}), at("spec.baseline", false))),
		Entry("a gRPC app setting for a template without Dapr", sweepKind, []string{"spec.points.settings", "appProtocol GRPC needs a ServiceInvocation template through Dapr"},
			both(at("spec.template.spec.dapr", map[string]any{"enabled": false}), grpcAppSetting),
			grpcAppSetting),
		Entry("a rate search starting below its load-tester pods", sweepKind, []string{"spec.search.startQPS", "at least template.spec.loadTester.replicas"},
			both(at("spec.template.spec.loadTester", map[string]any{"replicas": int64(4)}), at("spec.template.spec.load.connections", int64(16)),
				searchWith(map[string]any{"maxP90": "10ms"}), at("spec.search.startQPS", int64(2))),
			both(at("spec.template.spec.loadTester", map[string]any{"replicas": int64(4)}), at("spec.template.spec.load.connections", int64(16)),
				searchWith(map[string]any{"maxP90": "10ms"}), at("spec.search.startQPS", int64(4)))),
		Entry("a store setting beside a placement relative to the deployed store", sweepKind, []string{"spec.points.settings", "leave template.spec.placement Any"},
			both(at("spec.template.spec.scenario", "State"), at("spec.template.spec.placement", "SameNode"), storeSetting("orders")),
			both(at("spec.template.spec.scenario", "State"), storeSetting("orders"))),
		Entry("a store setting beside an added-latency threshold without a baseline", sweepKind, []string{"spec.points.settings", "could never be judged"},
			both(at("spec.template.spec.scenario", "State"), at("spec.template.spec.thresholds", map[string]any{"maxAddedP90": "2ms"}), storeSetting("orders")),
			both(at("spec.template.spec.scenario", "State"), at("spec.template.spec.thresholds", map[string]any{"maxAddedP90": "2ms"}), at("spec.template.spec.baseline", true), storeSetting("orders"))),
		Entry("a bulk size over 3 MiB at every payload of the grid", sweepKind, []string{"spec.points.settings", "bulkSize × the payload must be at most 3 MiB"},
			both(at("spec.template.spec.scenario", "PubSub"), at("spec.points", map[string]any{"payloadBytes": []any{int64(65536)},
				"settings": []any{map[string]any{"name": "bulk", "bulkSize": int64(100)}}})),
			both(at("spec.template.spec.scenario", "PubSub"), at("spec.points", map[string]any{"payloadBytes": []any{int64(65536), int64(1024)},
				"settings": []any{map[string]any{"name": "bulk", "bulkSize": int64(100)}}}))),
		Entry("a sampling-rate setting beside the template's named Configuration", sweepKind, []string{"spec.points.settings", "runs on that one instead"},
			both(at("spec.template.spec.dapr", map[string]any{"configuration": "appconfig"}),
				at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "traced", "tracingSamplingRate": "1"}}})),
			at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "traced", "tracingSamplingRate": "1"}}})),
		Entry("every payload point over a PubSub template's cap", sweepKind, []string{"spec.points.payloadBytes", "a PubSub template's runs take a payload of at most 64 KiB"},
			both(at("spec.template.spec.scenario", "PubSub"), at("spec.points", map[string]any{"payloadBytes": []any{int64(70000), int64(80000)}})),
			both(at("spec.template.spec.scenario", "PubSub"), at("spec.points", map[string]any{"payloadBytes": []any{int64(70000), int64(1024)}}))),
		Entry("a time zone the API server does not know", scheduleKind, []string{"spec.timeZone", "must name an IANA time zone"},
			at("spec.timeZone", "Mars/Olympus_Mons"), at("spec.timeZone", "Europe/Berlin")),
	)
})

// storeSetting is a sweep's one setting naming a store Component.
func storeSetting(component string) objEdit {
	return at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "own", "component": component}}})
}

// grpcAppSetting is a sweep whose one point calls the app over gRPC.
var grpcAppSetting = at("spec.points", map[string]any{"settings": []any{map[string]any{"name": "grpc", "appProtocol": "GRPC"}}})

// searchWith turns a sweep into a rate search with this objective.
func searchWith(objective map[string]any) objEdit {
	return func(obj map[string]any) {
		unstructured.RemoveNestedField(obj, "spec", "points")
		at("spec.search", map[string]any{"startQPS": int64(100), "objective": objective})(obj)
	}
}

// requiredNode is an affinity requiring nodes that match this one expression.
func requiredNode(expr map[string]any) map[string]any {
	return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
		"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{expr}}}}}}
}

// nodeTerms is an affinity requiring nodes that match one of n terms.
func nodeTerms(n int) map[string]any {
	var terms []any
	for i := range n {
		terms = append(terms, map[string]any{"matchExpressions": []any{map[string]any{"key": fmt.Sprintf("k%d", i), "operator": "Exists"}}})
	}
	return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": terms}}}
}

// podAnti is an affinity keeping the pods off nodes of pods this selector matches, with
// extra fields of the term as key, value pairs.
func podAnti(selector map[string]any, extra ...any) map[string]any {
	term := map[string]any{"topologyKey": "kubernetes.io/hostname", "labelSelector": selector}
	for i := 0; i+1 < len(extra); i += 2 {
		term[extra[i].(string)] = extra[i+1]
	}
	return map[string]any{"podAntiAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": []any{term}}}
}

// tolerations is n tolerations of distinct taints.
func tolerations(n int) []any {
	var out []any
	for i := range n {
		out = append(out, map[string]any{"key": fmt.Sprintf("example.com/taint-%d", i), "operator": "Exists"})
	}
	return out
}

// values is n distinct label values.
func values(n int) []any {
	var out []any
	for i := range n {
		out = append(out, fmt.Sprintf("v%d", i))
	}
	return out
}

// stringMap is n distinct keys (example.com/k0, …) each with a value of valueLen characters.
func stringMap(n, valueLen int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m[fmt.Sprintf("example.com/k%d", i)] = strings.Repeat("v", valueLen)
	}
	return m
}
