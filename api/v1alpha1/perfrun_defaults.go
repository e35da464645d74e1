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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Defaults that depend on other fields cannot be set by the API server's structural
// defaulting, so they are resolved here, in one place, and the spec is never rewritten
// (GitOps tools would see a diff). Every reader of the spec goes through these helpers.
// The plain defaults are also +kubebuilder:default markers (the API server fills them in);
// the helpers repeat them for objects that never went through the API server, and an
// envtest spec checks that the two agree.

const (
	// DefaultInvocationPayloadBytes is the body size of Dapr's published invocation test.
	DefaultInvocationPayloadBytes = 1024
	// DefaultActorPayload is the body of Dapr's published actor test.
	DefaultActorPayload = "{}"
	// DefaultStateKeys is how many keys a State run spreads its requests over.
	DefaultStateKeys = 1000
	// DefaultStateBulkSize is how many keys a BulkGet, BulkSave or Transaction request carries.
	DefaultStateBulkSize = 10
	// DefaultConfigurationKeys is how many items a Configuration run spreads its reads over.
	DefaultConfigurationKeys = 100
	// DefaultBulkSubscribeMessages and DefaultBulkSubscribeAwaitMs are Dapr's own defaults of
	// a bulk subscription's maxMessagesCount and maxAwaitDurationMs.
	DefaultBulkSubscribeMessages = 100
	DefaultBulkSubscribeAwaitMs  = 1000
	// DefaultActorType starts the actor type a run hosts when spec.actors.actorType is
	// empty (see PerfRun.ActorType); DefaultActorMethod is the method called.
	DefaultActorType   = "PerfActor"
	DefaultActorMethod = "activate"
	// GoSDKActorMethod is the one method of the GoSDK host's actor.
	GoSDKActorMethod = "Activate"
	// DefaultControlPlaneNamespace is where a standard Dapr install runs: the default of the
	// manager's --dapr-namespace.
	DefaultControlPlaneNamespace = "dapr-system"
	// DefaultConnections, DefaultRepetitions, DefaultDuration and DefaultWarmup are the
	// load's defaults (Dapr's published runs: 16 connections, 60 s).
	DefaultConnections = 16
	DefaultRepetitions = 3
	DefaultDuration    = 60 * time.Second
	DefaultWarmup      = 10 * time.Second
	// timeoutMargin covers scheduling, image pulls, sidecar start-up and collection.
	timeoutMargin = 5 * time.Minute
)

// BaselineTwinEnabled reports whether the baseline calls a sidecar-free twin Deployment
// (spec.serviceInvocation.baselineTarget Twin) rather than the Dapr target's own pod.
func (s *PerfRunSpec) BaselineTwinEnabled() bool {
	return s.BaselineEnabled() && s.InvocationSettings().BaselineTarget == BaselineTwin
}

// DaprEnabled reports whether the run measures through Dapr sidecars.
func (s *PerfRunSpec) DaprEnabled() bool {
	return s.Dapr.Enabled == nil || *s.Dapr.Enabled
}

// BaselineEnabled reports whether a sidecar-free twin is measured too.
func (s *PerfRunSpec) BaselineEnabled() bool {
	if s.Baseline != nil {
		return *s.Baseline
	}
	if byDefault := CapabilityOf(s.Scenario).BaselineByDefault; byDefault != nil {
		return byDefault(s)
	}
	return false
}

// Paths is the number of paths measured per repetition: the baseline, if any, every
// sidecar variant (one without spec.variants), and the two one-sidecar paths of FourPaths;
// one direct path without Dapr. (The paths themselves, in order, are the wire contract's:
// result.MeasuredPaths; a test holds the two to one count.)
func (s *PerfRunSpec) Paths() int {
	if !s.DaprEnabled() {
		return 1
	}
	n := max(len(s.Variants), 1)
	if s.BaselineEnabled() {
		n++
	}
	if s.FourPaths() {
		n += 2
	}
	return n
}

// FourPaths reports whether the run also measures the one-sidecar paths (admission admits
// it only for ServiceInvocation through Dapr with a baseline).
func (s *PerfRunSpec) FourPaths() bool { return s.InvocationSettings().Paths == PathsFour }

// Body returns the request body: either a random payload of n bytes (literal == nil) or a
// literal body.
func (s *PerfRunSpec) Body() (randomBytes int, literal *string) {
	switch {
	case s.Load.Payload != nil:
		return 0, s.Load.Payload
	case s.Load.PayloadBytes != nil:
		return int(*s.Load.PayloadBytes), nil
	case CapabilityOf(s.Scenario).DefaultBody != "":
		body := CapabilityOf(s.Scenario).DefaultBody
		return 0, &body
	default:
		return DefaultInvocationPayloadBytes, nil
	}
}

// InvocationSettings returns spec.serviceInvocation with defaults filled in.
func (s *PerfRunSpec) InvocationSettings() ServiceInvocationSpec {
	i := ServiceInvocationSpec{Paths: PathsStandard, BaselineTarget: BaselineSamePod}
	if s.ServiceInvocation != nil {
		if s.ServiceInvocation.Paths != "" {
			i.Paths = s.ServiceInvocation.Paths
		}
		if s.ServiceInvocation.BaselineTarget != "" {
			i.BaselineTarget = s.ServiceInvocation.BaselineTarget
		}
	}
	return i
}

// StateSettings returns spec.state with defaults filled in.
func (s *PerfRunSpec) StateSettings() StateSpec {
	st := StateSpec{Operation: StateGet, Keys: DefaultStateKeys}
	if s.State != nil {
		if s.State.Operation != "" {
			st.Operation = s.State.Operation
		}
		if s.State.Keys > 0 {
			st.Keys = s.State.Keys
		}
		st.Component = s.State.Component
	}
	if st.Operation.Bulk() {
		st.BulkSize = DefaultStateBulkSize
		if s.State != nil && s.State.BulkSize > 0 {
			st.BulkSize = s.State.BulkSize
		}
	}
	return st
}

// ConfigurationSettings returns spec.configuration with defaults filled in.
func (s *PerfRunSpec) ConfigurationSettings() ConfigurationSpec {
	c := ConfigurationSpec{Keys: DefaultConfigurationKeys}
	if s.Configuration != nil && s.Configuration.Keys > 0 {
		c.Keys = s.Configuration.Keys
	}
	return c
}

// WorkflowSettings returns spec.workflow with defaults filled in.
func (s *PerfRunSpec) WorkflowSettings() WorkflowSpec {
	w := WorkflowSpec{Pattern: WorkflowChain, Activities: DefaultWorkflowActivities}
	if s.Workflow != nil {
		w.Pattern = cmp.Or(s.Workflow.Pattern, w.Pattern)
		w.Activities = cmp.Or(s.Workflow.Activities, w.Activities)
		w.ActivityDelay, w.StateStore = s.Workflow.ActivityDelay, s.Workflow.StateStore
	}
	return w
}

// SchedulerSettings returns spec.scheduler with defaults filled in (actors only for
// ActorReminders).
func (s *PerfRunSpec) SchedulerSettings() SchedulerSpec {
	c := SchedulerSpec{API: SchedulerJobs, DueTime: &metav1.Duration{Duration: DefaultSchedulerDueTime}}
	if s.Scheduler != nil {
		c.API = cmp.Or(s.Scheduler.API, c.API)
		if s.Scheduler.DueTime != nil {
			c.DueTime = s.Scheduler.DueTime
		}
		c.Actors = s.Scheduler.Actors
	}
	if c.API.HostsActors() {
		c.Actors = cmp.Or(c.Actors, DefaultReminderActors)
	}
	return c
}

// PubSubSettings returns spec.pubsub with defaults filled in (the topic stays empty: the
// operator names it after the run, see internal/scenario/pubsub's Topic).
func (s *PerfRunSpec) PubSubSettings() PubSubSpec {
	p := PubSubSpec{Subscription: SubscriptionProgrammatic}
	if s.PubSub != nil {
		p.Component, p.Topic, p.RawPayload, p.BulkPublish = s.PubSub.Component, s.PubSub.Topic, s.PubSub.RawPayload, s.PubSub.BulkPublish
		if b := s.PubSub.BulkSubscribe; b != nil {
			p.BulkSubscribe = &BulkSubscribeSpec{MaxMessagesCount: cmp.Or(b.MaxMessagesCount, DefaultBulkSubscribeMessages),
				MaxAwaitDurationMs: cmp.Or(b.MaxAwaitDurationMs, DefaultBulkSubscribeAwaitMs)}
		}
		if s.PubSub.Subscription != "" {
			p.Subscription = s.PubSub.Subscription
		}
	}
	return p
}

// ActorSettings returns spec.actors with defaults filled in.
func (s *PerfRunSpec) ActorSettings() ActorsSpec {
	a := ActorsSpec{Host: ActorHostMinimal, Method: DefaultActorMethod}
	if s.Actors != nil && s.Actors.Host == ActorHostGoSDK {
		a.Host, a.Method = ActorHostGoSDK, GoSDKActorMethod
	}
	if s.Actors != nil {
		if s.Actors.ActorType != "" {
			a.ActorType = s.Actors.ActorType
		}
		if s.Actors.Method != "" {
			a.Method = s.Actors.Method
		}
		a.StateStore = s.Actors.StateStore
	}
	return a
}

// ActorType is the actor type the run's target hosts and its load tester calls: the
// spec's, or PerfActor-<first 8 of the uid>-<generation>, which no other run or generation
// shares.
func (r *PerfRun) ActorType() string {
	if t := r.Spec.ActorSettings().ActorType; t != "" {
		return t
	}
	uid := string(r.UID)
	if len(uid) > 8 {
		uid = uid[:8]
	}
	return fmt.Sprintf("%s-%s-%d", DefaultActorType, uid, r.Generation)
}

// EffectiveConnections returns spec.load.connections, defaulted.
func (l *LoadSpec) EffectiveConnections() int32 {
	if l.Connections > 0 {
		return l.Connections
	}
	return DefaultConnections
}

// EffectiveRepetitions returns spec.load.repetitions, defaulted.
func (l *LoadSpec) EffectiveRepetitions() int32 {
	if l.Repetitions > 0 {
		return l.Repetitions
	}
	return DefaultRepetitions
}

// EffectiveDuration returns spec.load.duration, defaulted.
func (l *LoadSpec) EffectiveDuration() time.Duration {
	if l.Duration != nil {
		return l.Duration.Duration
	}
	return DefaultDuration
}

// EffectiveWarmup returns spec.load.warmup, defaulted.
func (l *LoadSpec) EffectiveWarmup() time.Duration {
	if l.Warmup != nil {
		return l.Warmup.Duration
	}
	return DefaultWarmup
}

// LoadTime is how long the load tester drives load: warm-up plus every measured run.
func (s *PerfRunSpec) LoadTime() time.Duration {
	runs := time.Duration(s.Load.EffectiveRepetitions()) * time.Duration(s.Paths())
	return s.Load.EffectiveWarmup() + runs*s.Load.EffectiveDuration()
}

// EffectiveTimeout bounds the whole run: spec.timeout, or the load time plus a margin.
// DefaultMaxQueueWait is how long an exclusive run waits for its turn when
// spec.maxQueueWait is unset.
const DefaultMaxQueueWait = time.Hour

// EffectiveMaxQueueWait returns spec.maxQueueWait, defaulted.
func (s *PerfRunSpec) EffectiveMaxQueueWait() time.Duration {
	if s.MaxQueueWait != nil {
		return s.MaxQueueWait.Duration
	}
	return DefaultMaxQueueWait
}

func (s *PerfRunSpec) EffectiveTimeout() time.Duration {
	if s.Timeout != nil {
		return s.Timeout.Duration
	}
	return s.LoadTime() + timeoutMargin
}

// CallerProtocol is how the load tester calls its sidecar (and the baseline the app).
func (s *PerfRunSpec) CallerProtocol() Protocol {
	if s.Protocol.Caller == "" {
		return ProtocolHTTP
	}
	return s.Protocol.Caller
}

// AppProtocolOf is how a variant's sidecar calls the app: the variant's own setting, else
// the run's.
func (s *PerfRunSpec) AppProtocolOf(v SidecarVariant) Protocol {
	switch {
	case v.AppProtocol != "":
		return v.AppProtocol
	case s.Protocol.App != "":
		return s.Protocol.App
	}
	return ProtocolHTTP
}

// EffectiveVariants are the sidecar setups measured: spec.variants, or the run's own setup
// as one unnamed variant.
func (s *PerfRunSpec) EffectiveVariants() []SidecarVariant {
	if len(s.Variants) > 0 {
		return s.Variants
	}
	return []SidecarVariant{{}}
}

// IsExclusive reports whether the run measures alone on its nodes (the default).
func (s *PerfRunSpec) IsExclusive() bool { return s.Exclusive == nil || *s.Exclusive }
