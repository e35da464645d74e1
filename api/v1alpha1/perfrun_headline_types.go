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

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ResultHeadline is what a person reads of a run's result in `kubectl get` and `describe`
// and a gate or a dashboard reads without the document: the rate carried, the errors, the
// added latency (or the scenario's own figure) at p50, p90 and p99 with its interval, and
// what each sidecar costs per request — and where the whole result is. Every figure is the
// document's own (report.Headline makes it from the document's result); the document has
// the rest.
type ResultHeadline struct {
	// generation is the spec generation the result answers: the one that measured it, or a
	// later one that changed only the thresholds (and re-judged it).
	Generation int64 `json:"generation"`
	// document names the ConfigMap in the run's namespace that holds the result document
	// (perf.daprbench.io/result/v1, gzipped JSON): owned by the run, written once, never
	// changed (immutable). Empty when the document could not be kept (the run's Failed
	// condition says why).
	// +optional
	Document string `json:"document,omitempty"`
	// digest is the SHA-256 of the document's JSON, "sha256:<hex>": what `kubectl daprbench
	// export` prints hashes to it, and a reader refuses a document that does not.
	// +kubebuilder:validation:MaxLength=71
	// +optional
	Digest string `json:"digest,omitempty"`
	// requestedQPS is the rate asked for.
	RequestedQPS int32 `json:"requestedQPS"`
	// actualQPS is the rate the measured path carried (the median over repetitions), a
	// decimal string such as "998.4".
	// +optional
	ActualQPS string `json:"actualQPS,omitempty"`
	// errors is the number of the measured path's requests that failed.
	// +optional
	Errors int64 `json:"errors,omitempty"`
	// latency of the measured path, timed from each request's scheduled send.
	// +optional
	Latency *PointLatency `json:"latency,omitempty"`
	// added is the latency Dapr adds, per percentile (absent where the document says why
	// none is claimed: a saturated path, a late load tester).
	// +optional
	Added *PointLatency `json:"added,omitempty"`
	// addedInterval bounds added, and says what the bounds cover.
	// +optional
	AddedInterval *HeadlineInterval `json:"addedInterval,omitempty"`
	// outcome is an asynchronous scenario's own figure, whose call latency is above: a
	// PubSub run's delivery, a Workflow run's completion, a Scheduler run's trigger lateness.
	// +optional
	Outcome *OutcomeHeadline `json:"outcome,omitempty"`
	// costPerRequest is what each sidecar's CPU costs per completed request.
	// +optional
	CostPerRequest *SidecarCosts `json:"costPerRequest,omitempty"`
}

// IntervalCoverage says what an interval covers.
// +kubebuilder:validation:Enum=ThisRun
type IntervalCoverage string

const (
	// CoversThisRun: the interval holds this run's figure over its repetitions (the spread
	// within the run). A rerun on new pods moves further; compare widens it for a rerun.
	CoversThisRun IntervalCoverage = "ThisRun"
)

// HeadlineInterval is a figure's interval at p50, p90 and p99.
type HeadlineInterval struct {
	// covers says what the interval holds: ThisRun. (Defaulted: a status written by the
	// release before it has none, and must stay writable where the API server does not
	// ratchet validation, Kubernetes 1.29.)
	// +kubebuilder:default=ThisRun
	Covers IntervalCoverage `json:"covers"`
	// confidencePercent is the interval's confidence, e.g. 95.
	ConfidencePercent int32 `json:"confidencePercent"`
	// low and high are its ends.
	Low  PointLatency `json:"low"`
	High PointLatency `json:"high"`
}

// OutcomeFigure names an asynchronous scenario's own figure.
// +kubebuilder:validation:Enum=Delivery;Completion;TriggerLateness
type OutcomeFigure string

const (
	OutcomeDelivery        OutcomeFigure = "Delivery"
	OutcomeCompletion      OutcomeFigure = "Completion"
	OutcomeTriggerLateness OutcomeFigure = "TriggerLateness"
)

// OutcomeHeadline is an asynchronous scenario's own figure: its latency through Dapr with
// its interval, and how many of its messages, workflows or triggers never arrived.
type OutcomeHeadline struct {
	// figure is Delivery, Completion or TriggerLateness.
	Figure OutcomeFigure `json:"figure"`
	// latency at p50, p90 and p99.
	// +optional
	Latency *PointLatency `json:"latency,omitempty"`
	// interval of latency.
	// +optional
	Interval *HeadlineInterval `json:"interval,omitempty"`
	// missing counts messages lost, workflows unfinished or failed, triggers missed.
	// +optional
	Missing int64 `json:"missing,omitempty"`
}

// SidecarCosts is the CPU each sidecar uses per completed request.
type SidecarCosts struct {
	// +optional
	ServerSidecar *metav1.Duration `json:"serverSidecar,omitempty"`
	// +optional
	ClientSidecar *metav1.Duration `json:"clientSidecar,omitempty"`
}
