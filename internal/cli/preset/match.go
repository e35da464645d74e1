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

package preset

import (
	"cmp"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// Mismatch names the first setting in which a run's spec differs from its preset's,
// "" when they measure the same thing. The annotation that names the preset is anyone's to
// write: Dapr's published figures are shown beside a run only when the run measured their
// setting. Duration, warm-up and repetitions only change how precisely it is measured.
func Mismatch(run, preset *perfv1alpha1.PerfRunSpec) string {
	bytesOf := func(s *perfv1alpha1.PerfRunSpec) string {
		n, literal := s.Body()
		if literal != nil {
			return "the body " + strconv.Quote(*literal)
		}
		return strconv.Itoa(n)
	}
	// A spec read back from the API server carries the CRD's defaults; a preset's file does
	// not: an unset field reads as its default on both sides.
	quantity := func(q *resource.Quantity, unset string) string {
		if q == nil {
			return unset
		}
		return q.String()
	}
	settings := []struct {
		name     string
		run, set string
	}{
		{"scenario", string(run.Scenario), string(preset.Scenario)},
		{"load.qps", strconv.Itoa(int(run.Load.QPS)), strconv.Itoa(int(preset.Load.QPS))},
		{"load.connections", strconv.Itoa(int(run.Load.EffectiveConnections())), strconv.Itoa(int(preset.Load.EffectiveConnections()))},
		{"load.payloadBytes", bytesOf(run), bytesOf(preset)},
		{"load.arrival", string(run.Load.EffectiveArrival()), string(preset.Load.EffectiveArrival())},
		{"dapr.enabled", strconv.FormatBool(run.DaprEnabled()), strconv.FormatBool(preset.DaprEnabled())},
		{"dapr.mtls", cmp.Or(string(run.Dapr.MTLS), "Enabled"), cmp.Or(string(preset.Dapr.MTLS), "Enabled")},
		{"dapr.tracingSamplingRate", cmp.Or(run.Dapr.TracingSamplingRate, "0.1"), cmp.Or(preset.Dapr.TracingSamplingRate, "0.1")},
		{"dapr.sidecar.cpuLimit", quantity(run.Dapr.Sidecar.CPULimit, "500m"), quantity(preset.Dapr.Sidecar.CPULimit, "500m")},
		{"protocol.caller", string(run.CallerProtocol()), string(preset.CallerProtocol())},
		{"protocol.app", string(run.AppProtocolOf(perfv1alpha1.SidecarVariant{})), string(preset.AppProtocolOf(perfv1alpha1.SidecarVariant{}))},
		{"baseline", strconv.FormatBool(run.BaselineEnabled()), strconv.FormatBool(preset.BaselineEnabled())},
		{"serviceInvocation.baselineTarget", string(run.InvocationSettings().BaselineTarget), string(preset.InvocationSettings().BaselineTarget)},
		{"serviceInvocation.paths", string(run.InvocationSettings().Paths), string(preset.InvocationSettings().Paths)},
		{"variants", strconv.Itoa(len(run.Variants)), strconv.Itoa(len(preset.Variants))},
		// The host before the method: a GoSDK run's default method is Activate, a Minimal one's
		// activate, and the host is what differs (its SDK's share of the latency is in the one).
		{"actors.host", string(run.ActorSettings().Host), string(preset.ActorSettings().Host)},
		{"actors.method", run.ActorSettings().Method, preset.ActorSettings().Method},
		{"state.operation", string(run.StateSettings().Operation), string(preset.StateSettings().Operation)},
		{"state.bulkSize", strconv.Itoa(int(run.StateSettings().BulkSize)), strconv.Itoa(int(preset.StateSettings().BulkSize))},
		{"pubsub.rawPayload", strconv.FormatBool(run.PubSubSettings().RawPayload), strconv.FormatBool(preset.PubSubSettings().RawPayload)},
		{"pubsub.bulkPublish", strconv.Itoa(int(run.PubSubSettings().BulkPublish)), strconv.Itoa(int(preset.PubSubSettings().BulkPublish))},
		{"pubsub.bulkSubscribe", bulkSubscribeOf(run), bulkSubscribeOf(preset)},
		{"workflow.pattern", string(run.WorkflowSettings().Pattern), string(preset.WorkflowSettings().Pattern)},
		{"workflow.activities", strconv.Itoa(int(run.WorkflowSettings().Activities)), strconv.Itoa(int(preset.WorkflowSettings().Activities))},
		{"workflow.activityDelay", activityDelayOf(run), activityDelayOf(preset)},
	}
	for _, s := range settings {
		if s.run != s.set {
			return fmt.Sprintf("%s is %s, the preset's %s", s.name, s.run, s.set)
		}
	}
	return ""
}

// bulkSubscribeOf is a run's bulk subscription in a word: "off", or its batch and wait.
func bulkSubscribeOf(spec *perfv1alpha1.PerfRunSpec) string {
	b := spec.PubSubSettings().BulkSubscribe
	if b == nil {
		return "off"
	}
	return fmt.Sprintf("%d messages, %d ms", b.MaxMessagesCount, b.MaxAwaitDurationMs)
}

// activityDelayOf is a Workflow run's activity delay, 0s when unset (its default).
func activityDelayOf(spec *perfv1alpha1.PerfRunSpec) string {
	if d := spec.WorkflowSettings().ActivityDelay; d != nil {
		return d.Duration.String()
	}
	return "0s"
}
