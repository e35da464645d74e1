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

import . "github.com/onsi/ginkgo/v2"

// errorsFault is a TargetErrors fault at at for lasting, failing 20%.
func errorsFault(at, lasting string) map[string]any {
	return map[string]any{"kind": "TargetErrors", "at": at, "duration": lasting, "errorPercent": int64(20)}
}

// faults is spec.faults of these faults, on a run of 2 repetitions (a fault run's even count).
func faults(fs ...map[string]any) objEdit {
	list := make([]any, len(fs))
	for i, f := range fs {
		list[i] = f
	}
	return both(at("spec.load.repetitions", int64(2)), at("spec.faults", list))
}

// with is f with a field changed.
func with(f map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for key, val := range f {
		out[key] = val
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

// killFault is a PodKill of the target at 10s, waiting up to 5s for its replacement.
func killFault() map[string]any {
	return map[string]any{"kind": "PodKill", "role": "Target", "at": "10s", "duration": "5s"}
}

// testerKill is a PodKill of the last of replicas load-tester pods at 10s (the baseline
// kept: the kill does not touch it).
func testerKill(replicas int64) objEdit {
	return both(faults(with(killFault(), "role", "LoadTester")), at("spec.loadTester.replicas", replicas))
}

// kills is spec.faults of f on a run without a baseline, as a PodKill needs.
func kills(f map[string]any) objEdit { return both(faults(f), at("spec.baseline", false)) }

// brokerKill is a PubSub run on the broker it deploys, without a baseline, that kills its
// broker at 10s.
func brokerKill() objEdit {
	return both(at("spec.scenario", "PubSub"), kills(with(killFault(), "role", "Store")))
}

// storeKillTemplate is a sweep's template of a PubSub run on the broker it deploys that kills it.
func storeKillTemplate() objEdit {
	return both(at("spec.template.spec.scenario", "PubSub"), at("spec.template.spec.baseline", false), at("spec.template.spec.load.repetitions", int64(2)),
		at("spec.template.spec.faults", []any{with(killFault(), "role", "Store")}))
}

// schedulerOutage is a Workflow run, its baseline on, that deletes every pod of Dapr's
// scheduler at 10s.
func schedulerOutage() objEdit {
	return both(at("spec.scenario", "Workflow"), faults(with(killFault(), "role", "Scheduler")))
}

// faultSettings is a sweep whose template (2 repetitions of 60 s, no baseline) holds
// template's fault (none for nil), and one setting that replaces it with point's.
func faultSettings(template, point map[string]any) objEdit {
	edits := []objEdit{at("spec.template.spec.load.repetitions", int64(2)), at("spec.template.spec.baseline", false),
		at("spec.points.settings", []any{map[string]any{"name": "point", "faults": []any{point}}})}
	if template != nil {
		edits = append(edits, at("spec.template.spec.faults", []any{template}))
	}
	return both(edits...)
}

var _ = Describe("Admission of spec.faults", func() {
	tenSeconds := errorsFault("10s", "5s")
	DescribeTable("refuses the fault with a message naming what is wrong, and admits its valid twin",
		refusedWithTwin,
		Entry("an odd repetition count", runKind, []string{"spec.faults", "need an even load.repetitions"},
			both(faults(tenSeconds), at("spec.load.repetitions", int64(3))), both(faults(tenSeconds), at("spec.load.repetitions", int64(4)))),
		Entry("one repetition of a minute, measured in two halves", runKind, []string{"spec.faults", "or one repetition with load.duration under 60s"},
			both(faults(tenSeconds), at("spec.load.repetitions", int64(1)), at("spec.load.duration", "60s")),
			both(faults(tenSeconds), at("spec.load.repetitions", int64(1)), at("spec.load.duration", "59s"))),
		Entry("one repetition of the default minute", runKind, []string{"spec.faults", "or one repetition with load.duration under 60s"},
			both(faults(tenSeconds), at("spec.load.repetitions", int64(1))), both(faults(tenSeconds), at("spec.load.repetitions", int64(1)), at("spec.load.duration", "30s"))),
		Entry("the default repetitions (3)", sweepKind, []string{"spec.template.spec.faults", "need an even load.repetitions"},
			at("spec.template.spec.faults", []any{tenSeconds}),
			both(at("spec.template.spec.faults", []any{tenSeconds}), at("spec.template.spec.load.repetitions", int64(2)))),
		Entry("a fault leaving no seconds to recover in", runKind, []string{"spec.faults", "must end 3s or more before load.duration"},
			both(faults(errorsFault("10s", "8s")), at("spec.load.duration", "20s")), both(faults(errorsFault("10s", "7s")), at("spec.load.duration", "20s"))),
		Entry("a fault too late in the default 60s phase", runKind, []string{"spec.faults", "must end 3s or more before load.duration"},
			faults(errorsFault("50s", "8s")), faults(errorsFault("50s", "7s"))),
		Entry("a fault run's phase too long to report every second of", runKind, []string{"spec.faults", "load.duration of at most 10m"},
			both(faults(tenSeconds), at("spec.load.duration", "11m")), both(faults(tenSeconds), at("spec.load.duration", "10m"))),
		Entry("a load split over pods", runKind, []string{"spec.faults", "loadTester.replicas 1"},
			both(faults(tenSeconds), at("spec.loadTester.replicas", int64(2))), both(faults(tenSeconds), at("spec.loadTester.replicas", int64(1)))),
		Entry("a LoadTester kill of the one load tester, which measures alone", runKind, []string{"spec.faults", "a PodKill of a LoadTester", "loadTester.replicas 2 or more"},
			testerKill(1), testerKill(2)),
		Entry("a LoadTester kill of a run without Dapr, which has no Dapr phase to kill in", runKind, []string{"spec.faults", "a PodKill of a LoadTester", "dapr.enabled"},
			both(testerKill(2), at("spec.dapr.enabled", false)), both(testerKill(2), at("spec.dapr.enabled", true))),
		Entry("a LoadTester kill of a State run, whose replacement would write its keys again mid-phase", runKind, []string{"spec.faults", "a PodKill of a LoadTester", "ServiceInvocation"},
			both(testerKill(2), at("spec.scenario", "State")), both(testerKill(2), at("spec.scenario", "ServiceInvocation"))),
		Entry("a target fault on a gRPC app, which the load tester cannot order faults from; a LoadTester kill orders none from it", runKind, []string{"spec", "faults are ordered from the target app"},
			both(faults(tenSeconds), at("spec.protocol.app", "GRPC")), both(testerKill(2), at("spec.protocol.app", "GRPC"))),
		Entry("a fault too early to judge a recovery by", runKind, []string{"spec.faults[0].at", "between 5s and 24h"},
			faults(errorsFault("2s", "5s")), faults(errorsFault("5s", "5s"))),
		Entry("TargetErrors without its share", runKind, []string{"spec.faults[0]", "a TargetErrors fault sets errorPercent, and no delay"},
			faults(with(with(tenSeconds, "errorPercent", nil), "delay", "10ms")), faults(tenSeconds)),
		Entry("TargetDelay with a share", runKind, []string{"spec.faults[0]", "a TargetDelay fault sets delay, and no errorPercent"},
			faults(with(tenSeconds, "kind", "TargetDelay")), faults(with(with(with(tenSeconds, "kind", "TargetDelay"), "errorPercent", nil), "delay", "10ms"))),
		Entry("a PodKill without its role", runKind, []string{"spec.faults[0]", "a PodKill fault names the role whose pod it deletes, and only a PodKill does"},
			kills(with(killFault(), "role", nil)), kills(killFault())),
		Entry("a role on a fault that kills nothing", runKind, []string{"spec.faults[0]", "a PodKill fault names the role whose pod it deletes, and only a PodKill does"},
			faults(with(tenSeconds, "role", "Target")), faults(tenSeconds)),
		Entry("a PodKill with a share", runKind, []string{"spec.faults[0]", "a PodKill fault sets no errorPercent and no delay"},
			kills(with(killFault(), "errorPercent", int64(20))), kills(killFault())),
		Entry("a PodKill of a role it cannot kill", runKind, []string{"spec.faults[0].role", "Unsupported value"},
			kills(with(killFault(), "role", "Broker")), kills(killFault())),
		Entry("a PodKill beside the baseline, which calls the target pod's own address", runKind, []string{"spec.faults", "a PodKill of the Target or the Store needs baseline: false"},
			faults(killFault()), kills(killFault())),
		Entry("a PodKill of a profiled target", runKind, []string{"spec.faults", "a PodKill of the Target or the Store cannot be profiled"},
			both(kills(killFault()), at("spec.profiling", map[string]any{})), kills(killFault())),
		Entry("a Store kill beside the baseline, which reads the broker's streams itself", runKind, []string{"spec.faults", "a PodKill of the Target or the Store needs baseline: false"},
			both(brokerKill(), at("spec.baseline", true)), brokerKill()),
		Entry("a Store kill of a run with no store", runKind, []string{"spec", "a PodKill of the Store deletes the store the run deploys", "PubSub on the broker the run deploys"},
			kills(with(killFault(), "role", "Store")), brokerKill()),
		Entry("a Store kill of a named broker, not the run's to kill", runKind, []string{"spec", "a PodKill of the Store deletes the store the run deploys"},
			both(brokerKill(), at("spec.pubsub.component", "team-broker")), brokerKill()),
		Entry("a Store kill of a run without Dapr", runKind, []string{"spec", "a PodKill of the Store"},
			both(brokerKill(), at("spec.dapr.enabled", false)), both(brokerKill(), at("spec.dapr.enabled", true))),
		Entry("a Store kill of a State run's store (PubSub's broker only)", runKind, []string{"spec", "a PodKill of the Store deletes the store the run deploys"},
			both(brokerKill(), at("spec.scenario", "State")), brokerKill()),
		Entry("a sweep naming each point's broker on a template that kills its own", sweepKind, []string{"spec.points.settings", "not on a template that kills its Store"},
			both(storeKillTemplate(), at("spec.points.settings", []any{map[string]any{"name": "theirs", "component": "team-broker"}})),
			both(storeKillTemplate(), at("spec.points.settings", []any{map[string]any{"name": "bulk", "bulkSize": int64(5)}}))),
		Entry("a sweep's fault setting on a template without a fault", sweepKind, []string{"spec.points.settings", "faults vary the template's fault"},
			faultSettings(nil, errorsFault("10s", "5s")), faultSettings(errorsFault("10s", "5s"), with(errorsFault("10s", "5s"), "errorPercent", int64(50)))),
		Entry("a sweep's fault setting of another kind than the template's", sweepKind, []string{"spec.points.settings", "keeps its kind and role"},
			faultSettings(errorsFault("10s", "5s"), map[string]any{"kind": "TargetDelay", "at": "10s", "duration": "5s", "delay": "100ms"}),
			faultSettings(map[string]any{"kind": "TargetDelay", "at": "10s", "duration": "5s", "delay": "10ms"}, map[string]any{"kind": "TargetDelay", "at": "10s", "duration": "5s", "delay": "100ms"})),
		Entry("a sweep's kill setting of another role than the template's", sweepKind, []string{"spec.points.settings", "keeps its kind and role"},
			faultSettings(killFault(), with(killFault(), "role", "Store")), faultSettings(killFault(), with(killFault(), "duration", "8s"))),
		Entry("a sweep's fault setting ending too late for the template's phase", sweepKind, []string{"spec.points.settings", "must end 3s or more before the template's load.duration"},
			faultSettings(errorsFault("10s", "5s"), errorsFault("50s", "8s")), faultSettings(errorsFault("10s", "5s"), errorsFault("50s", "7s"))),
		Entry("a sweep's fault setting that is no fault of its kind", sweepKind, []string{"spec.points.settings[0].faults[0]", "a TargetErrors fault sets errorPercent"},
			faultSettings(errorsFault("10s", "5s"), with(errorsFault("10s", "5s"), "errorPercent", nil)), faultSettings(errorsFault("10s", "5s"), errorsFault("10s", "5s"))),
		Entry("a control-plane kill of a run without Dapr", runKind, []string{"spec", "a PodKill of Scheduler, Placement or Sentry", "dapr.enabled"},
			both(schedulerOutage(), at("spec.scenario", "ServiceInvocation"), at("spec.dapr.enabled", false)),
			both(schedulerOutage(), at("spec.scenario", "ServiceInvocation"), at("spec.dapr.enabled", true))),
		Entry("a hold on a kill of the target, whose Deployment the run owns", runKind, []string{"spec.faults[0]", "only a PodKill of Scheduler, Placement or Sentry sets it"},
			kills(with(killFault(), "hold", "2s")), faults(with(with(killFault(), "role", "Scheduler"), "hold", "2s"))),
		Entry("a hold as long as the fault, leaving no time to let the service back", runKind, []string{"spec.faults[0]", "hold must be below duration"},
			both(schedulerOutage(), faults(with(with(killFault(), "role", "Scheduler"), "hold", "5s"))),
			both(schedulerOutage(), faults(with(with(killFault(), "role", "Scheduler"), "hold", "4s")))),
		Entry("a hold too short to be an outage", runKind, []string{"spec.faults[0].hold", "between 1s and 24h"},
			both(schedulerOutage(), faults(with(with(killFault(), "role", "Scheduler"), "hold", "500ms"))),
			both(schedulerOutage(), faults(with(with(killFault(), "role", "Scheduler"), "hold", "1s")))),
		Entry("a control-plane kill of no service Dapr has", runKind, []string{"spec.faults[0].role", "Unsupported value"},
			both(schedulerOutage(), faults(with(killFault(), "role", "Operator"))), schedulerOutage()),
		Entry("a target fault on a Workflow run, which has no target app: its scheduler's outage is its fault", runKind, []string{"spec", "faults are ordered from the target app"},
			both(schedulerOutage(), faults(tenSeconds)), both(schedulerOutage(), faults(with(killFault(), "role", "Placement")))),
		Entry("a Target kill beside a profile, where a Sentry outage may be profiled", runKind, []string{"spec.faults", "cannot be profiled"},
			both(kills(killFault()), at("spec.profiling", map[string]any{})),
			both(faults(with(killFault(), "role", "Sentry")), at("spec.profiling", map[string]any{}))),
		Entry("a target fault on a PubSub run, which has no target app", runKind, []string{"spec", "faults are ordered from the target app"},
			both(brokerKill(), faults(tenSeconds)), brokerKill()),
		Entry("a delay a request's timeout would measure", runKind, []string{"spec.faults[0].delay", "at most 5s"},
			faults(map[string]any{"kind": "TargetDelay", "at": "10s", "duration": "5s", "delay": "6s"}),
			faults(map[string]any{"kind": "TargetDelay", "at": "10s", "duration": "5s", "delay": "5s"})),
		Entry("no share at all", runKind, []string{"spec.faults[0].errorPercent", "greater than or equal to 1"},
			faults(with(tenSeconds, "errorPercent", int64(0))), faults(with(tenSeconds, "errorPercent", int64(100)))),
		Entry("two faults, whose bands and recoveries would overlap", runKind, []string{"spec.faults", "must have at most 1 item"},
			faults(tenSeconds, errorsFault("30s", "5s")), faults(errorsFault("30s", "5s"))),
		Entry("a scenario without a target app", runKind, []string{"spec", "faults are ordered from the target app", "ServiceInvocation with protocol.app HTTP"},
			both(at("spec.scenario", "State"), faults(tenSeconds)), faults(tenSeconds)),
		Entry("a run without Dapr", runKind, []string{"spec", "faults are ordered from the target app"},
			both(at("spec.dapr.enabled", false), faults(tenSeconds)), both(at("spec.dapr.enabled", true), faults(tenSeconds))),
		Entry("a gRPC app", runKind, []string{"spec", "faults are ordered from the target app"},
			both(at("spec.protocol.app", "GRPC"), faults(tenSeconds)), both(at("spec.protocol.app", "HTTP"), faults(tenSeconds))),
		Entry("a variant whose sidecar calls its app over gRPC (each variant's faults go through its own target, over HTTP)", runKind, []string{"spec", "faults are ordered from the target app", "every variant's appProtocol too"},
			both(at("spec.variants", []any{map[string]any{"name": "a"}, map[string]any{"name": "b", "appProtocol": "GRPC"}}), faults(tenSeconds)),
			both(at("spec.variants", []any{map[string]any{"name": "a"}, map[string]any{"name": "b", "appProtocol": "HTTP"}}), faults(tenSeconds))),
		Entry("a target kill of variants under a gRPC app", runKind, []string{"spec", "faults are ordered from the target app"},
			both(at("spec.variants", []any{map[string]any{"name": "a", "appProtocol": "GRPC"}, map[string]any{"name": "b"}}), kills(killFault())),
			both(at("spec.variants", []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}}), kills(killFault()))),
		Entry("four paths", runKind, []string{"spec", "faults are ordered from the target app"},
			both(at("spec.serviceInvocation.paths", "FourPaths"), faults(tenSeconds)), both(at("spec.serviceInvocation.paths", "Standard"), faults(tenSeconds))),
		Entry("a recovery gate on a run without a fault", runKind, []string{"spec.thresholds", "maxFaultErrorPercent/maxRecovery judge what a fault cost: they need spec.faults"},
			at("spec.thresholds.maxRecovery", "5s"), both(faults(tenSeconds), at("spec.thresholds.maxRecovery", "5s"))),
		Entry("an error-share gate on a run without a fault", runKind, []string{"spec.thresholds", "they need spec.faults"},
			at("spec.thresholds.maxFaultErrorPercent", int64(5)), both(faults(tenSeconds), at("spec.thresholds.maxFaultErrorPercent", int64(5)))),
		Entry("a recovery gate past a fault run's longest phase", runKind, []string{"spec.thresholds.maxRecovery", "between 0s and 10m"},
			both(faults(tenSeconds), at("spec.thresholds.maxRecovery", "11m")), both(faults(tenSeconds), at("spec.thresholds.maxRecovery", "0s"))),
		Entry("an error share above 100%", runKind, []string{"spec.thresholds.maxFaultErrorPercent", "less than or equal to 100"},
			both(faults(tenSeconds), at("spec.thresholds.maxFaultErrorPercent", int64(101))), both(faults(tenSeconds), at("spec.thresholds.maxFaultErrorPercent", int64(0)))),
		Entry("a sweep's recovery objective for a template without a fault", sweepKind, []string{"spec.search.objective", "they need a template with faults"},
			searchWith(map[string]any{"maxRecovery": "5s"}),
			both(at("spec.template.spec.faults", []any{tenSeconds}), at("spec.template.spec.load.repetitions", int64(2)), searchWith(map[string]any{"maxRecovery": "5s"}))),
	)
})
