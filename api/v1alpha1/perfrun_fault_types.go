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
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FaultKind is what a fault does.
// +kubebuilder:validation:Enum=TargetErrors;TargetDelay;PodKill
type FaultKind string

const (
	// FaultTargetErrors: the target app answers errorPercent of the invocations it gets
	// with 500, evenly (20 fails every fifth).
	FaultTargetErrors FaultKind = "TargetErrors"
	// FaultTargetDelay: the target app holds every invocation it gets for delay.
	FaultTargetDelay FaultKind = "TargetDelay"
	// FaultPodKill: the operator deletes the pod of role at once (grace period 0, as a crash
	// or a lost node would end it): the run's own, which its Deployment replaces, or every
	// pod of a Dapr control-plane service.
	FaultPodKill FaultKind = "PodKill"
)

// FaultRole is the part of the run, or of Dapr's control plane, a PodKill deletes the pods of.
// +kubebuilder:validation:Enum=Target;Store;LoadTester;Scheduler;Placement;Sentry
type FaultRole string

const (
	// FaultRoleTarget is the target app's pod: its app and its daprd.
	FaultRoleTarget FaultRole = "Target"
	// FaultRoleStore is the store or broker the run deploys (a PubSub run's Redis): it keeps
	// nothing on disk, so its replacement starts empty, as a broker that lost its node does.
	FaultRoleStore FaultRole = "Store"
	// FaultRoleLoadTester is the load-tester group's last pod (of loadTester.replicas, two
	// or more), a caller that crashes mid-run: its Job replaces it, and the replacement
	// sends its share again from the next phase. Its requests in the phase it was killed in
	// are lost with it; the result holds the other pods' (their requested rate says so).
	FaultRoleLoadTester FaultRole = "LoadTester"
	// FaultRoleScheduler, FaultRolePlacement and FaultRoleSentry are a Dapr control-plane
	// service: every pod of it in the operator's Dapr namespace, deleted at once, is an
	// outage of it until its StatefulSet or Deployment has them back. Every tenant's
	// sidecars use it: refused unless the platform team enables it (the operator's
	// --allow-control-plane-faults), and such a run waits for every other run and holds the
	// whole cluster while it measures.
	FaultRoleScheduler FaultRole = "Scheduler"
	FaultRolePlacement FaultRole = "Placement"
	FaultRoleSentry    FaultRole = "Sentry"
)

// ControlPlane reports whether the role is a Dapr control-plane service, not the run's own pod.
func (r FaultRole) ControlPlane() bool {
	return r == FaultRoleScheduler || r == FaultRolePlacement || r == FaultRoleSentry
}

// KillsLoadTester reports whether the fault deletes one of the run's load-tester pods.
func (f Fault) KillsLoadTester() bool {
	return f.Kind == FaultPodKill && f.Role != nil && *f.Role == FaultRoleLoadTester
}

// KillsLoadTester reports whether a fault of the spec deletes one of its load-tester pods.
func (s *PerfRunSpec) KillsLoadTester() bool {
	return slices.ContainsFunc(s.Faults, Fault.KillsLoadTester)
}

// KillsControlPlane reports whether a fault of the spec deletes Dapr's control-plane pods.
func (s *PerfRunSpec) KillsControlPlane() bool {
	for _, f := range s.Faults {
		if f.Kind == FaultPodKill && f.Role != nil && f.Role.ControlPlane() {
			return true
		}
	}
	return false
}

// Fault is trouble the run makes on purpose, at the same time in every measured phase of the
// Dapr path (never the baseline's), so each repetition measures it once. The load tester
// orders it on its own phase clock, the one every latency is timed on (from the target app,
// or a PodKill from the operator, with the run's token), and records when it held; the
// result says what it cost (status.result.faults).
// +kubebuilder:validation:XValidation:rule="self.kind != 'TargetErrors' || (has(self.errorPercent) && !has(self.delay))",message="a TargetErrors fault sets errorPercent, and no delay"
// +kubebuilder:validation:XValidation:rule="self.kind != 'TargetDelay' || (has(self.delay) && !has(self.errorPercent))",message="a TargetDelay fault sets delay, and no errorPercent"
// +kubebuilder:validation:XValidation:rule="(self.kind == 'PodKill') == has(self.role)",message="a PodKill fault names the role whose pod it deletes, and only a PodKill does"
// +kubebuilder:validation:XValidation:rule="self.kind != 'PodKill' || (!has(self.errorPercent) && !has(self.delay))",message="a PodKill fault sets no errorPercent and no delay"
// +kubebuilder:validation:XValidation:rule="!has(self.hold) || (self.kind == 'PodKill' && has(self.role) && self.role in ['Scheduler', 'Placement', 'Sentry'])",message="hold keeps a Dapr control-plane service down: only a PodKill of Scheduler, Placement or Sentry sets it"
// +kubebuilder:validation:XValidation:rule="!has(self.hold) || duration(self.hold) < duration(self.duration)",message="hold must be below duration: the service's pods are let back after the hold, and the fault holds until they are ready, within duration"
type Fault struct {
	// kind is what the fault does: TargetErrors, TargetDelay or PodKill.
	// +required
	Kind FaultKind `json:"kind"`

	// role is whose pod a PodKill deletes: Target, or Store (the broker a PubSub run
	// deploys), the run's own, which its Deployment replaces; LoadTester, the last of the
	// run's load-tester pods (loadTester.replicas 2 or more), which its Job replaces for the
	// next phase; or Scheduler, Placement or
	// Sentry: every pod of that Dapr control-plane service, an outage until they are back
	// (only where the operator runs with --allow-control-plane-faults). Required with
	// PodKill, refused with the others.
	// +optional
	Role *FaultRole `json:"role,omitempty"`

	// at is when the fault begins, from the start of each measured phase: at least 5s, the
	// seconds before it set the band the path's recovery is judged against.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('5s') && duration(self) <= duration('24h')",message="at must be between 5s and 24h: the seconds before a fault set the band its recovery is judged against"
	// +required
	At metav1.Duration `json:"at"`

	// duration is how long the fault holds, from 1s; it must end 3s or more before
	// load.duration. A PodKill holds from the deletion until the replacement pod is ready
	// (a control-plane kill: every replacement, after its hold), at most duration: the
	// longest the operator waits for it.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('1s') && duration(self) <= duration('24h')",message="duration must be between 1s and 24h"
	// +required
	Duration metav1.Duration `json:"duration"`

	// hold keeps a control-plane service down (a PodKill of Scheduler, Placement or Sentry
	// only): for this long from the order, every pod of it that appears is deleted too, before
	// it can be ready, as an outage that lasts does; then its pods are let back, and the fault
	// holds until they are ready, within duration; the hold ends early if the run stops
	// measuring. At least 1s, below duration. Unset: the pods are deleted once, and the fault
	// ends when their replacements are ready.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('1s') && duration(self) <= duration('24h')",message="hold must be between 1s and 24h"
	// +optional
	Hold *metav1.Duration `json:"hold,omitempty"`
	// errorPercent is the share of invocations a TargetErrors fault answers with 500, from 1
	// to 100: required with TargetErrors, refused with TargetDelay.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	ErrorPercent *int32 `json:"errorPercent,omitempty"`

	// delay is how long a TargetDelay fault holds each invocation (required with TargetDelay,
	// refused with TargetErrors): above 0, at most 5s
	// (the load tester gives a request 10s; near that, its timeout is what is measured).
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) > duration('0s') && duration(self) <= duration('5s')",message="delay must be above 0s and at most 5s: the load tester gives a request 10s"
	// +optional
	Delay *metav1.Duration `json:"delay,omitempty"`
}

// FaultOutcome is what one of spec.faults did to one path, over the measured phases it was
// applied in (one a repetition). Every latency is from each request's scheduled send, of the
// successes only; failures are counted.
type FaultOutcome struct {
	// fault is the fault's index in spec.faults, kind its kind.
	Fault int32     `json:"fault"`
	Kind  FaultKind `json:"kind"`
	// path is the path it was applied to.
	Path string `json:"path"`
	// applied counts the phases it was applied in; notApplied says why it was not in the others.
	Applied int32 `json:"applied"`
	// +kubebuilder:validation:MaxItems=64
	// +optional
	NotApplied []string `json:"notApplied,omitempty"`
	// before, during and after are the seconds before the fault, those it touched at all,
	// and those after it, each summed over the phases it was applied in.
	Before FaultWindow `json:"before"`
	During FaultWindow `json:"during"`
	After  FaultWindow `json:"after"`
	// recovery is the mean time from the fault's end to the first of 3 seconds in a row
	// back inside the band its phase's pre-fault seconds set (p99 under their one-sided
	// 97.5% prediction bound, errors not above their rate's Wilson bound), over the phases
	// that recovered; recoveryInterval its 95% t interval over them (this run's
	// repetitions, not a rerun's), with two or more, its low end held at 0 (two
	// repetitions give t 12.7: wide).
	// +optional
	Recovery *metav1.Duration `json:"recovery,omitempty"`
	// +optional
	RecoveryInterval *DurationInterval `json:"recoveryInterval,omitempty"`
	// slowestRecovery is the longest recovery of the phases that recovered: what
	// thresholds.maxRecovery is judged on, with notRecovered.
	// +optional
	SlowestRecovery *metav1.Duration `json:"slowestRecovery,omitempty"`
	// recovered counts the phases that recovered before their end, notRecovered those that
	// did not, and unjudged those with fewer than 5 pre-fault seconds with a success to time
	// (the band is set by them).
	Recovered    int32 `json:"recovered"`
	NotRecovered int32 `json:"notRecovered,omitempty"`
	Unjudged     int32 `json:"unjudged,omitempty"`
	// amplification is how many invocations the target app saw per request sent over each
	// whole phase (Resiliency's retries show above 1; r retries a request during the fault
	// show as about 1 + r × duration/load.duration), as a decimal string such as "1.02",
	// the mean over the phases with its 95% interval; empty when the app's count was not read.
	// Across a PodKill of the target it is the killed app's count at its last reading (every
	// 100ms while the kill holds, the highest kept) and its replacement's from 0: short only
	// of what the killed app served after that reading.
	// +optional
	Amplification string `json:"amplification,omitempty"`
	// +optional
	AmplificationLow string `json:"amplificationLow,omitempty"`
	// +optional
	AmplificationHigh string `json:"amplificationHigh,omitempty"`
	// messages are what a PubSub run's messages (a Scheduler run's jobs or reminders: lost
	// are triggers missed, duplicated those fired twice) did in the phases the fault was
	// applied in, summed; unset for a scenario without messages.
	// +optional
	Messages *FaultMessages `json:"messages,omitempty"`
	// instances are what a Workflow run's instances did in the phases the fault was applied
	// in, summed; unset for another scenario.
	// +optional
	Instances *FaultInstances `json:"instances,omitempty"`
	// daprdCPU is each daprd's CPU before and during the fault (what an outage costs the
	// sidecars that keep calling it), from its own counter; empty when not read.
	// +kubebuilder:validation:MaxItems=2
	// +optional
	DaprdCPU []FaultDaprdCPU `json:"daprdCPU,omitempty"`
	// kills are a PodKill's pods, one a phase it was applied in: the pod deleted, the pod
	// that replaced it and how soon after the deletion the replacement was ready.
	// +kubebuilder:validation:MaxItems=64
	// +optional
	Kills []PodKillRecord `json:"kills,omitempty"`
	// timeline is the path second by second through the phases the fault was applied in:
	// latency and errors over time, as report.html draws them.
	// +optional
	Timeline *FaultTimeline `json:"timeline,omitempty"`
}

// FaultTimeline is a path's faulted phases second by second, pooled over the phases: entry
// k holds the k-th second from each phase's schedule start (the clock the fault is timed
// on), every phase's requests of that second together (a phase that ended a second early
// is missing from the last). One entry a second, at most MaxFaultTimelineSeconds (a fault
// run's phase is at most 10m).
type FaultTimeline struct {
	// requests were due in the second (their slots fell in it); errors of them failed.
	// +kubebuilder:validation:MaxItems=660
	Requests []int64 `json:"requests"`
	// +kubebuilder:validation:MaxItems=660
	Errors []int64 `json:"errors"`
	// p50Micros and p99Micros are the second's successes' latency from their scheduled
	// sends, in µs, their histograms merged over the phases (never averaged); 0 for a second
	// without a success.
	// +kubebuilder:validation:MaxItems=660
	P50Micros []int64 `json:"p50Micros"`
	// +kubebuilder:validation:MaxItems=660
	P99Micros []int64 `json:"p99Micros"`
}

// MaxFaultTimelineSeconds bounds a fault timeline: a 10-minute phase and a minute of slack.
const MaxFaultTimelineSeconds = 660

// FaultMessages are a PubSub run's messages over the phases a fault was applied in.
type FaultMessages struct {
	// published were accepted by the broker through daprd; lost of them were not delivered
	// by the drain after their phase (result.delivery's bound); duplicated counts deliveries
	// beyond a message's first.
	Published  int64 `json:"published"`
	Lost       int64 `json:"lost"`
	Duplicated int64 `json:"duplicated"`
	// lostPerPhase is the mean lost a phase, as a decimal string such as "812.5", with its
	// 95% t interval over the phases (this run's repetitions, not a rerun's; two or more),
	// its low end held at 0.
	LostPerPhase string `json:"lostPerPhase"`
	// +optional
	LostPerPhaseLow string `json:"lostPerPhaseLow,omitempty"`
	// +optional
	LostPerPhaseHigh string `json:"lostPerPhaseHigh,omitempty"`
}

// FaultDaprdCPU is one daprd's CPU before and during a fault, from its own counter
// (process_cpu_seconds_total) as the load tester read it at the phase's start and at the
// fault's start and end: each the mean over the phases it was read in, during's with its
// 95% t interval over them (this run's repetitions; two or more).
type FaultDaprdCPU struct {
	// sidecar is whose: clientSidecar (the load tester's own daprd) or serverSidecar (the
	// target's; not read across a kill of the target).
	Sidecar string `json:"sidecar"`
	// before is from the phase's start to the fault's; during over the fault's span.
	Before resource.Quantity `json:"before"`
	During resource.Quantity `json:"during"`
	// +optional
	DuringLow *resource.Quantity `json:"duringLow,omitempty"`
	// +optional
	DuringHigh *resource.Quantity `json:"duringHigh,omitempty"`
}

// FaultInstances are a Workflow run's instances over the phases a fault was applied in.
type FaultInstances struct {
	// started are the instances whose start daprd accepted; of them, completed and failed
	// ended by the drain after their phase (result.completion's bound), and stuck had not:
	// what an outage left hanging.
	Started   int64 `json:"started"`
	Completed int64 `json:"completed"`
	Failed    int64 `json:"failed"`
	Stuck     int64 `json:"stuck"`
	// stuckPerPhase is the mean stuck a phase, as a decimal string such as "12.5", with its
	// 95% t interval over the phases (this run's repetitions, not a rerun's; two or more),
	// its low end held at 0.
	StuckPerPhase string `json:"stuckPerPhase"`
	// +optional
	StuckPerPhaseLow string `json:"stuckPerPhaseLow,omitempty"`
	// +optional
	StuckPerPhaseHigh string `json:"stuckPerPhaseHigh,omitempty"`
}

// PodKillRecord is one pod a PodKill deleted and what replaced it.
type PodKillRecord struct {
	// repetition is the measured phase's, from 1.
	Repetition int32 `json:"repetition"`
	// deleted is the pod the operator deleted; replacement the pod made in its place (empty
	// when none was made within the fault's duration). A control-plane kill deletes every
	// pod of the service: both then list them, comma-separated (a StatefulSet's replacements
	// take their predecessors' names).
	Deleted string `json:"deleted"`
	// +optional
	Replacement string `json:"replacement,omitempty"`
	// readyAfter is from the load tester's order to the operator's answer that the
	// replacement was ready, on the load tester's clock (the deletion and the answer's round
	// trip included): the span the fault held. Unset when none was ready by the fault's
	// duration; replacement then names the pod made in its place, if any.
	// +optional
	ReadyAfter *metav1.Duration `json:"readyAfter,omitempty"`
	// measuredQPS is set for a kill of a LoadTester: the rate of the load-tester pods whose
	// requests the phase holds, below the run's. The killed pod's requests in the phase were
	// sent but are not in the result: its recording died with it.
	// +optional
	MeasuredQPS string `json:"measuredQPS,omitempty"`
}

// FaultWindow is a span of a path's timeline, summed.
type FaultWindow struct {
	// seconds is how many seconds of the timeline it holds.
	Seconds int32 `json:"seconds"`
	// requests were due in it; errors of them failed.
	Requests int64 `json:"requests"`
	Errors   int64 `json:"errors"`
	// errorPercent is errors over requests, with its 95% Wilson interval, as decimal strings.
	// The interval is of the window's requests, the repetitions pooled; during holds every
	// second the fault touched, so it reads below a TargetErrors fault's own share.
	// +optional
	ErrorPercent string `json:"errorPercent,omitempty"`
	// +optional
	ErrorPercentLow string `json:"errorPercentLow,omitempty"`
	// +optional
	ErrorPercentHigh string `json:"errorPercentHigh,omitempty"`
	// p50 and p99 of its successes' latency; unset with none.
	// +optional
	P50 *metav1.Duration `json:"p50,omitempty"`
	// +optional
	P99 *metav1.Duration `json:"p99,omitempty"`
}

// DurationInterval is an interval of a duration.
type DurationInterval struct {
	Low  metav1.Duration `json:"low"`
	High metav1.Duration `json:"high"`
}
