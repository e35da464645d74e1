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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A scenario's own settings sit in a sub-object of the spec named after it (serviceInvocation,
// actors, ...), as a Pod's volume sources do: a run sets at most the one its scenario names.
// docs/architecture.md says how to add a scenario.

// Scenario names what a PerfRun measures.
// +kubebuilder:validation:Enum=ServiceInvocation;ActorActivation;State;PubSub;Workflow;Scheduler;Configuration
type Scenario string

const (
	// ScenarioServiceInvocation measures HTTP service invocation through two sidecars
	// (caller daprd -> target daprd -> app), optionally against a sidecar-free baseline.
	ScenarioServiceInvocation Scenario = "ServiceInvocation"
	// ScenarioActorActivation calls a fresh actor id on every request, so every call activates an actor.
	ScenarioActorActivation Scenario = "ActorActivation"
	// ScenarioState gets or saves keys through the load tester's own daprd's state API, against
	// a real store; the baseline does the same with the store's own client from the same pod.
	ScenarioState Scenario = "State"
	// ScenarioPubSub publishes messages through the load tester's own daprd, which delivers
	// them back to the load tester's subscriber: the publish call's latency and each
	// message's publish-to-delivery latency, against a real broker; the baseline publishes
	// and consumes with the broker's own client from the same pod.
	ScenarioPubSub Scenario = "PubSub"
	// ScenarioWorkflow starts Dapr workflow instances at the requested rate, open loop,
	// through the load tester's own daprd; the load tester hosts the workflows (Dapr's Go
	// SDK), as the app of Dapr's own suite does: the start call's latency and each
	// instance's start-to-completion latency. No Dapr-less baseline exists for a workflow.
	ScenarioWorkflow Scenario = "Workflow"
	// ScenarioScheduler registers one-shot jobs (Dapr's Jobs API) or actor reminders through
	// the load tester's own daprd; Dapr's scheduler triggers each back to the load tester
	// after its due time: the registration call's latency and each trigger's lateness. No
	// Dapr-less baseline.
	ScenarioScheduler Scenario = "Scheduler"
	// ScenarioConfiguration reads configuration items through the load tester's own daprd's
	// configuration API, from a Redis configuration store the run deploys; the baseline
	// reads the same keys with the store's own client from the same pod.
	ScenarioConfiguration Scenario = "Configuration"
)

// ConfigurationSpec configures Configuration.
type ConfigurationSpec struct {
	// keys is how many distinct configuration items the load spreads over, each the run's
	// payload as its value; each request reads one, drawn uniformly at random. Before the
	// warm-up the load tester writes every item into the store, as configuration.redis keeps
	// them ("value||version"), so a read always finds its item.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	// +kubebuilder:default=100
	// +optional
	Keys int32 `json:"keys,omitempty"`
}

// SchedulerSpec configures Scheduler.
// +kubebuilder:validation:XValidation:rule="!has(self.actors) || (has(self.api) && self.api in ['ActorReminders', 'ActorTimers'])",message="actors is how many actor ids the reminders or timers spread over: set api to ActorReminders or ActorTimers, or leave actors out"
type SchedulerSpec struct {
	// api is what every request registers: Jobs (the default: a one-shot job through Dapr's
	// Jobs API, alpha, POST /v1.0-alpha1/jobs/<name>), ActorReminders (a one-shot reminder
	// on one of actors actor ids of a type the load tester hosts) or ActorTimers (a one-shot
	// timer on one of them). Jobs and reminders are kept and triggered by Dapr's scheduler
	// (reminders since Dapr 1.15); a timer is kept in memory by the daprd hosting its actor,
	// so ActorTimers reads the same lateness with the scheduler out of the path.
	// +kubebuilder:default=Jobs
	// +optional
	API SchedulerAPI `json:"api,omitempty"`

	// dueTime is how long after its registration each job or reminder is due: 1s by default.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('100ms') && duration(self) <= duration('1m')",message="dueTime must be from 100ms to 1m"
	// +optional
	DueTime *metav1.Duration `json:"dueTime,omitempty"`

	// actors is how many actor ids an ActorReminders or ActorTimers run's registrations
	// spread over (each request's id is its number modulo actors): 100 by default. Only
	// with those APIs.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +optional
	Actors int32 `json:"actors,omitempty"`
}

// SchedulerAPI is what a Scheduler run registers.
// +kubebuilder:validation:Enum=Jobs;ActorReminders;ActorTimers
type SchedulerAPI string

const (
	// SchedulerJobs schedules one-shot jobs.
	SchedulerJobs SchedulerAPI = "Jobs"
	// SchedulerActorReminders registers one-shot actor reminders.
	SchedulerActorReminders SchedulerAPI = "ActorReminders"
	// SchedulerActorTimers registers one-shot actor timers.
	SchedulerActorTimers SchedulerAPI = "ActorTimers"
)

// HostsActors reports whether api's registrations are on actors the load tester hosts.
func (api SchedulerAPI) HostsActors() bool {
	return api == SchedulerActorReminders || api == SchedulerActorTimers
}

// Defaults of spec.scheduler's fields.
const (
	DefaultSchedulerDueTime = time.Second
	DefaultReminderActors   = 100
)

// WorkflowSpec configures Workflow.
type WorkflowSpec struct {
	// pattern is the workflow every instance runs: Chain (the default) calls its activities
	// one after another; FanOut calls them all at once and waits for every one.
	// +kubebuilder:default=Chain
	// +optional
	Pattern WorkflowPattern `json:"pattern,omitempty"`

	// activities is how many activities an instance calls. Each one receives the run's
	// payload as its input (inside the instance's input).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +kubebuilder:default=5
	// +optional
	Activities int32 `json:"activities,omitempty"`

	// activityDelay is how long each activity takes (on the load tester's fine clock); none by
	// default, so the figure is Dapr's own. A stated delay is the instrument's known answer: a
	// Chain's completion grows by activities × the delay, a FanOut's by one delay.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('0s') && duration(self) <= duration('10s')",message="activityDelay must be from 0s to 10s"
	// +optional
	ActivityDelay *metav1.Duration `json:"activityDelay,omitempty"`

	// stateStore names an existing actor state store Component (metadata actorStateStore
	// "true") in the run's namespace, where Dapr keeps the workflows' state; empty: an
	// in-memory one the run creates. A named one must be on the operator's allowlist.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	StateStore string `json:"stateStore,omitempty"`
}

// WorkflowPattern is the workflow a Workflow run's instances run.
// +kubebuilder:validation:Enum=Chain;FanOut
type WorkflowPattern string

const (
	// WorkflowChain calls the activities one after another.
	WorkflowChain WorkflowPattern = "Chain"
	// WorkflowFanOut calls them all at once, then joins them.
	WorkflowFanOut WorkflowPattern = "FanOut"
)

// DefaultWorkflowActivities is an instance's activities when spec.workflow.activities is unset.
const DefaultWorkflowActivities = 5

// ServiceInvocationSpec configures ServiceInvocation.
type ServiceInvocationSpec struct {
	// paths is which paths the run measures. Standard (the default): the baseline (direct,
	// no sidecar) and the Dapr path (both sidecars). FourPaths adds the two one-sidecar paths
	// and splits what Dapr adds between the sidecars (the result document's result.attribution):
	//   - client sidecar only: the load tester's daprd invokes the app as a non-Dapr HTTP
	//     endpoint (an http:// URL as the app id, Dapr 1.11+), no sidecar on the target's
	//     side; that hop is plain HTTP, never mTLS;
	//   - server sidecar only: the load tester calls the target's daprd on its pod address
	//     (the run sets dapr.io/sidecar-listen-addresses 0.0.0.0 on the target, guarded by
	//     the run's NetworkPolicy), which invokes its own app.
	// Needs the baseline, no variants, HTTP at both ends and at most 3 repetitions. A
	// cluster whose Dapr cannot invoke non-Dapr endpoints fails the run before anything
	// runs, with reason DaprFeatureMissing.
	// +kubebuilder:default=Standard
	// +optional
	Paths InvocationPaths `json:"paths,omitempty"`

	// baselineTarget is what the baseline calls. SamePod (the default): the Dapr target's
	// own pod, on its app port by pod IP — the same app process on the same node, only the
	// two sidecars taken out of the path (daprd is not a transparent proxy, so the app port
	// is reachable beside it; Istio's benchmark calls the same server pod on a port its
	// sidecar does not capture). Twin: a sidecar-free copy of the target in a Deployment of
	// its own, reached through its Service — for clusters whose NetworkPolicies let the load
	// tester reach the app only through its sidecar; its pod may land on another node and
	// kube-proxy's NAT is in its path.
	// +kubebuilder:default=SamePod
	// +optional
	BaselineTarget BaselineTarget `json:"baselineTarget,omitempty"`
}

// InvocationPaths is which paths a ServiceInvocation run measures.
// +kubebuilder:validation:Enum=Standard;FourPaths
type InvocationPaths string

const (
	// PathsStandard measures the baseline and the Dapr path.
	PathsStandard InvocationPaths = "Standard"
	// PathsFour also measures the client-sidecar-only and server-sidecar-only paths.
	PathsFour InvocationPaths = "FourPaths"
)

// BaselineTarget is what the baseline path calls.
// +kubebuilder:validation:Enum=SamePod;Twin
type BaselineTarget string

const (
	// BaselineSamePod calls the Dapr target's own pod on its app port, by pod IP.
	BaselineSamePod BaselineTarget = "SamePod"
	// BaselineTwin calls a sidecar-free twin Deployment through its Service.
	BaselineTwin BaselineTarget = "Twin"
)

// ActorsSpec configures ActorActivation.
// +kubebuilder:validation:XValidation:rule="!has(self.host) || self.host != 'GoSDK' || !has(self.method) || self.method == 'Activate'",message="the Go SDK host's actor has one method, Activate (a Go SDK actor's methods are exported Go methods): leave method out or set it to Activate"
type ActorsSpec struct {
	// host is the actor runtime of the target app: Minimal (the default: a hand-written host
	// that answers daprd's actor protocol itself — Dapr's routing and nothing else) or GoSDK
	// (Dapr's Go SDK actor runtime, github.com/dapr/go-sdk, serving an actor with one method,
	// Activate, as a Go user hosts actors). The two runs' activation latencies differ by the
	// SDK's share.
	// +kubebuilder:default=Minimal
	// +optional
	Host ActorHost `json:"host,omitempty"`

	// actorType is the actor type the target app hosts and the load tester calls. Empty (the
	// default): PerfActor-<run uid>-<generation>, unique, so Dapr's placement never spreads a
	// run's calls over the targets of other runs (or of its own earlier generations) that
	// host the same type. Two runs of a namespace cannot use one explicit type at once.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[A-Za-z][A-Za-z0-9_.-]*$`
	// +optional
	ActorType string `json:"actorType,omitempty"`

	// method is the actor method called on every request: activate by default (Activate
	// with the GoSDK host, whose actor has that one method).
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[A-Za-z][A-Za-z0-9_.-]*$`
	// +optional
	Method string `json:"method,omitempty"`

	// stateStore names an existing actor state store Component in the run's namespace.
	// When empty the operator creates an in-memory one (state.in-memory) for the run.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	StateStore string `json:"stateStore,omitempty"`
}

// ActorHost is the actor runtime an ActorActivation run's target app hosts its actors with.
// +kubebuilder:validation:Enum=Minimal;GoSDK
type ActorHost string

const (
	// ActorHostMinimal answers daprd's actor protocol by hand: any method, an empty answer.
	ActorHostMinimal ActorHost = "Minimal"
	// ActorHostGoSDK is Dapr's Go SDK actor runtime.
	ActorHostGoSDK ActorHost = "GoSDK"
)

// StateSpec configures State.
// +kubebuilder:validation:XValidation:rule="!has(self.bulkSize) || (has(self.operation) && self.operation in ['BulkGet', 'BulkSave', 'Transaction'])",message="bulkSize is how many keys a BulkGet, BulkSave or Transaction request carries: set operation to one of them, or leave bulkSize out"
// +kubebuilder:validation:XValidation:rule="!has(self.operation) || !(self.operation in ['BulkGet', 'BulkSave', 'Transaction']) || (has(self.keys) ? self.keys : 1000) >= (has(self.bulkSize) ? self.bulkSize : 10)",message="keys must be at least bulkSize: a bulk request's keys are distinct"
type StateSpec struct {
	// operation is what every request does: Get (the default, Dapr's suite's state_get) reads
	// one key; Save writes one key with the body as its value; SaveThenGet writes one key and
	// reads it back (two calls, one request's latency); BulkGet reads bulkSize keys in one
	// call (daprd's bulk API; the baseline pipelines the reads); BulkSave writes bulkSize keys
	// in one call (the baseline pipelines the writes); Transaction writes bulkSize keys in
	// one transaction (daprd's transaction API; the baseline's MULTI/EXEC). Before the
	// warm-up the load tester writes every key once through each path, so a read always
	// finds its key.
	// +kubebuilder:default=Get
	// +optional
	Operation StateOperation `json:"operation,omitempty"`

	// bulkSize is how many keys one BulkGet, BulkSave or Transaction request carries, each
	// with the run's payload: distinct keys, a run of them from a uniformly random start.
	// Only with those operations; at most keys.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	BulkSize int32 `json:"bulkSize,omitempty"`

	// keys is how many distinct keys the load spreads over; each request's key is drawn
	// uniformly at random, so no key is hot by accident.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +kubebuilder:default=1000
	// +optional
	Keys int32 `json:"keys,omitempty"`

	// component names an existing state store Component in the run's namespace: the user's
	// own store. Empty (the default): the run deploys Redis (the operator's --redis-image)
	// and a state.redis Component for it, owns both and removes them with the run. With a
	// named Component the baseline is off unless set: it needs a state.redis Component whose
	// redisHost is a plain value (the load tester then calls that Redis directly); any other
	// fails the run before the load with reason BaselineImpossible.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	Component string `json:"component,omitempty"`
}

// StateOperation is what a State run's request does.
// +kubebuilder:validation:Enum=Get;Save;SaveThenGet;BulkGet;BulkSave;Transaction
type StateOperation string

const (
	StateGet         StateOperation = "Get"
	StateSave        StateOperation = "Save"
	StateSaveThenGet StateOperation = "SaveThenGet"
	StateBulkGet     StateOperation = "BulkGet"
	StateBulkSave    StateOperation = "BulkSave"
	StateTransaction StateOperation = "Transaction"
)

// Bulk reports whether one request of op carries bulkSize keys.
func (op StateOperation) Bulk() bool {
	return op == StateBulkGet || op == StateBulkSave || op == StateTransaction
}

// PubSubSpec configures PubSub. Every request publishes one message of the run's payload
// size (bulkPublish of them in one call when set); the load tester subscribes to the topic itself, so each message's delivery is timed
// from the slot its publish was due in to the subscriber's handler on the load tester's one
// clock (no two pods' clocks need agree). A message not delivered within 10s of its phase's
// end is counted lost; that wait, up to 10s a phase, comes on top of the load's time (a
// timeout set close to it leaves no room for it). The payload is at most 64 KiB.
type PubSubSpec struct {
	// component names an existing pub/sub Component in the run's namespace: the user's own
	// broker. Empty (the default): the run deploys Redis (the operator's --redis-image) and a
	// pubsub.redis Component for it (Redis Streams, each trimmed to about 64 MiB of messages),
	// owns both and removes them with the run. With a named Component the baseline is off
	// unless set: it needs a pubsub.redis Component whose redisHost is a plain value, with
	// no password, username, TLS, failover, cluster or redisDB (the load tester's client
	// speaks plain Redis to one server); any other fails the run before the load with
	// reason BaselineImpossible.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	Component string `json:"component,omitempty"`

	// topic the run publishes to and subscribes to. Empty (the default): daprbench-<run
	// uid>-<generation>, unique, so no other subscriber of a shared broker takes the run's
	// messages and no earlier run's backlog reaches this one.
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9][A-Za-z0-9_.-]*$`
	// +optional
	Topic string `json:"topic,omitempty"`

	// subscription is how the load tester subscribes: Programmatic (the default: its app
	// answers daprd's GET /dapr/subscribe) or Declarative (the run creates a Dapr
	// Subscription object scoped to the load tester).
	// +kubebuilder:default=Programmatic
	// +optional
	Subscription SubscriptionKind `json:"subscription,omitempty"`

	// rawPayload publishes and delivers the bare message, without the CloudEvent envelope
	// daprd wraps it in by default (Dapr's rawPayload metadata).
	// +optional
	RawPayload bool `json:"rawPayload,omitempty"`

	// bulkPublish publishes this many messages with every request, in one call of daprd's
	// bulk publish API (alpha in Dapr); the baseline adds them to the stream in one
	// pipeline. The rate stays requests a second, so messages a second are rate ×
	// bulkPublish. Unset (the default): every request publishes one message with the single
	// publish API.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	BulkPublish int32 `json:"bulkPublish,omitempty"`

	// bulkSubscribe has daprd deliver messages to the subscriber in batches (Dapr's bulk
	// subscribe, alpha); the baseline's consumer reads batches of the same size. A message
	// waits in daprd until its batch is full or maxAwaitDurationMs has passed, and that
	// wait is in its delivery latency. Unset (the default): one message a delivery.
	// +optional
	BulkSubscribe *BulkSubscribeSpec `json:"bulkSubscribe,omitempty"`
}

// BulkSubscribeSpec is Dapr's bulkSubscribe of a subscription, with its field names.
type BulkSubscribeSpec struct {
	// maxMessagesCount is the most messages one delivery carries.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	// +kubebuilder:default=100
	// +optional
	MaxMessagesCount int32 `json:"maxMessagesCount,omitempty"`

	// maxAwaitDurationMs is how long daprd waits to fill a batch before it delivers what
	// it has, in milliseconds.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=60000
	// +kubebuilder:default=1000
	// +optional
	MaxAwaitDurationMs int32 `json:"maxAwaitDurationMs,omitempty"`
}

// SubscriptionKind is how a PubSub run's load tester subscribes to its topic.
// +kubebuilder:validation:Enum=Programmatic;Declarative
type SubscriptionKind string

const (
	SubscriptionProgrammatic SubscriptionKind = "Programmatic"
	SubscriptionDeclarative  SubscriptionKind = "Declarative"
)
