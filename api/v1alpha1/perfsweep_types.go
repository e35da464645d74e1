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

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LabelSweep is set on every PerfRun a PerfSweep creates, to the sweep's name.
const LabelSweep = "perf.daprbench.io/sweep"

// MaxSweepPoints bounds a sweep: its status keeps one compact result per point.
const MaxSweepPoints = 50

// PerfSweepSpec declares a curve rather than a point: the template run measured at every
// combination of the listed values, one point after another (points), or at the rates a
// search for the highest sustainable one chooses (search).
// +daprbench:generated-scenario-rules:begin (hack/gen/scenariorules, from scenario_capabilities.go: edit those, then make manifests)
// +kubebuilder:validation:XValidation:rule="!has(self.points) || ((has(self.points.connections) ? size(self.points.connections) : 1) * (has(self.points.qps) ? size(self.points.qps) : 1) * (has(self.points.payloadBytes) ? size(self.points.payloadBytes) : 1) * (has(self.points.settings) ? size(self.points.settings) : 1)) * ((has(self.template.spec.load.warmup) ? duration(self.template.spec.load.warmup).getSeconds() : 10) + (has(self.template.spec.load.duration) ? duration(self.template.spec.load.duration).getSeconds() : 60) * (has(self.template.spec.load.repetitions) ? self.template.spec.load.repetitions : 1) * ((has(self.template.spec.variants) ? self.template.spec.variants.size() : 1) + ((has(self.template.spec.baseline) ? self.template.spec.baseline : ((self.template.spec.scenario == 'ServiceInvocation' && (!has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled)) || (self.template.spec.scenario == 'State' && !(has(self.template.spec.state) && has(self.template.spec.state.component))) || (self.template.spec.scenario == 'PubSub' && !(has(self.template.spec.pubsub) && has(self.template.spec.pubsub.component))) || (self.template.spec.scenario == 'Configuration' && true))) ? 1 : 0) + ((has(self.template.spec.serviceInvocation) && has(self.template.spec.serviceInvocation.paths) && self.template.spec.serviceInvocation.paths == 'FourPaths') ? 2 : 0)) + 300) <= 259200",message="spec.points: the sweep would take longer than 72h (points × (warmup + duration × repetitions × paths + 5m)): fewer points or a shorter template.spec.load.duration"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || (has(self.search.maxSteps) ? self.search.maxSteps : 10) * ((has(self.template.spec.load.warmup) ? duration(self.template.spec.load.warmup).getSeconds() : 10) + (has(self.template.spec.load.duration) ? duration(self.template.spec.load.duration).getSeconds() : 60) * (has(self.template.spec.load.repetitions) ? self.template.spec.load.repetitions : 1) * ((has(self.template.spec.variants) ? self.template.spec.variants.size() : 1) + ((has(self.template.spec.baseline) ? self.template.spec.baseline : ((self.template.spec.scenario == 'ServiceInvocation' && (!has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled)) || (self.template.spec.scenario == 'State' && !(has(self.template.spec.state) && has(self.template.spec.state.component))) || (self.template.spec.scenario == 'PubSub' && !(has(self.template.spec.pubsub) && has(self.template.spec.pubsub.component))) || (self.template.spec.scenario == 'Configuration' && true))) ? 1 : 0) + ((has(self.template.spec.serviceInvocation) && has(self.template.spec.serviceInvocation.paths) && self.template.spec.serviceInvocation.paths == 'FourPaths') ? 2 : 0)) + 300) <= 259200",message="spec.search: maxSteps runs would take longer than 72h: fewer steps or a shorter template.spec.load.duration"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || !has(self.search.objective) || !(has(self.search.objective.maxAddedP90) || has(self.search.objective.maxAddedP99)) || ((self.template.spec.scenario in ['ServiceInvocation', 'State', 'PubSub', 'Configuration']) && (!has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled) && (has(self.template.spec.baseline) ? self.template.spec.baseline : ((self.template.spec.scenario == 'ServiceInvocation' && (!has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled)) || (self.template.spec.scenario == 'State' && !(has(self.template.spec.state) && has(self.template.spec.state.component))) || (self.template.spec.scenario == 'PubSub' && !(has(self.template.spec.pubsub) && has(self.template.spec.pubsub.component))) || (self.template.spec.scenario == 'Configuration' && true))))",message="objective.maxAddedP90/maxAddedP99 need added latency, which the template does not measure: a ServiceInvocation, State, PubSub or Configuration template through Dapr with the baseline on",fieldPath=".search.objective"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || !has(self.search.objective) || !(has(self.search.objective.maxDeliveryP99) || has(self.search.objective.maxLostMessages)) || self.template.spec.scenario == 'PubSub'",message="objective.maxDeliveryP99/maxLostMessages judge message delivery: they need a PubSub template",fieldPath=".search.objective"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || !has(self.search.objective) || !(has(self.search.objective.maxCompletionP99) || has(self.search.objective.maxFailedWorkflows)) || self.template.spec.scenario == 'Workflow'",message="objective.maxCompletionP99/maxFailedWorkflows judge workflow instances: they need a Workflow template",fieldPath=".search.objective"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || !has(self.search.objective) || !(has(self.search.objective.maxTriggerLatenessP99) || has(self.search.objective.maxMissedTriggers)) || self.template.spec.scenario == 'Scheduler'",message="objective.maxTriggerLatenessP99/maxMissedTriggers judge jobs' and reminders' triggers: they need a Scheduler template",fieldPath=".search.objective"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.component)) || self.template.spec.scenario == 'State' || (self.template.spec.scenario == 'PubSub' && (!has(self.template.spec.faults) || !self.template.spec.faults.exists(f, has(f.role) && f.role == 'Store')))",message="spec.points.settings: component names a point's state store or broker (not on a template that kills its Store, which must be the run's own), for a State or PubSub template"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.bulkSize)) || (self.template.spec.scenario == 'State' && (has(self.template.spec.state) && has(self.template.spec.state.operation) && self.template.spec.state.operation in ['BulkGet', 'BulkSave', 'Transaction'])) || self.template.spec.scenario == 'PubSub'",message="spec.points.settings: bulkSize is a point's keys a request of a State template's BulkGet, BulkSave or Transaction, or messages a request of a PubSub template's"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.workflowPattern) && !has(s.activities)) || self.template.spec.scenario == 'Workflow'",message="spec.points.settings: workflowPattern and activities are a point's workflow, for a Workflow template",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.actorHost)) || self.template.spec.scenario == 'ActorActivation'",message="spec.points.settings: actorHost is a point's actor runtime, for an ActorActivation template",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, (!has(s.appProtocol) || s.appProtocol == 'HTTP')) || (self.template.spec.scenario == 'ServiceInvocation' && ((!has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled)))",message="spec.points.settings: appProtocol GRPC needs a ServiceInvocation template through Dapr (the others have no app, or are measured over HTTP; without a sidecar nothing calls the app by its protocol)",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.sidecarImage)) || (self.template.spec.scenario == 'ServiceInvocation' && ((!has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled) && !has(self.template.spec.variants)))",message="spec.points.settings: a sidecarImage needs a ServiceInvocation template through Dapr without variants (the point measures the image as the run's one sidecar variant)",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.component)) || !has(self.template.spec.placement) || self.template.spec.placement == 'Any'",message="spec.points.settings: a component setting names a store the run does not deploy, and the template's placement places the load tester relative to one it deploys: leave template.spec.placement Any",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.component)) || !has(self.template.spec.thresholds) || !(has(self.template.spec.thresholds.maxAddedP90) || has(self.template.spec.thresholds.maxAddedP99)) || (has(self.template.spec.baseline) && self.template.spec.baseline)",message="spec.points.settings: a component setting's runs call a named store, which has no baseline unless the template asks for one, so the template's thresholds.maxAddedP90/maxAddedP99 could never be judged: set template.spec.baseline true (a plain Redis) or drop those thresholds",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.bulkSize) || s.bulkSize * (has(self.points.payloadBytes) ? self.points.payloadBytes.min() : (has(self.template.spec.load.payloadBytes) ? self.template.spec.load.payloadBytes : (has(self.template.spec.load.payload) ? size(self.template.spec.load.payload) : 1024))) <= 3145728)",message="spec.points.settings: bulkSize × the payload must be at most 3 MiB (one bulk request carries every key's value or message, and daprd refuses a body over 4 MiB): a setting over it at the grid's smallest payload refuses every point's run",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || !has(self.template.spec.dapr.configuration) || self.points.settings.all(s, !has(s.tracingSamplingRate) || s.tracingSamplingRate == '0.1')",message="spec.points.settings: tracingSamplingRate sets the Configuration the run writes, and a template naming dapr.configuration runs on that one instead: name a Configuration with the rate in a setting of its own run, or leave the rate out",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.payloadBytes) || self.template.spec.scenario != 'PubSub' || self.points.payloadBytes.min() <= 65536",message="spec.points.payloadBytes: a PubSub template's runs take a payload of at most 64 KiB (each of its two streams keeps its last 1000 to 50000 messages in the broker), and every point here is over it",fieldPath=".points.payloadBytes"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.payloadBytes) || self.template.spec.scenario != 'Workflow' || self.points.payloadBytes.min() <= 65536",message="spec.points.payloadBytes: a Workflow template's runs take a payload of at most 64 KiB (an instance's history keeps it for every activity), and every point here is over it",fieldPath=".points.payloadBytes"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.payloadBytes) || self.template.spec.scenario != 'Scheduler' || self.points.payloadBytes.min() <= 65536",message="spec.points.payloadBytes: a Scheduler template's runs take a payload of at most 64 KiB (the scheduler keeps every job's data until it is triggered), and every point here is over it",fieldPath=".points.payloadBytes"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.payloadBytes) || self.template.spec.scenario != 'Configuration' || self.points.payloadBytes.min() <= 65536",message="spec.points.payloadBytes: a Configuration template's runs take a payload of at most 64 KiB (every item is written into the store before the load, as its value), and every point here is over it",fieldPath=".points.payloadBytes"
// +daprbench:generated-scenario-rules:end
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.faults)) || (has(self.template.spec.faults) && size(self.template.spec.faults) > 0 && self.points.settings.all(s, !has(s.faults) || s.faults.all(f, f.kind == self.template.spec.faults[0].kind && has(f.role) == has(self.template.spec.faults[0].role) && (!has(f.role) || f.role == self.template.spec.faults[0].role))))",message="spec.points.settings: faults vary the template's fault (its at, duration, errorPercent, delay or hold): the template sets one, and each setting's keeps its kind and role",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || self.points.settings.all(s, !has(s.faults) || s.faults.all(f, duration(f.at) + duration(f.duration) + duration('3s') <= (has(self.template.spec.load.duration) ? duration(self.template.spec.load.duration) : duration('60s'))))",message="spec.points.settings: each fault's at + duration must end 3s or more before the template's load.duration, the phase it is timed in, so the path has the seconds to show it recovered",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || !has(self.search.objective) || !(has(self.search.objective.maxFaultErrorPercent) || has(self.search.objective.maxRecovery)) || (has(self.template.spec.faults) && size(self.template.spec.faults) > 0)",message="objective.maxFaultErrorPercent/maxRecovery judge what a fault cost: they need a template with faults",fieldPath=".search.objective"
// +kubebuilder:validation:XValidation:rule="has(self.points) != has(self.search)",message="set exactly one of spec.points (a sweep) and spec.search (the highest sustainable rate)"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || ((has(self.points.connections) ? size(self.points.connections) : 1) * (has(self.points.qps) ? size(self.points.qps) : 1) * (has(self.points.payloadBytes) ? size(self.points.payloadBytes) : 1) * (has(self.points.settings) ? size(self.points.settings) : 1)) <= 50",message="spec.points: a sweep has at most 50 points (connections × qps × payloadBytes × settings)"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || (has(self.points.qps) ? self.points.qps : [self.template.spec.load.qps]).exists(q, q * (has(self.points.payloadBytes) ? self.points.payloadBytes.min() : (has(self.template.spec.load.payloadBytes) ? self.template.spec.load.payloadBytes : 0)) <= 12500000000 && (has(self.template.spec.loadTester) && has(self.template.spec.loadTester.replicas) ? self.template.spec.loadTester.replicas : 1) <= q && (has(self.points.connections) ? self.points.connections : [has(self.template.spec.load.connections) ? self.template.spec.load.connections : 16]).exists(c, c <= q * (has(self.template.spec.load.duration) ? duration(self.template.spec.load.duration).getSeconds() : 60) && (has(self.template.spec.loadTester) && has(self.template.spec.loadTester.replicas) ? self.template.spec.loadTester.replicas : 1) <= c))",message="no point of the grid can run: a point needs connections ≤ qps × duration, loadTester.replicas ≤ connections and ≤ qps, and qps × payloadBytes ≤ 12.5e9 bytes/s",fieldPath=".points"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || !has(self.search.objective) || !(has(self.search.objective.maxSidecarCPUPer1kQPS) || has(self.search.objective.maxSidecarMemoryPer1kQPS) || has(self.search.objective.maxSidecarMemoryGrowthPerHour) || has(self.search.objective.maxSidecarGoroutineGrowthPerHour)) || !has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled",message="objective.maxSidecarCPUPer1kQPS/maxSidecarMemoryPer1kQPS/maxSidecarMemoryGrowthPerHour/maxSidecarGoroutineGrowthPerHour need a sidecar, which a template with dapr.enabled=false does not have",fieldPath=".search.objective"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || !(has(self.template.spec.serviceInvocation) && has(self.template.spec.serviceInvocation.paths) && self.template.spec.serviceInvocation.paths == 'FourPaths') || self.points.settings.all(s, !has(s.sidecarImage) && (!has(s.appProtocol) || s.appProtocol == 'HTTP'))",message="spec.points.settings: a FourPaths template measures HTTP without variants: a setting may not set appProtocol GRPC or a sidecarImage (a variant)",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.points) || !has(self.points.settings) || !has(self.template.spec.dapr.enabled) || self.template.spec.dapr.enabled || self.points.settings.all(s, !has(s.mtls) && !has(s.tracingSamplingRate))",message="spec.points.settings: mtls and tracingSamplingRate are Dapr's settings, and a template with dapr.enabled=false has no sidecar to apply them to",fieldPath=".points.settings"
// +kubebuilder:validation:XValidation:rule="!has(self.search) || !has(self.template.spec.loadTester) || !has(self.template.spec.loadTester.replicas) || self.search.startQPS >= self.template.spec.loadTester.replicas",message="spec.search.startQPS must be at least template.spec.loadTester.replicas: every load-tester pod needs a share of the first rate",fieldPath=".search.startQPS"
type PerfSweepSpec struct {
	// template is the run measured at each point; a point overrides its load.connections,
	// load.qps and load.payloadBytes, and applies its setting (points.settings) on top.
	// +required
	Template PerfRunTemplate `json:"template"`

	// points lists the values to sweep; the sweep measures their cross product.
	// +optional
	Points *SweepPoints `json:"points,omitempty"`

	// search looks for the highest rate that meets an objective.
	// +optional
	Search *RateSearch `json:"search,omitempty"`
}

// SweepPoints are the values of each swept dimension; an unset one keeps the template's.
// +kubebuilder:validation:XValidation:rule="has(self.connections) || has(self.qps) || has(self.payloadBytes) || has(self.settings)",message="spec.points needs at least one of connections, qps, payloadBytes and settings"
type SweepPoints struct {
	// connections to measure at, e.g. Dapr's published 1, 2, 4, 8, 16, 32, 64.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:items:Maximum=1024
	// +listType=set
	// +optional
	Connections []int32 `json:"connections,omitempty"`

	// qps values to measure at.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:items:Maximum=100000
	// +listType=set
	// +optional
	QPS []int32 `json:"qps,omitempty"`

	// payloadBytes values (random bodies) to measure at.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:Minimum=0
	// +kubebuilder:validation:items:Maximum=4194304
	// +listType=set
	// +optional
	PayloadBytes []int32 `json:"payloadBytes,omitempty"`

	// settings are Dapr settings to measure the cost of, one point each (crossed with the
	// other lists): mTLS, the tracing sampling rate, the app protocol, the sidecar image.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	// +listType=map
	// +listMapKey=name
	// +optional
	Settings []SweepSetting `json:"settings,omitempty"`
}

// RateSearch finds the highest rate that meets the objective: doubling from startQPS until
// a step fails, then halving the interval between the last passing and the first failing
// rate, as Nighthawk's adaptive load controller does, within maxSteps.
// +kubebuilder:validation:XValidation:rule="!has(self.maxQPS) || self.maxQPS >= self.startQPS",message="spec.search.maxQPS must be at least startQPS"
type RateSearch struct {
	// startQPS is the first rate tried.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +required
	StartQPS int32 `json:"startQPS"`

	// maxQPS is the highest rate tried.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +kubebuilder:default=100000
	// +optional
	MaxQPS int32 `json:"maxQPS,omitempty"`

	// maxSteps bounds the number of runs.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=20
	// +kubebuilder:default=10
	// +optional
	MaxSteps int32 `json:"maxSteps,omitempty"`

	// precisionPercent ends the search once the first failing rate is within this percent
	// of the last passing one.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +kubebuilder:default=5
	// +optional
	PrecisionPercent int32 `json:"precisionPercent,omitempty"`

	// objective a step must meet to pass: a PerfRun's thresholds, judged by the same rules
	// (noise-aware: a limit inside the repetitions' spread or the added latency's interval
	// is inconclusive, and an inconclusive step does not pass). minQPSPercent defaults to 99
	// and maxErrors to 0 here, unless the template has faults (their errors are on purpose:
	// maxFaultErrorPercent judges them); a saturated path never passes.
	// +kubebuilder:default={}
	// +kubebuilder:validation:XValidation:rule="!has(self.failRun)",message="failRun has no meaning in an objective: a step that misses it is where the search turns"
	// +optional
	Objective Thresholds `json:"objective,omitempty"`
}

// PerfSweepStatus is the curve measured so far.
type PerfSweepStatus struct {
	// observedGeneration is the spec generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// phase: Running, Succeeded or Failed.
	// +optional
	Phase Phase `json:"phase,omitempty"`
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty"`
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// measured counts the points measured so far.
	// +optional
	Measured int32 `json:"measured,omitempty"`
	// points in the order of the spec's cross product (search: in the order tried), each
	// with the step it is measured at, its run and the run's result document.
	// +kubebuilder:validation:MaxItems=50
	// +optional
	Points []SweepPointStatus `json:"points,omitempty"`
	// maxSustainableQPS is the highest rate that met the objective (search only; 0 when
	// none did).
	// +optional
	MaxSustainableQPS *int32 `json:"maxSustainableQPS,omitempty"`
	// firstFailingQPS is the lowest rate that missed the objective (search only).
	// +optional
	FirstFailingQPS *int32 `json:"firstFailingQPS,omitempty"`
}

// SweepPointStatus is one point of a sweep, its run, and where the run's result is.
type SweepPointStatus struct {
	// step is when the point is measured, 0 first: a sweep spreads its points over time so
	// drift does not masquerade as a trend.
	Step int32 `json:"step"`
	// +optional
	Connections int32 `json:"connections,omitempty"`
	// +optional
	QPS int32 `json:"qps,omitempty"`
	// +optional
	PayloadBytes *int32 `json:"payloadBytes,omitempty"`
	// setting is the name of the point's spec.points.settings entry.
	// +kubebuilder:validation:MaxLength=12
	// +optional
	Setting string `json:"setting,omitempty"`
	// run is the PerfRun measuring the point.
	// +optional
	Run string `json:"run,omitempty"`
	// +optional
	Phase Phase `json:"phase,omitempty"`
	// passed says whether the point met the search's objective (search only).
	// +optional
	Passed *bool `json:"passed,omitempty"`
	// message says why the point failed or missed the objective.
	// +kubebuilder:validation:MaxLength=512
	// +optional
	Message string `json:"message,omitempty"`
	// document and digest are the point's run's result document (its status.result's): a
	// sweep's table, charts and rate search read the point's figures there.
	// +optional
	Document string `json:"document,omitempty"`
	// +kubebuilder:validation:MaxLength=71
	// +optional
	Digest string `json:"digest,omitempty"`
}

// PointLatency is a latency at the headline percentiles.
type PointLatency struct {
	// +optional
	P50 *metav1.Duration `json:"p50,omitempty"`
	// +optional
	P90 *metav1.Duration `json:"p90,omitempty"`
	// +optional
	P99 *metav1.Duration `json:"p99,omitempty"`
}

// Condition reasons of a PerfSweep (its Succeeded condition).
const (
	// ReasonPointsMeasured: every point was measured (some may have failed; see points).
	ReasonPointsMeasured = "PointsMeasured"
	// ReasonRateFound: the search ended (see maxSustainableQPS).
	ReasonRateFound = "RateFound"
	// ReasonNoPointMeasured: no point could be measured (its Failed condition).
	ReasonNoPointMeasured = "NoPointMeasured"
	// ReasonPointMeasured is the event of each point measured.
	ReasonPointMeasured = "PointMeasured"
)

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=psw,categories=daprbench
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 30",message="metadata.name must be at most 30 characters: its runs are named <sweep>-<generation>-<step>"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="metadata.name must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter): it prefixes the names of its runs' Services"
// +kubebuilder:printcolumn:name="Scenario",type=string,JSONPath=`.spec.template.spec.scenario`
// +kubebuilder:printcolumn:name="Measured",type=integer,JSONPath=`.status.measured`
// +kubebuilder:printcolumn:name="Max QPS",type=integer,JSONPath=`.status.maxSustainableQPS`
// +kubebuilder:printcolumn:name="Status",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// PerfSweep measures a curve: a PerfRun per point, one after another.
type PerfSweep struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec PerfSweepSpec `json:"spec"`
	// +optional
	Status PerfSweepStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// PerfSweepList is a list of PerfSweeps.
type PerfSweepList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PerfSweep `json:"items"`
}
