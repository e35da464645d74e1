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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MTLSMode is what a run expects of the cluster's mTLS setting.
// +kubebuilder:validation:Enum=Enabled;Disabled
type MTLSMode string

const (
	MTLSEnabled  MTLSMode = "Enabled"
	MTLSDisabled MTLSMode = "Disabled"
)

// Placement says where the load tester runs relative to the target.
// +kubebuilder:validation:Enum=Any;SameNode;DifferentNodes
type Placement string

const (
	// PlacementAny leaves the choice to the scheduler (the placement is recorded in status).
	PlacementAny Placement = "Any"
	// PlacementSameNode requires the load tester on the target's node (pod affinity).
	PlacementSameNode Placement = "SameNode"
	// PlacementDifferentNodes requires the load tester on another node (pod anti-affinity).
	PlacementDifferentNodes Placement = "DifferentNodes"
)

// CleanupPolicy says when the workloads of a finished run are deleted.
// +kubebuilder:validation:Enum=Always;OnSuccess;Never
type CleanupPolicy string

const (
	CleanupAlways    CleanupPolicy = "Always"
	CleanupOnSuccess CleanupPolicy = "OnSuccess"
	CleanupNever     CleanupPolicy = "Never"
)

// LogLevel is daprd's log level.
// +kubebuilder:validation:Enum=debug;info;warn;error
type LogLevel string

// PerfRunSpec declares one benchmark.
// +daprbench:generated-scenario-rules:begin (hack/gen/scenariorules, from scenario_capabilities.go: edit those, then make manifests)
// +kubebuilder:validation:XValidation:rule="!has(self.serviceInvocation) || self.scenario == 'ServiceInvocation'",message="serviceInvocation may only be set when scenario is ServiceInvocation"
// +kubebuilder:validation:XValidation:rule="!(has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths') || (self.scenario == 'ServiceInvocation' && (!has(self.dapr.enabled) || self.dapr.enabled) && (!has(self.baseline) || self.baseline) && !has(self.variants))",message="serviceInvocation.paths FourPaths splits what Dapr adds between two sidecars: it needs scenario ServiceInvocation through Dapr, with the baseline (the direct path) and without variants"
// +kubebuilder:validation:XValidation:rule="!(has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths') || ((!has(self.protocol.caller) || self.protocol.caller == 'HTTP') && (!has(self.protocol.app) || self.protocol.app == 'HTTP'))",message="serviceInvocation.paths FourPaths needs protocol.caller and protocol.app HTTP: Dapr invokes an app without a sidecar only as a non-Dapr HTTP endpoint, so every path must speak HTTP for the four to compare like with like"
// +kubebuilder:validation:XValidation:rule="!(has(self.serviceInvocation) && has(self.serviceInvocation.baselineTarget) && self.serviceInvocation.baselineTarget == 'Twin') || (has(self.baseline) ? self.baseline : (self.scenario == 'ServiceInvocation' && (!has(self.dapr.enabled) || self.dapr.enabled)))",message="serviceInvocation.baselineTarget Twin names what the baseline calls: it needs the baseline (baseline true, or a ServiceInvocation run through Dapr, where it is on by default)"
// +kubebuilder:validation:XValidation:rule="!(has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths') || !(has(self.serviceInvocation) && has(self.serviceInvocation.baselineTarget) && self.serviceInvocation.baselineTarget == 'Twin')",message="serviceInvocation.paths FourPaths needs serviceInvocation.baselineTarget SamePod: its four paths must end at one app process, and a twin puts the direct and client-only paths on another pod"
// +kubebuilder:validation:XValidation:rule="!has(self.profiling) || !(has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths')",message="profiling cannot be combined with serviceInvocation.paths FourPaths: the server-only path opens the target's daprd on its pod address, and daprd binds its profiler, which asks for no token, wherever its API listens"
// +kubebuilder:validation:XValidation:rule="!has(self.actors) || self.scenario == 'ActorActivation'",message="actors may only be set when scenario is ActorActivation"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'ActorActivation' || !has(self.baseline) || !self.baseline",message="baseline cannot be true for ActorActivation: an actor cannot be called without a sidecar"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'ActorActivation' || ((!has(self.protocol.caller) || self.protocol.caller == 'HTTP') && (!has(self.protocol.app) || self.protocol.app == 'HTTP'))",message="ActorActivation is measured over HTTP (protocol.caller and protocol.app HTTP)"
// +kubebuilder:validation:XValidation:rule="!has(self.state) || self.scenario == 'State'",message="state may only be set when scenario is State"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'State' || !has(self.target) || !(has(self.target.image) || has(self.target.nodeSelector) || has(self.target.tolerations) || has(self.target.affinity) || (has(self.target.resources) && (has(self.target.resources.requests) || has(self.target.resources.limits))))",message="target configures a target app, and a State run has none: its load ends at the store"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'State' || !has(self.profiling)",message="profiling profiles the target's daprd, and a State run has no target: the load tester's own daprd calls the store"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'State' || !(has(self.state) && has(self.state.component)) || !has(self.placement) || self.placement == 'Any'",message="placement places the load tester beside or away from the store a State run deploys; a named Component's store is not the run's to place: leave placement Any"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'State' || ((has(self.state) && has(self.state.keys) ? self.state.keys : 1000) * (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 134217728)",message="state.keys × the payload must be at most 128 MiB: every key is written before the load, into a store that may be a team's own"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'State' || (!has(self.state) || !has(self.state.operation) || !(self.state.operation in ['BulkGet', 'BulkSave', 'Transaction']) || (has(self.state.bulkSize) ? self.state.bulkSize : 10) * (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 3145728)",message="state.bulkSize × the payload must be at most 3 MiB: one bulk request carries every key's value, and daprd refuses a body over 4 MiB by default"
// +kubebuilder:validation:XValidation:rule="!has(self.pubsub) || self.scenario == 'PubSub'",message="pubsub may only be set when scenario is PubSub"
// +kubebuilder:validation:XValidation:rule="!has(self.thresholds) || !(has(self.thresholds.maxDeliveryP99) || has(self.thresholds.maxLostMessages)) || self.scenario == 'PubSub'",message="thresholds.maxDeliveryP99/maxLostMessages gate message delivery: they need scenario PubSub"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'PubSub' || !has(self.target) || !(has(self.target.image) || has(self.target.nodeSelector) || has(self.target.tolerations) || has(self.target.affinity) || (has(self.target.resources) && (has(self.target.resources.requests) || has(self.target.resources.limits))))",message="target configures a target app, and a PubSub run has none: the load tester publishes and subscribes itself"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'PubSub' || !has(self.profiling)",message="profiling profiles the target's daprd, and a PubSub run has no target: the load tester's own daprd publishes and delivers"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'PubSub' || !(has(self.pubsub) && has(self.pubsub.component)) || !has(self.placement) || self.placement == 'Any'",message="placement places the load tester beside or away from the broker a PubSub run deploys; a named Component's broker is not the run's to place: leave placement Any"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'PubSub' || !has(self.loadTester) || !has(self.loadTester.replicas) || self.loadTester.replicas == 1",message="loadTester.replicas must be 1 for PubSub: the subscriber times the messages its own pod published, on one clock"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'PubSub' || (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 65536",message="a PubSub run's payload must be at most 64 KiB: each of its two streams keeps its last 1000 to 50000 messages in the broker"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'PubSub' || (!has(self.pubsub) || !has(self.pubsub.bulkPublish) || self.pubsub.bulkPublish * (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 3145728)",message="pubsub.bulkPublish × the payload must be at most 3 MiB: one bulk publish carries every message, and daprd refuses a body over 4 MiB by default"
// +kubebuilder:validation:XValidation:rule="!has(self.workflow) || self.scenario == 'Workflow'",message="workflow may only be set when scenario is Workflow"
// +kubebuilder:validation:XValidation:rule="!has(self.thresholds) || !(has(self.thresholds.maxCompletionP99) || has(self.thresholds.maxFailedWorkflows)) || self.scenario == 'Workflow'",message="thresholds.maxCompletionP99/maxFailedWorkflows gate workflow instances: they need scenario Workflow"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Workflow' || !has(self.baseline) || !self.baseline",message="baseline cannot be true for Workflow: a workflow cannot run without Dapr; compare Dapr versions or settings with two runs and kubectl daprbench compare"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Workflow' || !has(self.target) || !(has(self.target.image) || has(self.target.nodeSelector) || has(self.target.tolerations) || has(self.target.affinity) || (has(self.target.resources) && (has(self.target.resources.requests) || has(self.target.resources.limits))))",message="target configures a target app, and a Workflow run has none: the load tester starts and hosts the workflows itself"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Workflow' || !has(self.profiling)",message="profiling profiles the target's daprd, and a Workflow run has no target: the load tester's own daprd runs the workflows"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Workflow' || !has(self.placement) || self.placement == 'Any'",message="placement places the load tester relative to a target, and a Workflow run has none: leave placement Any"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Workflow' || !has(self.loadTester) || !has(self.loadTester.replicas) || self.loadTester.replicas == 1",message="loadTester.replicas must be 1 for Workflow: the load tester times the instances its own pod started, on one clock, and daprd binds a workflow to the app that started it"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Workflow' || (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 65536",message="a Workflow run's payload must be at most 64 KiB: an instance's history keeps it for every activity"
// +kubebuilder:validation:XValidation:rule="!has(self.scheduler) || self.scenario == 'Scheduler'",message="scheduler may only be set when scenario is Scheduler"
// +kubebuilder:validation:XValidation:rule="!has(self.thresholds) || !(has(self.thresholds.maxTriggerLatenessP99) || has(self.thresholds.maxMissedTriggers)) || self.scenario == 'Scheduler'",message="thresholds.maxTriggerLatenessP99/maxMissedTriggers gate jobs' and reminders' triggers: they need scenario Scheduler"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || !has(self.baseline) || !self.baseline",message="baseline cannot be true for Scheduler: jobs and reminders only exist behind a sidecar"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || !has(self.target) || !(has(self.target.image) || has(self.target.nodeSelector) || has(self.target.tolerations) || has(self.target.affinity) || (has(self.target.resources) && (has(self.target.resources.requests) || has(self.target.resources.limits))))",message="target configures a target app, and a Scheduler run has none: the load tester registers the jobs or reminders and takes their triggers itself"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || !has(self.profiling)",message="profiling profiles the target's daprd, and a Scheduler run has no target: the load tester's own daprd registers the jobs or reminders"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || !has(self.placement) || self.placement == 'Any'",message="placement places the load tester relative to a target, and a Scheduler run has none: leave placement Any"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || !has(self.loadTester) || !has(self.loadTester.replicas) || self.loadTester.replicas == 1",message="loadTester.replicas must be 1 for Scheduler: the load tester times the triggers of what its own pod registered, on one clock"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 65536",message="a Scheduler run's payload must be at most 64 KiB: the scheduler keeps every job's data until it is triggered"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || ((has(self.scheduler) && has(self.scheduler.api) && self.scheduler.api == 'ActorTimers') || self.load.qps * (has(self.scheduler) && has(self.scheduler.dueTime) ? duration(self.scheduler.dueTime).getMilliseconds() : 1000) * (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 268435456000)",message="a Scheduler run of jobs or reminders holds load.qps × scheduler.dueTime × the payload in Dapr's scheduler, which every namespace's jobs, reminders and workflows share: at most 256 MiB at once (1000 rps × 1s × 64 KiB is 64 MiB)"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Scheduler' || (!has(self.protocol.caller) || self.protocol.caller == 'HTTP')",message="a Scheduler run registers over daprd's HTTP API (protocol.caller HTTP): its triggers come to the load tester's HTTP app server"
// +kubebuilder:validation:XValidation:rule="!has(self.configuration) || self.scenario == 'Configuration'",message="configuration may only be set when scenario is Configuration"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Configuration' || !has(self.target) || !(has(self.target.image) || has(self.target.nodeSelector) || has(self.target.tolerations) || has(self.target.affinity) || (has(self.target.resources) && (has(self.target.resources.requests) || has(self.target.resources.limits))))",message="target configures a target app, and a Configuration run has none: its load ends at the configuration store"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Configuration' || !has(self.profiling)",message="profiling profiles the target's daprd, and a Configuration run has no target: the load tester's own daprd reads the store"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Configuration' || (has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) <= 65536",message="a Configuration run's payload must be at most 64 KiB: every item is written into the store before the load, as its value"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Configuration' || ((has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024)) >= 1)",message="a Configuration run's items need a value: the payload must be at least 1 byte (configuration.redis returns no item whose value is empty)"
// +kubebuilder:validation:XValidation:rule="self.scenario != 'Configuration' || (!has(self.baseline) || self.baseline)",message="baseline cannot be false for Configuration: the baseline's client writes the store's items before the load (daprd's configuration API only reads them)"
// +kubebuilder:validation:XValidation:rule="!has(self.dapr.enabled) || self.dapr.enabled || self.scenario == 'ServiceInvocation'",message="dapr.enabled=false needs scenario ServiceInvocation: the other scenarios' Dapr APIs (actors, state, pub/sub, workflows, jobs, configuration) only exist behind a sidecar"
// +kubebuilder:validation:XValidation:rule="!has(self.variants) || (self.scenario == 'ServiceInvocation' && (!has(self.dapr.enabled) || self.dapr.enabled))",message="variants compare sidecars: they need scenario ServiceInvocation with dapr.enabled"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || !self.faults.exists(f, !((has(f.role) && f.role == 'Store') || (has(f.role) && f.role == 'LoadTester') || (has(f.role) && f.role in ['Scheduler', 'Placement', 'Sentry']))) || (((self.scenario == 'ServiceInvocation' && !(has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths') && (!has(self.protocol.app) || self.protocol.app == 'HTTP') && (!has(self.variants) || self.variants.all(v, !has(v.appProtocol) || v.appProtocol == 'HTTP')))) && (!has(self.dapr.enabled) || self.dapr.enabled))",message="faults are ordered from the target app in the measured Dapr phases (all but a PodKill of the Store, a LoadTester or the control plane): they need a run through Dapr of scenario ServiceInvocation with protocol.app HTTP (every variant's appProtocol too) and the standard paths"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || !self.faults.exists(f, (has(f.role) && f.role in ['Scheduler', 'Placement', 'Sentry'])) || (!has(self.dapr.enabled) || self.dapr.enabled)",message="a PodKill of Scheduler, Placement or Sentry takes Dapr's control plane down in the measured Dapr phases: it needs a run through Dapr (dapr.enabled)"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || !self.faults.exists(f, (has(f.role) && f.role == 'Store')) || (((self.scenario == 'PubSub' && !(has(self.pubsub) && has(self.pubsub.component)))) && (!has(self.dapr.enabled) || self.dapr.enabled))",message="a PodKill of the Store deletes the store the run deploys, in the measured Dapr phases: it needs a run through Dapr of scenario PubSub on the broker the run deploys (no pubsub.component)"
// +kubebuilder:validation:XValidation:rule="!(self.scenario in ['State', 'PubSub', 'Workflow', 'Scheduler', 'Configuration']) || !has(self.protocol.app) || self.protocol.app == 'HTTP'",message="State, PubSub, Workflow, Scheduler and Configuration have no app (protocol.app HTTP, its default)"
// +kubebuilder:validation:XValidation:rule="!has(self.thresholds) || !(has(self.thresholds.maxAddedP90) || has(self.thresholds.maxAddedP99)) || ((self.scenario in ['ServiceInvocation', 'State', 'PubSub', 'Configuration']) && (!has(self.dapr.enabled) || self.dapr.enabled) && (has(self.baseline) ? self.baseline : ((self.scenario == 'ServiceInvocation' && (!has(self.dapr.enabled) || self.dapr.enabled)) || (self.scenario == 'State' && !(has(self.state) && has(self.state.component))) || (self.scenario == 'PubSub' && !(has(self.pubsub) && has(self.pubsub.component))) || (self.scenario == 'Configuration' && true))))",message="thresholds.maxAddedP90/maxAddedP99 need added latency: a ServiceInvocation, State, PubSub or Configuration run through Dapr with the baseline on"
// +kubebuilder:validation:XValidation:rule="!has(self.timeout) || !has(self.load.warmup) || !has(self.load.duration) || duration(self.timeout).getSeconds() > duration(self.load.warmup).getSeconds() + duration(self.load.duration).getSeconds() * (has(self.load.repetitions) ? self.load.repetitions : 1) * ((has(self.variants) ? self.variants.size() : 1) + ((has(self.baseline) ? self.baseline : ((self.scenario == 'ServiceInvocation' && (!has(self.dapr.enabled) || self.dapr.enabled)) || (self.scenario == 'State' && !(has(self.state) && has(self.state.component))) || (self.scenario == 'PubSub' && !(has(self.pubsub) && has(self.pubsub.component))) || (self.scenario == 'Configuration' && true))) ? 1 : 0) + ((has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths') ? 2 : 0))",message="timeout must be longer than warmup + duration × repetitions × paths (the variants, 1 without, plus 1 for a baseline, plus 2 for the one-sidecar paths of FourPaths), the time the load alone takes"
// +kubebuilder:validation:XValidation:rule="has(self.timeout) || !has(self.load.warmup) || !has(self.load.duration) || duration(self.load.warmup).getSeconds() + duration(self.load.duration).getSeconds() * (has(self.load.repetitions) ? self.load.repetitions : 1) * ((has(self.variants) ? self.variants.size() : 1) + ((has(self.baseline) ? self.baseline : ((self.scenario == 'ServiceInvocation' && (!has(self.dapr.enabled) || self.dapr.enabled)) || (self.scenario == 'State' && !(has(self.state) && has(self.state.component))) || (self.scenario == 'PubSub' && !(has(self.pubsub) && has(self.pubsub.component))) || (self.scenario == 'Configuration' && true))) ? 1 : 0) + ((has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths') ? 2 : 0)) + 300 <= 259200",message="the derived timeout (warmup + duration × repetitions × paths + 5m) exceeds the 72h limit of a run: shorten load.duration or load.repetitions"
// +daprbench:generated-scenario-rules:end
// +kubebuilder:validation:XValidation:rule="!has(self.dapr) || !has(self.dapr.configuration) || !has(self.variants) || self.variants.all(v, !has(v.tracingSamplingRate))",message="variants: with spec.dapr.configuration, a variant's tracingSamplingRate would put it on a Configuration holding only that rate, without the named one's middleware and features: name a Configuration with that rate in the variant's configuration instead"
// +kubebuilder:validation:XValidation:rule="!has(self.dapr.enabled) || self.dapr.enabled || !has(self.baseline) || !self.baseline",message="baseline cannot be true with dapr.enabled=false: the direct path is then the result itself"
// +kubebuilder:validation:XValidation:rule="!has(self.thresholds) || !(has(self.thresholds.maxSidecarCPUPer1kQPS) || has(self.thresholds.maxSidecarMemoryPer1kQPS) || has(self.thresholds.maxSidecarMemoryGrowthPerHour) || has(self.thresholds.maxSidecarGoroutineGrowthPerHour)) || !has(self.dapr.enabled) || self.dapr.enabled",message="thresholds.maxSidecarCPUPer1kQPS/maxSidecarMemoryPer1kQPS/maxSidecarMemoryGrowthPerHour/maxSidecarGoroutineGrowthPerHour need a sidecar: they cannot be set with dapr.enabled=false"
// +kubebuilder:validation:XValidation:rule="!has(self.loadTester) || !has(self.loadTester.replicas) || (self.loadTester.replicas <= self.load.qps && self.loadTester.replicas <= (has(self.load.connections) ? self.load.connections : 16))",message="loadTester.replicas must not exceed load.connections nor load.qps: every load-tester pod needs a connection and a share of the rate"
// +kubebuilder:validation:XValidation:rule="!has(self.profiling) || !has(self.dapr.enabled) || self.dapr.enabled",message="profiling profiles the daprd sidecars: it needs dapr.enabled"
// +kubebuilder:validation:XValidation:rule="!has(self.variants) || !has(self.load.repetitions) || self.load.repetitions >= 2 || self.variants.all(v, !has(v.thresholds))",message="variants[].thresholds need load.repetitions of 2 or more: with one repetition a variant's difference has no interval and its thresholds could only read Inconclusive",fieldPath=".variants"
// +kubebuilder:validation:XValidation:rule="!has(self.profiling) || !has(self.variants) || self.variants.all(v, !has(v.annotations) || !('dapr.io/enable-profiling' in v.annotations))",message="a variant's dapr.io/enable-profiling annotation conflicts with spec.profiling, which turns daprd's profiler on for every sidecar alike: remove the annotation"
// +kubebuilder:validation:XValidation:rule="!has(self.profiling) || (has(self.profiling.seconds) ? self.profiling.seconds : 10) + 4 <= ((has(self.load.repetitions) ? self.load.repetitions : 3) == 1 && (has(self.load.duration) ? duration(self.load.duration).getSeconds() : 60) >= 60 ? (has(self.load.duration) ? duration(self.load.duration).getSeconds() : 60) / 2 : (has(self.load.duration) ? duration(self.load.duration).getSeconds() : 60))",message="profiling.seconds must leave 2s of the profiled phase on each side of its window (the phase's edges, where load ramps, are not measured): at most load.duration − 4s, or half of it less 4s with one repetition of 60s or more (measured in two halves)"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || (has(self.load.repetitions) ? self.load.repetitions : 3) % 2 == 0 || ((has(self.load.repetitions) ? self.load.repetitions : 3) == 1 && has(self.load.duration) && duration(self.load.duration) < duration('60s'))",message="faults need an even load.repetitions (2, 4, …), or one repetition with load.duration under 60s: otherwise one repetition is measured in two halves, and a fault is timed within a whole phase",fieldPath=".faults"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || self.faults.all(f, duration(f.at) + duration(f.duration) + duration('3s') <= (has(self.load.duration) ? duration(self.load.duration) : duration('60s')))",message="faults: each fault's at + duration must end 3s or more before load.duration, the phase it is timed in, so the path has the seconds to show it recovered",fieldPath=".faults"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || !has(self.load.duration) || duration(self.load.duration) <= duration('10m')",message="faults need load.duration of at most 10m: a fault run reports every second of its Dapr phases",fieldPath=".faults"
// +kubebuilder:validation:XValidation:rule="!has(self.thresholds) || !(has(self.thresholds.maxFaultErrorPercent) || has(self.thresholds.maxRecovery)) || (has(self.faults) && size(self.faults) > 0)",message="thresholds.maxFaultErrorPercent/maxRecovery judge what a fault cost: they need spec.faults",fieldPath=".thresholds"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || self.faults.all(f, has(f.role) && f.role == 'LoadTester') || !has(self.loadTester) || !has(self.loadTester.replicas) || self.loadTester.replicas == 1",message="faults need loadTester.replicas 1 (but a PodKill of a LoadTester): the app's count of what it saw is set against the requests one load tester sent",fieldPath=".faults"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || !self.faults.exists(f, has(f.role) && f.role == 'LoadTester') || (has(self.loadTester) && has(self.loadTester.replicas) && self.loadTester.replicas >= 2 && self.scenario == 'ServiceInvocation' && (!has(self.dapr.enabled) || self.dapr.enabled))",message="a PodKill of a LoadTester deletes the last of the run's load-tester pods in the measured Dapr phases: it needs loadTester.replicas 2 or more and a ServiceInvocation run through Dapr (dapr.enabled; another scenario's replacement would seed its store or items again mid-phase)",fieldPath=".faults"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || !self.faults.exists(f, has(f.role) && f.role in ['Target', 'Store']) || (has(self.baseline) && !self.baseline)",message="a PodKill of the Target or the Store needs baseline: false: the baseline reaches the killed pod directly (the target pod's own address, the broker's streams and group), which the kill ends",fieldPath=".faults"
// +kubebuilder:validation:XValidation:rule="!has(self.faults) || !self.faults.exists(f, has(f.role) && f.role in ['Target', 'Store']) || !has(self.profiling)",message="a PodKill of the Target or the Store cannot be profiled: the profile is taken through the target pod the kill ends",fieldPath=".faults"
type PerfRunSpec struct {
	// scenario is what is measured: ServiceInvocation, ActorActivation, State, PubSub,
	// Workflow or Scheduler. It cannot
	// change: a run's children are its scenario's (create another run instead).
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="scenario cannot be changed: create another run"
	// +required
	Scenario Scenario `json:"scenario"`

	// load is the shape of the load: rate, connections, duration and body.
	// +required
	Load LoadSpec `json:"load"`

	// baseline also measures the path without sidecars and reports added latency (Dapr
	// minus baseline, per percentile). When unset: true for ServiceInvocation with Dapr
	// enabled, for State on a store the run deploys and for PubSub on a broker it deploys,
	// false otherwise. ActorActivation refuses true: an actor cannot be called without a
	// sidecar. A State or PubSub baseline calls the store or broker with its own Go client
	// from the load tester's pod.
	// +optional
	Baseline *bool `json:"baseline,omitempty"`

	// serviceInvocation configures ServiceInvocation; only allowed with that scenario.
	// When unset the defaults of each field below apply.
	// +optional
	ServiceInvocation *ServiceInvocationSpec `json:"serviceInvocation,omitempty"`

	// dapr is the sidecar setup the run measures and what it expects of the cluster.
	// +kubebuilder:default={}
	// +optional
	Dapr DaprSpec `json:"dapr,omitempty"`

	// protocol is how a ServiceInvocation run's requests travel: the caller to its sidecar,
	// the target's sidecar to the app. ActorActivation is measured over HTTP.
	// +kubebuilder:default={}
	// +optional
	Protocol ProtocolSpec `json:"protocol,omitempty"`

	// variants compares sidecar setups of the target in one run: each variant gets a target
	// of its own (same image, resources and placement), measured interleaved with the others
	// and with the baseline through the same load tester and its one sidecar, so only the
	// target's sidecar differs. The result holds each variant's figures and its difference
	// from the first, which each later variant's thresholds may gate. Needs ServiceInvocation
	// through Dapr.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=4
	// +kubebuilder:validation:XValidation:rule="self.size() == 0 || !has(self[0].thresholds)",message="variants[0].thresholds: the first variant is the reference the others are compared with; set thresholds on a later variant"
	// +listType=map
	// +listMapKey=name
	// +optional
	Variants []SidecarVariant `json:"variants,omitempty"`

	// actors configures ActorActivation; only allowed with that scenario.
	// When unset the defaults of each field below apply.
	// +optional
	Actors *ActorsSpec `json:"actors,omitempty"`

	// state configures State; only allowed with that scenario.
	// When unset the defaults of each field below apply.
	// +optional
	State *StateSpec `json:"state,omitempty"`

	// pubsub configures PubSub; only allowed with that scenario.
	// +optional
	PubSub *PubSubSpec `json:"pubsub,omitempty"`

	// workflow configures Workflow; only allowed with that scenario.
	// +optional
	Workflow *WorkflowSpec `json:"workflow,omitempty"`

	// scheduler configures Scheduler; only allowed with that scenario.
	// +optional
	Scheduler *SchedulerSpec `json:"scheduler,omitempty"`

	// configuration configures Configuration, the scenario of Dapr's configuration API; only
	// allowed with that scenario. (A Dapr Configuration resource for the sidecars is named
	// by dapr.configuration.)
	// +optional
	Configuration *ConfigurationSpec `json:"configuration,omitempty"`

	// target customises the target app's pods (and its baseline twin's).
	// +optional
	Target WorkloadSpec `json:"target,omitempty"`

	// loadTester customises the load tester's pods, and how many share the load.
	// +optional
	LoadTester LoadTesterSpec `json:"loadTester,omitempty"`

	// placement says where the load tester runs relative to the target:
	// Any (the scheduler decides; recorded in status), SameNode or DifferentNodes.
	// +kubebuilder:default=Any
	// +optional
	Placement Placement `json:"placement,omitempty"`

	// timeout bounds the whole run, from start to result. When unset it is derived:
	// warmup + duration × repetitions × variants, plus 5 minutes for start-up and collection.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^-?([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('30s') && duration(self) <= duration('72h')",message="timeout must be between 30s and 72h"
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`

	// thresholds are gates on the result, reported in the ThresholdsMet condition.
	// +optional
	Thresholds *Thresholds `json:"thresholds,omitempty"`

	// exclusive makes the run measure alone on its nodes: before its load starts it waits
	// (condition Queued) while another run measures, or waits ahead of it, on a node it may
	// use; waiting runs take turns by namespace, then first come, first served. false waits
	// only for exclusive runs, never for other shared ones: for runs that may disturb each
	// other, never beside an exclusive one.
	// +kubebuilder:default=true
	// +optional
	Exclusive *bool `json:"exclusive,omitempty"`

	// maxQueueWait bounds how long a run waits for its turn or its namespace's share (1h when
	// unset): past it the run fails QueueTimeout, so no run blocks another tenant's without
	// bound. Time queued does not count toward spec.timeout.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('168h')",message="maxQueueWait must be above 0s and at most 168h"
	// +optional
	MaxQueueWait *metav1.Duration `json:"maxQueueWait,omitempty"`

	// profiling takes a CPU profile of the server's and the client's daprd during a measured
	// phase of the Dapr path (dapr.io/enable-profiling); `kubectl daprbench report` lists
	// their top functions and draws a flame graph. Needs Dapr enabled.
	// +optional
	Profiling *ProfilingSpec `json:"profiling,omitempty"`

	// faults are trouble the run makes on purpose in every measured phase of the Dapr path,
	// at the same time in each: the result says what each cost (status.result.faults: the
	// error share and latency before, during and after it, the time to recover, the requests
	// the app saw per request sent, a PubSub run's messages lost and duplicated). A run with faults sets an even load.repetitions, or
	// one repetition with load.duration under 60s (the default 3 is refused: no phase may be
	// split in two), loadTester.replicas 1 and a
	// load.duration of at most 10m, each fault ending 3s or more before it. One fault a run
	// for now: a second one's band and recovery would be judged across the first. The run's
	// headline figures take in the fault's seconds.
	// +kubebuilder:validation:MaxItems=1
	// +listType=atomic
	// +optional
	Faults []Fault `json:"faults,omitempty"`

	// cleanup says when the run's workloads are deleted once it has finished:
	// Always, OnSuccess (keep a failed run's pods for inspection; a cancelled run's go) or
	// Never (a cancelled run's stay too).
	// The PerfRun itself is never deleted by the operator.
	// +kubebuilder:default=OnSuccess
	// +optional
	Cleanup CleanupPolicy `json:"cleanup,omitempty"`
}

// Thresholds are gates on a run's result. With repetitions, a latency threshold that lies
// inside the spread of the measured values (lowest <= limit < highest) is Inconclusive rather
// than a coin-flip pass or fail.
type Thresholds struct {
	// maxAddedP90 is the most latency Dapr may add at p90 (Dapr's own gate: 2ms).
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxAddedP90 must be above 0s and at most 1h"
	// +optional
	MaxAddedP90 *metav1.Duration `json:"maxAddedP90,omitempty"`
	// maxAddedP99 is the most latency Dapr may add at p99.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxAddedP99 must be above 0s and at most 1h"
	// +optional
	MaxAddedP99 *metav1.Duration `json:"maxAddedP99,omitempty"`
	// maxP90 is the highest p90 of the measured path.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxP90 must be above 0s and at most 1h"
	// +optional
	MaxP90 *metav1.Duration `json:"maxP90,omitempty"`
	// maxP99 is the highest p99 of the measured path.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxP99 must be above 0s and at most 1h"
	// +optional
	MaxP99 *metav1.Duration `json:"maxP99,omitempty"`
	// maxDeliveryP99 is the highest p99 of a PubSub run's delivery through Dapr, from each
	// message's scheduled publish to the subscriber's handler (the result document's result.delivery.latency).
	// Only with scenario PubSub.
	// Judged from 1000 or more samples (ten beyond the p99); fewer read inconclusive.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxDeliveryP99 must be above 0s and at most 1h"
	// +optional
	MaxDeliveryP99 *metav1.Duration `json:"maxDeliveryP99,omitempty"`
	// maxLostMessages is the most published messages a PubSub run's Dapr path may leave
	// undelivered (the result document's result.delivery.messages.lost). Only with scenario PubSub.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MaxLostMessages *int64 `json:"maxLostMessages,omitempty"`
	// maxCompletionP99 is the highest p99 of a Workflow run's completion, from each
	// instance's scheduled start to its completion (the result document's result.completion.latency).
	// Only with scenario Workflow.
	// Judged from 1000 or more samples (ten beyond the p99); fewer read inconclusive.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxCompletionP99 must be above 0s and at most 1h"
	// +optional
	MaxCompletionP99 *metav1.Duration `json:"maxCompletionP99,omitempty"`
	// maxFailedWorkflows is the most started instances a Workflow run may leave failed or
	// unfinished (the result document's result.completion.workflows). Only with scenario Workflow.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MaxFailedWorkflows *int64 `json:"maxFailedWorkflows,omitempty"`
	// maxTriggerLatenessP99 is the highest p99 of a Scheduler run's trigger lateness, each
	// trigger's receipt minus its registration's slot plus its due time
	// (the result document's result.triggers.lateness). Only with scenario Scheduler.
	// Judged from 1000 or more samples (ten beyond the p99); fewer read inconclusive.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('1h')",message="maxTriggerLatenessP99 must be above 0s and at most 1h"
	// +optional
	MaxTriggerLatenessP99 *metav1.Duration `json:"maxTriggerLatenessP99,omitempty"`
	// maxMissedTriggers is the most registered jobs or reminders a Scheduler run may leave
	// untriggered or triggered twice (the result document's result.triggers.counts). Only with scenario Scheduler.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MaxMissedTriggers *int64 `json:"maxMissedTriggers,omitempty"`
	// maxFaultErrorPercent is the most errors a fault may cause, in percent of the requests
	// due in the seconds it touched (the result document's result.faults[].during), judged
	// on that share's 95% Wilson interval: met when its high end is within the limit,
	// violated when its low end is above it, inconclusive between. 0 is judged on the count,
	// as maxErrors is: any error violates it. Only with spec.faults.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	MaxFaultErrorPercent *int32 `json:"maxFaultErrorPercent,omitempty"`
	// maxRecovery is the longest a fault's path may take to come back after it ends (the
	// result document's result.faults[].slowestRecovery), judged on every phase the fault
	// was applied in: a phase not recovered before its end violates it, and one without
	// enough seconds before the fault to judge leaves it inconclusive. Only with spec.faults.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('0s') && duration(self) <= duration('10m')",message="maxRecovery must be between 0s and 10m (a fault run's load.duration is at most 10m)"
	// +optional
	MaxRecovery *metav1.Duration `json:"maxRecovery,omitempty"`
	// minQPSPercent is the lowest actual rate, in percent of the requested rate (Dapr's gate: 99).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	MinQPSPercent *int32 `json:"minQPSPercent,omitempty"`
	// maxErrors is the most non-200 responses (socket errors included) allowed.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MaxErrors *int64 `json:"maxErrors,omitempty"`
	// maxRestarts is the most container restarts allowed, over every role.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MaxRestarts *int32 `json:"maxRestarts,omitempty"`
	// maxSidecarCPUPer1kQPS is the most CPU the target's sidecar may use per 1000 rps.
	// +kubebuilder:validation:XValidation:rule="size(string(self)) <= 32 && quantity(string(self)).compareTo(quantity('0')) >= 0",message="maxSidecarCPUPer1kQPS must not be negative (a quantity of at most 32 characters)"
	// +optional
	MaxSidecarCPUPer1kQPS *resource.Quantity `json:"maxSidecarCPUPer1kQPS,omitempty"`
	// maxSidecarMemoryPer1kQPS is the most memory (working set, not scaled by the rate: see
	// the result document's result.resources.sidecarPer1kQPS) the target's sidecar may use.
	// +kubebuilder:validation:XValidation:rule="size(string(self)) <= 32 && quantity(string(self)).compareTo(quantity('0')) >= 0",message="maxSidecarMemoryPer1kQPS must not be negative (a quantity of at most 32 characters)"
	// +optional
	MaxSidecarMemoryPer1kQPS *resource.Quantity `json:"maxSidecarMemoryPer1kQPS,omitempty"`
	// maxSidecarMemoryGrowthPerHour is the most a sidecar's working set may grow an hour
	// (the result document's result.memoryTrends, e.g. 10Mi), judged on each sidecar's
	// slope interval: violated when its low end is above the limit, met when its high end is
	// within it, inconclusive between, and on a run whose measured load spans under 10
	// minutes (no trend is fitted). A soak run's leak gate.
	// +kubebuilder:validation:XValidation:rule="size(string(self)) <= 32 && quantity(string(self)).compareTo(quantity('0')) >= 0",message="maxSidecarMemoryGrowthPerHour must not be negative (a quantity of at most 32 characters)"
	// +optional
	MaxSidecarMemoryGrowthPerHour *resource.Quantity `json:"maxSidecarMemoryGrowthPerHour,omitempty"`
	// maxSidecarGoroutineGrowthPerHour is the most a daprd's goroutines may grow an hour (the
	// result document's result.daprdTrends, gauge goroutines, e.g. 60), judged on each
	// daprd's slope interval as maxSidecarMemoryGrowthPerHour is, and inconclusive on a run
	// whose measured load spans under 10 minutes. A soak run's gate on leaked goroutines.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	// +optional
	MaxSidecarGoroutineGrowthPerHour *int32 `json:"maxSidecarGoroutineGrowthPerHour,omitempty"`
	// maxLatencyDriftPerHour is the most the measured path's p90 may rise an hour (the
	// result document's result.latencyDrift, e.g. 2ms), judged on its slope interval as
	// maxSidecarMemoryGrowthPerHour is, and inconclusive on a run whose measured load spans
	// under 10 minutes. A soak run's gate on a path that slows as it ages.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('0s') && duration(self) <= duration('1h')",message="maxLatencyDriftPerHour must be between 0s and 1h"
	// +optional
	MaxLatencyDriftPerHour *metav1.Duration `json:"maxLatencyDriftPerHour,omitempty"`
	// failRun makes a violated threshold fail the run (reason ThresholdsViolated); otherwise
	// only the ThresholdsMet condition says so and the run succeeds.
	// +optional
	FailRun bool `json:"failRun,omitempty"`
}

// LoadSpec is the shape of the load. Its bandwidth, qps × body, is bounded by 100 Gbit/s
// (12.5e9 bytes/s): beyond any node's network, such a run could only measure saturation.
// (A literal payload, at most 64 KiB × 100000 qps, stays below it.)
// +kubebuilder:validation:XValidation:rule="!has(self.payloadBytes) || self.qps * self.payloadBytes <= 12500000000",message="qps × payloadBytes must be at most 12.5e9 bytes/s (100 Gbit/s): no node's network carries more"
// +kubebuilder:validation:XValidation:rule="!(has(self.payloadBytes) && has(self.payload))",message="payloadBytes and payload are mutually exclusive: set one"
// +kubebuilder:validation:XValidation:rule="!has(self.connections) || !has(self.duration) || self.connections <= self.qps * duration(self.duration).getSeconds()",message="connections must not exceed the requests one run sends (qps × duration): the extra connections would never send"
type LoadSpec struct {
	// qps is the requested rate, in requests per second, across all connections.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +required
	QPS int32 `json:"qps"`

	// connections is the number of concurrent connections (fortio's -c).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1024
	// +kubebuilder:default=16
	// +optional
	Connections int32 `json:"connections,omitempty"`

	// duration of one measured run (one variant, one repetition), between 5s and 24h.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^-?([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('5s') && duration(self) <= duration('24h')",message="duration must be between 5s and 24h"
	// +kubebuilder:default="60s"
	// +optional
	Duration *metav1.Duration `json:"duration,omitempty"`

	// warmup is an unmeasured run at qps through every measured path (split evenly over
	// them) before the measurements start, between 0s and 10m. The result document's
	// result.firstRepetitions shows whether it warmed.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^-?([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('0s') && duration(self) <= duration('10m')",message="warmup must be between 0s and 10m"
	// +kubebuilder:default="10s"
	// +optional
	Warmup *metav1.Duration `json:"warmup,omitempty"`

	// repetitions is how many times each variant is measured; the runs are interleaved
	// A B B A A B … so drift hits every path alike. The added latency's interval comes from
	// the spread between repetitions: 3 (the default) is the fewest that measures it with two
	// degrees of freedom (Student's t 4.3 where 2 repetitions give 12.7); with 1 the interval
	// is within-run only and cannot see a rerun's drift.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=3
	// +optional
	Repetitions int32 `json:"repetitions,omitempty"`

	// payloadBytes is the size of a random request body (any body makes the request a POST).
	// Mutually exclusive with payload. When neither is set: 1024 for ServiceInvocation.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=4194304
	// +optional
	PayloadBytes *int32 `json:"payloadBytes,omitempty"`

	// payload is a literal request body, e.g. "{}". Mutually exclusive with payloadBytes.
	// When neither is set: "{}" for ActorActivation.
	// +kubebuilder:validation:MaxLength=65536
	// +optional
	Payload *string `json:"payload,omitempty"`

	// arrival is when each connection's requests go out. Synchronized (fortio's default, as
	// Dapr's own suite runs it): every connection sends at the same instant, so requests
	// arrive in bursts of one per connection and queue behind each other. Uniform (fortio's
	// -uniform, as Istio's benchmark runs it, without its jitter: latency is timed from each
	// request's scheduled send, which jitter would hide): the connections are staggered
	// evenly over their period, a steady stream. Latency under Uniform is lower
	// and does not depend on how the load is split over load-tester pods; compare only runs
	// of the same arrival.
	// +kubebuilder:default=Synchronized
	// +optional
	Arrival Arrival `json:"arrival,omitempty"`
}

// EffectiveArrival is the arrival pattern (Synchronized when unset).
func (l LoadSpec) EffectiveArrival() Arrival {
	if l.Arrival == "" {
		return ArrivalSynchronized
	}
	return l.Arrival
}

// Arrival is when each connection's requests go out.
// +kubebuilder:validation:Enum=Synchronized;Uniform
type Arrival string

const (
	// ArrivalSynchronized sends every connection's request at the same instant (bursts).
	ArrivalSynchronized Arrival = "Synchronized"
	// ArrivalUniform staggers the connections evenly (a steady stream).
	ArrivalUniform Arrival = "Uniform"
)

// DaprSpec is the Dapr side of a run.
// +kubebuilder:validation:XValidation:rule="!has(self.configuration) || !has(self.enabled) || self.enabled",message="configuration names the Dapr Configuration the run's sidecars load, and enabled: false runs no sidecar: drop one of them"
// +kubebuilder:validation:XValidation:rule="!has(self.configuration) || !has(self.tracingSamplingRate) || self.tracingSamplingRate == '0.1'",message="tracingSamplingRate sets the Configuration the run writes; with configuration set, the named Configuration's own spec.tracing.samplingRate is measured (status.environment.daprConfigurations records it): set the rate there and leave tracingSamplingRate unset"
type DaprSpec struct {
	// enabled measures through Dapr sidecars. false measures only the direct, sidecar-free
	// path (the cluster's own network floor) and needs ServiceInvocation.
	// +kubebuilder:default=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// mtls is what the run expects of the cluster: mTLS is cluster-wide in Dapr (the
	// control plane's daprsystem Configuration), so a run whose expectation differs fails
	// with reason MTLSMismatch instead of measuring something else.
	// +kubebuilder:default=Enabled
	// +optional
	MTLS MTLSMode `json:"mtls,omitempty"`

	// tracingSamplingRate is the tracing sampling rate of the run's Dapr Configuration, a
	// decimal string in [0,1]: "0" disables tracing, "1" samples every request.
	// +kubebuilder:validation:Pattern=`^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$`
	// +kubebuilder:validation:MaxLength=8
	// +kubebuilder:default="0.1"
	// +optional
	TracingSamplingRate string `json:"tracingSamplingRate,omitempty"`

	// configuration names an existing Dapr Configuration in the run's namespace for every
	// sidecar of the run (dapr.io/config), instead of the one the run writes: your own
	// tracing, middleware, API allowlists and features, measured as you run them. The run
	// fails with reason ConfigurationNotFound when it does not exist; the run never changes
	// or deletes it. status.environment.daprConfigurations records its generation and the
	// settings that shape a figure. Empty: the run writes a Configuration of its own holding
	// tracingSamplingRate only.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// +optional
	Configuration string `json:"configuration,omitempty"`

	// sidecar sets the daprd sidecar's resources (the dapr.io/sidecar-* annotations).
	// +kubebuilder:default={}
	// +optional
	Sidecar SidecarSpec `json:"sidecar,omitempty"`

	// logLevel is daprd's log level (dapr.io/log-level).
	// +kubebuilder:default=info
	// +optional
	LogLevel LogLevel `json:"logLevel,omitempty"`

	// controlPlaneNamespace states where the run expects Dapr's control plane. The operator
	// reads the control plane only in its own configured namespace (manager flag
	// --dapr-namespace, Helm value daprNamespace): a run naming another fails
	// ControlPlaneNotAllowed before anything is created, since a namespace a tenant controls
	// could hold a look-alike injector that widens the image allowlist. Empty: the operator's.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	ControlPlaneNamespace string `json:"controlPlaneNamespace,omitempty"`
}

// SidecarSpec sets daprd's resources. Dapr's published numbers limit the sidecar to 0.5 vCPU.
// +kubebuilder:validation:XValidation:rule="!has(self.cpuRequest) || !has(self.cpuLimit) || quantity(string(self.cpuRequest)).compareTo(quantity(string(self.cpuLimit))) <= 0",message="cpuRequest must not exceed cpuLimit"
// +kubebuilder:validation:XValidation:rule="!has(self.memoryRequest) || !has(self.memoryLimit) || quantity(string(self.memoryRequest)).compareTo(quantity(string(self.memoryLimit))) <= 0",message="memoryRequest must not exceed memoryLimit"
type SidecarSpec struct {
	// cpuLimit is dapr.io/sidecar-cpu-limit.
	// +kubebuilder:default="500m"
	// +kubebuilder:validation:XValidation:rule="size(string(self)) <= 32 && quantity(string(self)).compareTo(quantity('0')) > 0",message="cpuLimit must be positive (a quantity of at most 32 characters)"
	// +optional
	CPULimit *resource.Quantity `json:"cpuLimit,omitempty"`
	// cpuRequest is dapr.io/sidecar-cpu-request.
	// +kubebuilder:validation:XValidation:rule="size(string(self)) <= 32 && quantity(string(self)).compareTo(quantity('0')) >= 0",message="cpuRequest must not be negative (a quantity of at most 32 characters)"
	// +optional
	CPURequest *resource.Quantity `json:"cpuRequest,omitempty"`
	// memoryLimit is dapr.io/sidecar-memory-limit.
	// +kubebuilder:validation:XValidation:rule="size(string(self)) <= 32 && quantity(string(self)).compareTo(quantity('0')) > 0",message="memoryLimit must be positive (a quantity of at most 32 characters)"
	// +optional
	MemoryLimit *resource.Quantity `json:"memoryLimit,omitempty"`
	// memoryRequest is dapr.io/sidecar-memory-request.
	// +kubebuilder:validation:XValidation:rule="size(string(self)) <= 32 && quantity(string(self)).compareTo(quantity('0')) >= 0",message="memoryRequest must not be negative (a quantity of at most 32 characters)"
	// +optional
	MemoryRequest *resource.Quantity `json:"memoryRequest,omitempty"`
}

// WorkloadSpec customises the pods of one role.
// +kubebuilder:validation:XValidation:rule="!has(self.resources) || !has(self.resources.requests) || !has(self.resources.limits) || !('cpu' in self.resources.requests && 'cpu' in self.resources.limits) || quantity(string(self.resources.requests['cpu'])).compareTo(quantity(string(self.resources.limits['cpu']))) <= 0",message="resources.requests.cpu must not exceed resources.limits.cpu"
// +kubebuilder:validation:XValidation:rule="!has(self.resources) || !has(self.resources.requests) || !has(self.resources.limits) || !('memory' in self.resources.requests && 'memory' in self.resources.limits) || quantity(string(self.resources.requests['memory'])).compareTo(quantity(string(self.resources.limits['memory']))) <= 0",message="resources.requests.memory must not exceed resources.limits.memory"
type WorkloadSpec struct {
	// image overrides the image (by default the operator's own, which holds every binary). It
	// must lie under a prefix the operator allows (its own repository, or
	// --allowed-image-prefixes; for the load tester --allowed-load-tester-image-prefixes).
	// Only the characters of an image reference
	// ([registry[:port]/]path[:tag][@digest]) in the grammar the kubelet parses
	// (ImageReferencePattern): it is repeated in conditions and summaries, where a control
	// byte or markup would reach the reader, and a name the kubelet cannot pull fails here,
	// not minutes later as InvalidImageName.
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,127})?(?:@(?:sha256:[a-f0-9]{64}|sha384:[a-f0-9]{96}|sha512:[a-f0-9]{128}))?$`
	// +optional
	Image string `json:"image,omitempty"`

	// resources of the role's main container: cpu, memory and ephemeral-storage, the only
	// resources the operator's own binaries use. No claims: the run's pods declare none.
	// The rules below iterate the three names, not the map, so their cost stays constant.
	// +kubebuilder:validation:XValidation:rule="!has(self.claims)",message="resources.claims is not supported: the run's pods declare no resource claims"
	// +kubebuilder:validation:XValidation:rule="!has(self.requests) || size(self.requests) == ['cpu', 'memory', 'ephemeral-storage'].filter(r, r in self.requests).size()",message="resources.requests may only name cpu, memory and ephemeral-storage"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || size(self.limits) == ['cpu', 'memory', 'ephemeral-storage'].filter(r, r in self.limits).size()",message="resources.limits may only name cpu, memory and ephemeral-storage"
	// +kubebuilder:validation:XValidation:rule="!has(self.requests) || ['cpu', 'memory', 'ephemeral-storage'].all(r, !(r in self.requests) || (size(string(self.requests[r])) <= 32 && quantity(string(self.requests[r])).compareTo(quantity('0')) >= 0))",message="resources.requests: a quantity must be at most 32 characters and not negative"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || ['cpu', 'memory', 'ephemeral-storage'].all(r, !(r in self.limits) || (size(string(self.limits[r])) <= 32 && quantity(string(self.limits[r])).compareTo(quantity('0')) >= 0))",message="resources.limits: a quantity must be at most 32 characters and not negative"
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`

	// nodeSelector constrains the role's pods to nodes with these labels: at most 8, of
	// Kubernetes' own maximum label sizes (a 317-character key, a 63-character value).
	// +kubebuilder:validation:MaxProperties=8
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 317 && size(self[k]) <= 63)",message="nodeSelector: a key must be at most 317 characters and a value at most 63, as a node label"
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$') && k.indexOf('/') <= 253)",message="nodeSelector: a key must be a label key: an optional DNS-subdomain prefix of at most 253 characters and '/', then a name of at most 63 letters, digits, '-', '_' or '.' that begins and ends with a letter or digit"
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`

	// tolerations of the role's pods: at most 8 (a benchmark tolerates its node pool's few
	// taints), keys and values of label sizes.
	// +listType=atomic
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:XValidation:rule="self.all(t, (!has(t.key) || size(t.key) <= 317) && (!has(t.value) || size(t.value) <= 63))",message="a toleration's key must be at most 317 characters and its value at most 63, as a taint's"
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.effect) || t.effect in ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'])",message="a toleration's effect must be NoSchedule, PreferNoSchedule or NoExecute (or empty: all)"
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.operator) || t.operator in ['', 'Exists', 'Equal'])",message="a toleration's operator must be Exists or Equal"
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.operator) || t.operator != 'Exists' || !has(t.value) || t.value == '')",message="a toleration with operator Exists must not set a value"
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.tolerationSeconds) || (has(t.effect) && t.effect == 'NoExecute'))",message="a toleration's tolerationSeconds needs effect NoExecute: only an evicting taint is tolerated for a time"
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`

	// affinity of the role's pods, a bounded subset of a pod's (perfrun_affinity_types.go);
	// spec.placement's rule is added to it.
	// +optional
	Affinity *Affinity `json:"affinity,omitempty"`
}

// LoadTesterSpec customises the load tester's pods.
type LoadTesterSpec struct {
	WorkloadSpec `json:",inline"`

	// replicas is the number of load-tester pods sharing the load, for rates one pod cannot
	// send: each sends qps/replicas over its share of the connections, the pods start every
	// measured phase together, and pod 0 merges their exact histograms into the one result
	// (percentiles of every request, never averages of per-pod percentiles);
	// the result document's result.loadTesters shows each pod's achieved rate. Pods spread over nodes where
	// the cluster has several. At most spec.load.connections.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=1
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
}

// EffectiveReplicas is the number of load-tester pods (1 when unset).
func (l LoadTesterSpec) EffectiveReplicas() int32 { return max(l.Replicas, 1) }

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=prun,categories=daprbench
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 40",message="metadata.name must be at most 40 characters: it prefixes the names of the run's workloads"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="metadata.name must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter): it prefixes the names of the run's Services"
// +kubebuilder:validation:XValidation:rule="!has(self.spec.variants) || self.spec.variants.all(v, v.name == self.spec.variants[0].name || size(self.metadata.name) + size(v.name) <= 50)",message="metadata.name and a variant's name (after the first) must be at most 50 characters together: Dapr names the variant's Service <run>-target-<variant>-dapr, a DNS label of at most 63"
// +kubebuilder:printcolumn:name="Scenario",type=string,JSONPath=`.spec.scenario`
// +kubebuilder:printcolumn:name="QPS",type=integer,JSONPath=`.spec.load.qps`
// +kubebuilder:printcolumn:name="Actual",type=string,JSONPath=`.status.result.actualQPS`
// +kubebuilder:printcolumn:name="P90",type=string,JSONPath=`.status.result.latency.p90`
// +kubebuilder:printcolumn:name="P99",type=string,JSONPath=`.status.result.latency.p99`
// +kubebuilder:printcolumn:name="Added P90",type=string,JSONPath=`.status.result.added.p90`
// +kubebuilder:printcolumn:name="Status",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// PerfRun is one benchmark of Dapr: the operator stands up a target app and a load tester,
// drives the load, measures latency (against a sidecar-free baseline) and resource usage,
// and writes the numbers to status.
type PerfRun struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the object's metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec declares the benchmark.
	// +required
	Spec PerfRunSpec `json:"spec"`

	// status is what the operator observed and measured.
	// +optional
	Status PerfRunStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// PerfRunList contains a list of PerfRun.
type PerfRunList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PerfRun `json:"items"`
}
