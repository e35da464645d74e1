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
	"cmp"
	"fmt"
)

// ScenarioCapability is what one scenario supports, declared once. The admission rules
// that depend on a scenario are generated from these by hack/gen/scenariorules (make
// manifests writes them into PerfRunSpec's markers; make verify fails on a stale copy), and
// the defaults read them. A new scenario is a new entry: no rule names it by hand.
// +kubebuilder:object:generate=false
type ScenarioCapability struct {
	Scenario Scenario
	// Settings is the spec field of the scenario's own settings (JSON name): a run sets it
	// only with its scenario, as a Pod sets one volume source.
	Settings string
	// Sidecarless: a run may go without Dapr (dapr.enabled=false), measuring the direct
	// path alone.
	Sidecarless bool
	// Variants: a run may compare sidecar variants (spec.variants).
	Variants bool
	// NoBaseline says why a run cannot have a baseline; empty: it may have one.
	NoBaseline string
	// BaselineByDefault is whether the baseline is on when spec.baseline is unset (nil:
	// off), and BaselineByDefaultCEL the same condition over the spec (self) for admission.
	BaselineByDefault    func(*PerfRunSpec) bool
	BaselineByDefaultCEL string
	// NoTarget says why a run has no target app; empty: it has one. Without one, the
	// target's fields, profiling (ProfiledDaprd says whose daprd runs the scenario instead)
	// and a protocol.app other than HTTP are refused.
	NoTarget      string
	ProfiledDaprd string
	// Store is what the run deploys for its load to end at ("store", "broker"; empty: none)
	// and StoreComponent the field that names a Component in its place (empty: the run
	// always deploys its store): placement places the load tester relative to a store the run
	// deploys, never a named one's. Without a target or a store, placement stays Any.
	Store, StoreComponent string
	// StoreTitle is how a result titles the store (Store's full name; empty: Store).
	StoreTitle string
	// NamedStore is the store a run of it may name instead of one it creates: an operator's
	// allowlist guards it (nil: the scenario names none).
	NamedStore *NamedStore
	// DefaultBody is the literal body a run sends when it sets no payload (empty: random
	// bytes, DefaultInvocationPayloadBytes of them).
	DefaultBody string
	// HoldsKnownAnswer says whether the run's target or subscriber can hold what comes
	// through Dapr by AnnotationKnownAnswerDelay (nil: never).
	HoldsKnownAnswer func(*PerfRunSpec) bool
	// TakesFaults is CEL over the spec (self) under which a run of it may set spec.faults,
	// which the load tester orders from its target app (empty: never); TakesFaultsWhen says
	// the same in words for a refusal.
	TakesFaults, TakesFaultsWhen string
	// KillsStore is CEL over the spec (self) under which a run of it may kill its store (a
	// PodKill of role Store): a store the run deploys (empty: never); KillsStoreWhen says the
	// same in words for a refusal.
	KillsStore, KillsStoreWhen string
	// BaselineMethod says how the baseline's method differs from daprd's, empty when it does
	// the same work the same way (nil: always the same).
	BaselineMethod func(*PerfRunSpec) string
	// ActorHost is the actor runtime a run of it measures (nil: none of its own).
	ActorHost func(*PerfRunSpec) ActorHost
	// OneLoadTester says why a run takes one load-tester pod; empty: replicas are free.
	OneLoadTester string
	// MaxPayloadBytes caps the payload, and MaxPayloadWhy says why (0: the API's own cap).
	MaxPayloadBytes int64
	MaxPayloadWhy   string
	// Outcome is the scenario's own outcome, beyond its call (nil: the call is the whole
	// request): its figure, its words, its thresholds.
	Outcome *OutcomeKind
	// Rules are the scenario's own rules over its settings, checked on its runs only.
	Rules []ScenarioRule
	// SweepFields are the fields of a sweep point's settings (spec.points.settings) that set
	// this scenario's own settings: a sweep of another scenario's template refuses them.
	// ApplySweepSetting puts them on a point's run (nil: the scenario takes none).
	SweepFields       []SweepField
	ApplySweepSetting func(spec *PerfRunSpec, s *SweepSetting)
	// LoadsScheduler: a run of it loads Dapr's scheduler, which every namespace's jobs,
	// reminders and workflows share: the queue lets no two such runs measure at once,
	// whatever their nodes (nil: never). SchedulerHeldBytes is what a run holds in it at
	// once, which the operator may cap (--max-scheduler-held-bytes; nil: nothing held).
	LoadsScheduler     func(*PerfRunSpec) bool
	SchedulerHeldBytes func(*PerfRunSpec) int64
}

// NamedStore is a Component a run may name for its store: Field is its spec path, Instead
// what the run uses when it is left empty, and Of the name (and the topic, for a broker) a
// run's spec gives.
// +kubebuilder:object:generate=false
type NamedStore struct {
	Field, Instead string
	Of             func(*PerfRunSpec) (store, topic string)
}

// SweepField is one field of a sweep point's settings a scenario takes: what it means for
// the scenario (said when another template sets it), and When, CEL over the template's
// spec (self), the template must meet for it (empty: always).
// +kubebuilder:object:generate=false
type SweepField struct {
	Field, Means, When string
}

// ScenarioRule is one admission rule of a scenario: CEL over the spec (self) and the
// message a refusal gives. It is checked on the scenario's runs only, or, Everywhere, on
// every run (a rule on the scenario's settings that says itself that it needs the scenario,
// so a run of another scenario setting them hears why).
// +kubebuilder:object:generate=false
type ScenarioRule struct {
	Rule, Message string
	Everywhere    bool
}

// PayloadCEL is a run's payload size in CEL over its spec (self): payloadBytes, a literal
// payload's size, or the default 1 KiB. hack/gen/scenariorules writes rules with it.
const PayloadCEL = "(has(self.load.payloadBytes) ? self.load.payloadBytes : (has(self.load.payload) ? size(self.load.payload) : 1024))"

// DaprEnabledCEL is DaprEnabled in CEL over a run's spec (self).
const DaprEnabledCEL = "(!has(self.dapr.enabled) || self.dapr.enabled)"

// fourPathsCEL and twinCEL: serviceInvocation.paths FourPaths, serviceInvocation.baselineTarget Twin.
const (
	fourPathsCEL = "(has(self.serviceInvocation) && has(self.serviceInvocation.paths) && self.serviceInvocation.paths == 'FourPaths')"
	twinCEL      = "(has(self.serviceInvocation) && has(self.serviceInvocation.baselineTarget) && self.serviceInvocation.baselineTarget == 'Twin')"
)

// ScenarioCapabilities are every scenario's, in the order of the Scenario enum. They are
// set in init: their functions read the spec's defaults, which read them.
var ScenarioCapabilities []ScenarioCapability

func init() { ScenarioCapabilities = scenarioCapabilities() }

func scenarioCapabilities() []ScenarioCapability {
	return []ScenarioCapability{
		{
			Scenario:             ScenarioServiceInvocation,
			Settings:             "serviceInvocation",
			Sidecarless:          true,
			Variants:             true,
			BaselineByDefault:    func(s *PerfRunSpec) bool { return s.DaprEnabled() },
			BaselineByDefaultCEL: DaprEnabledCEL,
			// A four-path run's one-sidecar paths and a gRPC app carry no app-id headers to know
			// a call through both sidecars by.
			HoldsKnownAnswer: func(s *PerfRunSpec) bool { return !s.FourPaths() && s.Protocol.App != ProtocolGRPC },
			// The load tester orders a fault from each variant's target app, over HTTP, and
			// reads its count of what it saw.
			TakesFaults:     "!" + fourPathsCEL + " && (!has(self.protocol.app) || self.protocol.app == 'HTTP') && (!has(self.variants) || self.variants.all(v, !has(v.appProtocol) || v.appProtocol == 'HTTP'))",
			TakesFaultsWhen: "with protocol.app HTTP (every variant's appProtocol too) and the standard paths",
			Rules: []ScenarioRule{{
				Rule:       "!" + fourPathsCEL + " || (self.scenario == 'ServiceInvocation' && " + DaprEnabledCEL + " && (!has(self.baseline) || self.baseline) && !has(self.variants))",
				Message:    "serviceInvocation.paths FourPaths splits what Dapr adds between two sidecars: it needs scenario ServiceInvocation through Dapr, with the baseline (the direct path) and without variants",
				Everywhere: true,
			}, {
				Rule:       "!" + fourPathsCEL + " || ((!has(self.protocol.caller) || self.protocol.caller == 'HTTP') && (!has(self.protocol.app) || self.protocol.app == 'HTTP'))",
				Message:    "serviceInvocation.paths FourPaths needs protocol.caller and protocol.app HTTP: Dapr invokes an app without a sidecar only as a non-Dapr HTTP endpoint, so every path must speak HTTP for the four to compare like with like",
				Everywhere: true,
			}, {
				Rule:       "!" + twinCEL + " || (has(self.baseline) ? self.baseline : (self.scenario == 'ServiceInvocation' && " + DaprEnabledCEL + "))",
				Message:    "serviceInvocation.baselineTarget Twin names what the baseline calls: it needs the baseline (baseline true, or a ServiceInvocation run through Dapr, where it is on by default)",
				Everywhere: true,
			}, {
				Rule:       "!" + fourPathsCEL + " || !" + twinCEL,
				Message:    "serviceInvocation.paths FourPaths needs serviceInvocation.baselineTarget SamePod: its four paths must end at one app process, and a twin puts the direct and client-only paths on another pod",
				Everywhere: true,
			}, {
				Rule:       "!has(self.profiling) || !" + fourPathsCEL,
				Message:    "profiling cannot be combined with serviceInvocation.paths FourPaths: the server-only path opens the target's daprd on its pod address, and daprd binds its profiler, which asks for no token, wherever its API listens",
				Everywhere: true,
			}},
			// A point's app protocol and sidecar image are the run's own settings (protocol.app,
			// a variant), applied for every template that takes them.
			// Without Dapr nothing calls the app by its protocol: a point's would change nothing.
			SweepFields: []SweepField{{Field: "appProtocol", Means: "app protocol", When: DaprEnabledCEL},
				{Field: "sidecarImage", Means: "sidecar image", When: DaprEnabledCEL + " && !has(self.variants)"}},
		},
		{
			Scenario:   ScenarioActorActivation,
			Settings:   "actors",
			NoBaseline: "an actor cannot be called without a sidecar",
			NamedStore: &NamedStore{Field: "spec.actors.stateStore", Instead: "the in-memory store the run creates",
				Of: func(s *PerfRunSpec) (string, string) { return s.ActorSettings().StateStore, "" }},
			DefaultBody: DefaultActorPayload,
			ActorHost:   func(s *PerfRunSpec) ActorHost { return s.ActorSettings().Host },
			Rules: []ScenarioRule{{
				Rule:    "(!has(self.protocol.caller) || self.protocol.caller == 'HTTP') && (!has(self.protocol.app) || self.protocol.app == 'HTTP')",
				Message: "ActorActivation is measured over HTTP (protocol.caller and protocol.app HTTP)",
			}},
			SweepFields: []SweepField{{Field: "actorHost", Means: "actor runtime"}},
			ApplySweepSetting: func(spec *PerfRunSpec, s *SweepSetting) {
				if s.ActorHost != "" { // a point's host takes its method with it: the host's default
					spec.Actors = orNew(spec.Actors)
					spec.Actors.Host, spec.Actors.Method = s.ActorHost, ""
				}
			},
		},
		{
			Scenario:             ScenarioState,
			Settings:             "state",
			BaselineByDefault:    func(s *PerfRunSpec) bool { return s.StateSettings().Component == "" }, // a store the run deploys, whose address it knows
			BaselineByDefaultCEL: "!(has(self.state) && has(self.state.component))",
			NoTarget:             "its load ends at the store",
			ProfiledDaprd:        "the load tester's own daprd calls the store",
			Store:                "store",
			StoreComponent:       "state.component",
			StoreTitle:           "state store",
			NamedStore: &NamedStore{Field: "spec.state.component", Instead: "the Redis the run deploys",
				Of: func(s *PerfRunSpec) (string, string) { return s.StateSettings().Component, "" }},
			// daprd's Redis store serves BulkGet and BulkSave as one round trip per key, in
			// parallel; the baseline's client pipelines them. A Transaction is one MULTI/EXEC on both.
			BaselineMethod: func(s *PerfRunSpec) string {
				if st := s.StateSettings(); st.Operation == StateBulkGet || st.Operation == StateBulkSave {
					return fmt.Sprintf("against a pipelining client: daprd makes one round trip per key of a %s, in parallel, the baseline one pipelined round trip for all %d",
						st.Operation, st.BulkSize)
				}
				return ""
			},
			Rules: []ScenarioRule{{
				Rule:    "(has(self.state) && has(self.state.keys) ? self.state.keys : 1000) * " + PayloadCEL + " <= 134217728",
				Message: "state.keys × the payload must be at most 128 MiB: every key is written before the load, into a store that may be a team's own",
			}, {
				Rule:    "!has(self.state) || !has(self.state.operation) || !(self.state.operation in ['BulkGet', 'BulkSave', 'Transaction']) || (has(self.state.bulkSize) ? self.state.bulkSize : 10) * " + PayloadCEL + " <= 3145728",
				Message: "state.bulkSize × the payload must be at most 3 MiB: one bulk request carries every key's value, and daprd refuses a body over 4 MiB by default",
			}},
			SweepFields: []SweepField{{Field: "component", Means: "state store"},
				{Field: "bulkSize", Means: "keys a request of a State template's BulkGet, BulkSave or Transaction",
					When: "has(self.state) && has(self.state.operation) && self.state.operation in ['BulkGet', 'BulkSave', 'Transaction']"}},
			ApplySweepSetting: func(spec *PerfRunSpec, s *SweepSetting) {
				if s.Component != "" || s.BulkSize != 0 {
					spec.State = orNew(spec.State)
					spec.State.Component = cmp.Or(s.Component, spec.State.Component)
					spec.State.BulkSize = cmp.Or(s.BulkSize, spec.State.BulkSize)
				}
			},
		},
		{
			Scenario:             ScenarioPubSub,
			Settings:             "pubsub",
			BaselineByDefault:    func(s *PerfRunSpec) bool { return s.PubSubSettings().Component == "" }, // a broker the run deploys
			BaselineByDefaultCEL: "!(has(self.pubsub) && has(self.pubsub.component))",
			NoTarget:             "the load tester publishes and subscribes itself",
			ProfiledDaprd:        "the load tester's own daprd publishes and delivers",
			Store:                "broker",
			StoreComponent:       "pubsub.component",
			KillsStore:           "!(has(self.pubsub) && has(self.pubsub.component))",
			KillsStoreWhen:       "on the broker the run deploys (no pubsub.component)",
			// A broker takes the run's whole publish rate: the same allowlist guards it.
			NamedStore: &NamedStore{Field: "spec.pubsub.component", Instead: "the Redis the run deploys",
				Of: func(s *PerfRunSpec) (string, string) { return s.PubSubSettings().Component, s.PubSubSettings().Topic }},
			// The subscriber holds every delivery daprd makes; the baseline's consumer is not held.
			HoldsKnownAnswer: func(*PerfRunSpec) bool { return true },
			// daprd publishes a bulk as one XADD per entry; the baseline's client pipelines them.
			BaselineMethod: func(s *PerfRunSpec) string {
				if s.PubSub != nil && s.PubSub.BulkPublish > 1 {
					return fmt.Sprintf("against a pipelining client: daprd publishes a bulk's %d entries one call each, in parallel, the baseline in one pipelined round trip",
						s.PubSub.BulkPublish)
				}
				return ""
			},
			OneLoadTester:   "the subscriber times the messages its own pod published, on one clock",
			MaxPayloadBytes: 65536,
			MaxPayloadWhy:   "each of its two streams keeps its last 1000 to 50000 messages in the broker",
			Outcome:         deliveryOutcome,
			Rules: []ScenarioRule{{
				Rule:    "!has(self.pubsub) || !has(self.pubsub.bulkPublish) || self.pubsub.bulkPublish * " + PayloadCEL + " <= 3145728",
				Message: "pubsub.bulkPublish × the payload must be at most 3 MiB: one bulk publish carries every message, and daprd refuses a body over 4 MiB by default",
			}},
			SweepFields: []SweepField{{Field: "component", Means: "broker (not on a template that kills its Store, which must be the run's own)", When: "!has(self.faults) || !self.faults.exists(f, has(f.role) && f.role == 'Store')"}, {Field: "bulkSize", Means: "messages a request of a PubSub template's"}},
			ApplySweepSetting: func(spec *PerfRunSpec, s *SweepSetting) {
				if s.Component != "" || s.BulkSize != 0 {
					spec.PubSub = orNew(spec.PubSub)
					spec.PubSub.Component = cmp.Or(s.Component, spec.PubSub.Component)
					spec.PubSub.BulkPublish = cmp.Or(s.BulkSize, spec.PubSub.BulkPublish)
				}
			},
		},
		{
			Scenario: ScenarioWorkflow,
			Settings: "workflow",
			NamedStore: &NamedStore{Field: "spec.workflow.stateStore", Instead: "the in-memory store the run creates",
				Of: func(s *PerfRunSpec) (string, string) { return s.WorkflowSettings().StateStore, "" }},
			NoBaseline:      "a workflow cannot run without Dapr; compare Dapr versions or settings with two runs and kubectl daprbench compare",
			NoTarget:        "the load tester starts and hosts the workflows itself",
			ProfiledDaprd:   "the load tester's own daprd runs the workflows",
			OneLoadTester:   "the load tester times the instances its own pod started, on one clock, and daprd binds a workflow to the app that started it",
			MaxPayloadBytes: 65536,
			MaxPayloadWhy:   "an instance's history keeps it for every activity",
			Outcome:         completionOutcome,
			// A workflow's timers and retries are reminders, kept by the scheduler (Dapr 1.15+).
			LoadsScheduler: func(*PerfRunSpec) bool { return true },
			SweepFields:    []SweepField{{Field: "workflowPattern", Means: "workflow"}, {Field: "activities", Means: "workflow"}},
			ApplySweepSetting: func(spec *PerfRunSpec, s *SweepSetting) {
				if s.WorkflowPattern != "" || s.Activities != 0 {
					spec.Workflow = orNew(spec.Workflow)
					spec.Workflow.Pattern = cmp.Or(s.WorkflowPattern, spec.Workflow.Pattern)
					spec.Workflow.Activities = cmp.Or(s.Activities, spec.Workflow.Activities)
				}
			},
		},
		{
			Scenario:        ScenarioScheduler,
			Settings:        "scheduler",
			NoBaseline:      "jobs and reminders only exist behind a sidecar",
			NoTarget:        "the load tester registers the jobs or reminders and takes their triggers itself",
			ProfiledDaprd:   "the load tester's own daprd registers the jobs or reminders",
			OneLoadTester:   "the load tester times the triggers of what its own pod registered, on one clock",
			MaxPayloadBytes: 65536,
			MaxPayloadWhy:   "the scheduler keeps every job's data until it is triggered",
			Outcome:         triggerOutcome,
			// A timer is kept by the daprd hosting its actor; jobs and reminders by the scheduler.
			LoadsScheduler: func(s *PerfRunSpec) bool { return s.SchedulerSettings().API != SchedulerActorTimers },
			// Each registration is held until it is due: the rate × the due time of them at once.
			SchedulerHeldBytes: func(s *PerfRunSpec) int64 {
				st := s.SchedulerSettings()
				if st.API == SchedulerActorTimers {
					return 0
				}
				n, literal := s.Body()
				if literal != nil {
					n = len(*literal)
				}
				return int64(float64(s.Load.QPS) * st.DueTime.Seconds() * float64(n))
			},
			Rules: []ScenarioRule{{
				Rule:    "(has(self.scheduler) && has(self.scheduler.api) && self.scheduler.api == 'ActorTimers') || self.load.qps * (has(self.scheduler) && has(self.scheduler.dueTime) ? duration(self.scheduler.dueTime).getMilliseconds() : 1000) * " + PayloadCEL + " <= 268435456000",
				Message: "a Scheduler run of jobs or reminders holds load.qps × scheduler.dueTime × the payload in Dapr's scheduler, which every namespace's jobs, reminders and workflows share: at most 256 MiB at once (1000 rps × 1s × 64 KiB is 64 MiB)",
			}, {
				Rule:    "!has(self.protocol.caller) || self.protocol.caller == 'HTTP'",
				Message: "a Scheduler run registers over daprd's HTTP API (protocol.caller HTTP): its triggers come to the load tester's HTTP app server",
			}},
		},
		{
			Scenario:             ScenarioConfiguration,
			Settings:             "configuration",
			BaselineByDefault:    func(*PerfRunSpec) bool { return true }, // the store the run deploys, whose address it knows
			BaselineByDefaultCEL: "true",
			NoTarget:             "its load ends at the configuration store",
			ProfiledDaprd:        "the load tester's own daprd reads the store",
			Store:                "store",
			StoreTitle:           "configuration store",
			MaxPayloadBytes:      65536,
			MaxPayloadWhy:        "every item is written into the store before the load, as its value",
			Rules: []ScenarioRule{{
				Rule:    PayloadCEL + " >= 1",
				Message: "a Configuration run's items need a value: the payload must be at least 1 byte (configuration.redis returns no item whose value is empty)",
			}, {
				Rule:    "!has(self.baseline) || self.baseline",
				Message: "baseline cannot be false for Configuration: the baseline's client writes the store's items before the load (daprd's configuration API only reads them)",
			}},
		},
	}
}

// CapabilityOf is scenario's entry of ScenarioCapabilities; for a value admission refuses,
// an entry that supports nothing.
func CapabilityOf(scenario Scenario) ScenarioCapability {
	for _, c := range ScenarioCapabilities {
		if c.Scenario == scenario {
			return c
		}
	}
	return ScenarioCapability{Scenario: scenario}
}

// orNew is settings, or new empty ones to set a field of.
func orNew[T any](settings *T) *T {
	if settings == nil {
		return new(T)
	}
	return settings
}
