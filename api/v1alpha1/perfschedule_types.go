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

// ConcurrencyPolicy says what a schedule does when a slot comes while a run is still active.
// +kubebuilder:validation:Enum=Forbid;Allow;Replace
type ConcurrencyPolicy string

const (
	// ConcurrencyForbid skips the slot: overlapping benchmarks measure each other.
	ConcurrencyForbid ConcurrencyPolicy = "Forbid"
	// ConcurrencyAllow starts the new run anyway.
	ConcurrencyAllow ConcurrencyPolicy = "Allow"
	// ConcurrencyReplace deletes the active run and starts the new one.
	ConcurrencyReplace ConcurrencyPolicy = "Replace"
)

// LabelSchedule is set on every PerfRun a PerfSchedule creates, to the schedule's name:
// `kubectl get perfruns -l perf.daprbench.io/schedule=NAME` is the schedule's history.
const LabelSchedule = "perf.daprbench.io/schedule"

// AnnotationScheduledTime records the slot a scheduled PerfRun was created for (RFC 3339).
const AnnotationScheduledTime = "perf.daprbench.io/scheduled-time"

// AnnotationFromSchedule names the schedule whose template a manual run was made from
// (kubectl daprbench run --from=perfschedule/NAME); such a run is not one of its slots.
const AnnotationFromSchedule = "perf.daprbench.io/from-schedule"

// AnnotationTemplateHash records which template a scheduled PerfRun was made from: runs
// are compared only with earlier runs of the same template.
const AnnotationTemplateHash = "perf.daprbench.io/template-hash"

// AnnotationAcceptedBaseline, set on a PerfSchedule to the name of one of its runs, accepts
// the level that run measured as the new normal: regressions are judged only against it
// and the runs after it. Until a user sets it, a step stays flagged on every run after it
// (or until the history shows it fixed).
const AnnotationAcceptedBaseline = "perf.daprbench.io/accepted-baseline"

// PerfScheduleSpec is to PerfRun what a CronJob's spec is to a Job.
// +kubebuilder:validation:XValidation:rule="!has(self.successfulRunsHistoryLimit) || !has(self.regression.window) || self.successfulRunsHistoryLimit >= self.regression.window",message="successfulRunsHistoryLimit must be at least regression.window: the runs a regression is judged against must be kept"
type PerfScheduleSpec struct {
	// schedule in cron format ("0 3 * * *": nightly at 03:00), evaluated in timeZone. Only
	// the characters cron uses (digits, names such as MON or JAN, descriptors such as @daily
	// or @every 1h30m, and * , - / ? #): it is repeated in conditions and printed columns.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9 *,/?#@.-]+$`
	// +kubebuilder:validation:XValidation:rule="!self.contains('TZ=')",message="spec.schedule must not set a time zone (TZ= or CRON_TZ=): use spec.timeZone, as for a CronJob"
	// +kubebuilder:validation:XValidation:rule="self.matches('^@(yearly|annually|monthly|weekly|daily|midnight|hourly|every [0-9hms.]+)$') || self.matches('^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ *$')",message="spec.schedule must be five cron fields (minute hour day-of-month month day-of-week, e.g. 0 3 * * *) or a descriptor (@hourly, @daily, @weekly, @monthly, @yearly, @every 1h30m)"
	// +required
	Schedule string `json:"schedule"`

	// timeZone is an IANA time zone name, e.g. Europe/Berlin; UTC when unset. Admission asks
	// the API server's own time zone database, as for a CronJob; a name the operator's does
	// not know sets Scheduled=False (InvalidSchedule).
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$`
	// +kubebuilder:validation:XValidation:rule="timestamp('2000-01-01T00:00:00Z').getHours(self) >= 0",message="spec.timeZone must name an IANA time zone the API server knows, e.g. Europe/Berlin"
	// +optional
	TimeZone *string `json:"timeZone,omitempty"`

	// template is the PerfRun every slot creates.
	// +required
	Template PerfRunTemplate `json:"template"`

	// suspend stops new runs; active ones go on.
	// +optional
	Suspend bool `json:"suspend,omitempty"`

	// concurrencyPolicy: Forbid (default: a benchmark never overlaps itself), Allow or Replace.
	// +kubebuilder:default=Forbid
	// +optional
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`

	// startingDeadlineSeconds: a slot missed by more than this (controller down, suspended)
	// is not run late; it is recorded as missed. At least 1: 0 would miss every slot; at
	// most a year (365 days): the operator multiplies it into a time.Duration, which
	// overflows above ~9.2e9 seconds, and no schedule needs to run a slot a year late.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=31536000
	// +optional
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`

	// successfulRunsHistoryLimit is how many successful runs are kept, at most 100: the
	// regression judge reads no more than 100 runs of history, and every kept run stays in
	// the operator's cache.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +kubebuilder:default=10
	// +optional
	SuccessfulRunsHistoryLimit *int32 `json:"successfulRunsHistoryLimit,omitempty"`

	// failedRunsHistoryLimit is how many failed runs are kept, at most 100 (each kept run
	// stays in the operator's cache, and with cleanup OnSuccess keeps its pods).
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +kubebuilder:default=3
	// +optional
	FailedRunsHistoryLimit *int32 `json:"failedRunsHistoryLimit,omitempty"`

	// regression compares each finished run with the runs before it.
	// +kubebuilder:default={}
	// +optional
	Regression RegressionSpec `json:"regression,omitempty"`
}

// PerfRunTemplate is the PerfRun a schedule creates.
type PerfRunTemplate struct {
	// metadata: labels and annotations copied onto each run.
	// +optional
	Metadata TemplateMetadata `json:"metadata,omitempty"`
	// spec of each run.
	// +required
	Spec PerfRunSpec `json:"spec"`
}

// TemplateMetadata is the part of object metadata a template may set. Its bounds keep a
// schedule or sweep (and every run made from it) small in the operator's cache while leaving
// room for any real labelling: 16 labels of Kubernetes' own maximum sizes (a 317-character
// key: 253 of prefix, '/', 63 of name; a 63-character value), 16 annotations of up to 1 KiB
// (a note, a link, a commit).
// perf.daprbench.io/ keys are the operator's: it sets them on the runs it creates and selects
// runs by them (a sweep's points, a schedule's history), so a template may not forge them.
type TemplateMetadata struct {
	// labels copied onto each run; no perf.daprbench.io/ key.
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 317 && size(self[k]) <= 63)",message="labels: a key must be at most 317 characters and a value at most 63, as Kubernetes allows on the run"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('perf.daprbench.io/'))",message="labels must not use the perf.daprbench.io/ prefix: the operator sets those keys and selects runs by them"
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// annotations copied onto each run; no perf.daprbench.io/ key.
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 317 && size(self[k]) <= 1024)",message="annotations: a key must be at most 317 characters and a value at most 1024"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('perf.daprbench.io/'))",message="annotations must not use the perf.daprbench.io/ prefix: the operator sets those keys (scheduled time, template hash)"
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// RegressionSpec says how a finished run is compared with the runs before it of the same
// template (a changed template starts a new history), since the accepted baseline
// (annotation perf.daprbench.io/accepted-baseline): a figure is a regression when the
// history changed level (E-divisive means, a permutation test) and the run lies after the
// change, the level since worse than the reference's median by more than tolerancePercent
// and the run worse than it at all — or it is an outlier of the reference (modified z-score
// above 3.5) worse by more than tolerancePercent — and the change exceeds the
// measurement's own precision (for added latency: its confidence interval). The
// reference is the history up to its first change point, without runs judged Regressed.
type RegressionSpec struct {
	// window is how many earlier reference runs the history reaches back to: successful
	// runs, not disturbed, saturated or CPU-limit-bound, and not themselves judged Regressed
	// (those are kept as history between them, up to 100 runs in all); and it holds at least
	// three times as many runs, so a small step's first unflagged runs do not push the runs
	// before it out of the history before its change point is found. A flat history's
	// reference is therefore up to three windows of runs.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=50
	// +kubebuilder:default=10
	// +optional
	Window int32 `json:"window,omitempty"`
	// tolerancePercent is how much worse than the reference median a figure may be.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	// +kubebuilder:default=10
	// +optional
	TolerancePercent int32 `json:"tolerancePercent,omitempty"`
}

// PerfScheduleStatus is what the schedule has done.
type PerfScheduleStatus struct {
	// observedGeneration is the spec generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// lastScheduleTime is the last slot handled (run created, skipped or missed).
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`
	// nextScheduleTime is the next slot.
	// +optional
	NextScheduleTime *metav1.Time `json:"nextScheduleTime,omitempty"`
	// active lists the runs not finished yet.
	// +listType=atomic
	// +optional
	Active []string `json:"active,omitempty"`
	// lastRun is the newest run.
	// +optional
	LastRun string `json:"lastRun,omitempty"`
	// lastSuccessfulRun is the newest run that succeeded.
	// +optional
	LastSuccessfulRun string `json:"lastSuccessfulRun,omitempty"`
	// latestRegressed says whether the newest finished run regressed (nil: not judged yet).
	// +optional
	LatestRegressed *bool `json:"latestRegressed,omitempty"`
	// conditions: Scheduled (why the last slot did or did not create a run), Regressed.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Condition type and reasons of a PerfSchedule.
const (
	// ConditionScheduled reports what happened at the last slot.
	ConditionScheduled = "Scheduled"
	// ReasonRunCreated: the slot created a run.
	ReasonRunCreated = "RunCreated"
	// ReasonOverlap: the slot was skipped because a run was still active (Forbid).
	ReasonOverlap = "Overlap"
	// ReasonMissedDeadline: the slot was found later than startingDeadlineSeconds allows.
	ReasonMissedDeadline = "MissedDeadline"
	// ReasonSuspended: the schedule is suspended.
	ReasonSuspended = "Suspended"
	// ReasonInvalidSchedule: the cron expression or time zone cannot be parsed.
	ReasonInvalidSchedule = "InvalidSchedule"
	// ReasonRunNotCreated: the API server refused the slot's PerfRun (its template passes
	// the schedule's admission but not the run's, a quota, a policy); its words are in the
	// message.
	ReasonRunNotCreated = "RunNotCreated"
	// ReasonTooManyMissedSlots (a Warning event): over a hundred slots were missed, as
	// CronJob's TooManyMissedTimes; only the latest is handled.
	ReasonTooManyMissedSlots = "TooManyMissedSlots"

	// ConditionTemplateAdmitted reports whether the API server admits a run made from this
	// generation's template, asked with a dry-run create (until it is admitted):
	// a template the schedule's own admission cannot check (a label's grammar, a policy, a
	// quota's rules) is refused now, not at the first slot.
	ConditionTemplateAdmitted = "TemplateAdmitted"
	// ReasonTemplateAdmitted: the dry run was admitted.
	ReasonTemplateAdmitted = "Admitted"
	// ReasonTemplateRefused: the dry run was refused; the API server's words are in the
	// message. It is asked again at the next pass, and slots still try, in case what refused
	// it changes (a quota, a policy).
	ReasonTemplateRefused = "Refused"
	// ReasonTemplateNotChecked (Unknown): the API server could not answer the dry run (an
	// admission webhook with side effects refuses every dry run; a timeout); asked again at
	// the next pass.
	ReasonTemplateNotChecked = "NotChecked"
)

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=psched,categories=daprbench
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 28",message="metadata.name must be at most 28 characters: runs are named <schedule>-<minute of the slot>"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="metadata.name must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter): it prefixes the names of its runs' Services"
// +kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=`.spec.schedule`
// +kubebuilder:printcolumn:name="Suspend",type=boolean,JSONPath=`.spec.suspend`
// +kubebuilder:printcolumn:name="Last Run",type=string,JSONPath=`.status.lastRun`
// +kubebuilder:printcolumn:name="Regressed",type=boolean,JSONPath=`.status.latestRegressed`
// +kubebuilder:printcolumn:name="Last Schedule",type=date,JSONPath=`.status.lastScheduleTime`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// PerfSchedule runs a PerfRun on a cron schedule — continuous benchmarking — and flags runs
// that regressed against the ones before them.
type PerfSchedule struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +required
	Spec PerfScheduleSpec `json:"spec"`
	// +optional
	Status PerfScheduleStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// PerfScheduleList contains a list of PerfSchedule.
type PerfScheduleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PerfSchedule `json:"items"`
}
