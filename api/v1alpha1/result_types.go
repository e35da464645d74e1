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
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The types of a run's result document (perf.daprbench.io/result/v1, result_document.go):
// every figure a run measured. None of them is part of a CRD's schema: the document is
// kept in a ConfigMap the run owns, and status holds its headline (ResultHeadline).

// Result is the measurement of one run.
type Result struct {
	// generation is the spec generation this result answers: the one that measured it, or a
	// later one that changed only the thresholds (and re-judged it).
	Generation int64 `json:"generation"`

	// requestedQPS is the rate that was asked for.
	RequestedQPS int32 `json:"requestedQPS"`

	// actualQPS is the achieved rate of the measured path (median over repetitions), a
	// decimal string such as "998.4".
	// +optional
	ActualQPS string `json:"actualQPS,omitempty"`

	// measuredRequestedQPS is the rate the measured path's phases asked of the load-tester
	// pods whose requests they hold (median over repetitions, as actualQPS), set when below
	// requestedQPS: a LoadTester kill loses the killed pod's requests in its phase.
	// minQPSPercent is judged against it (saturation: each phase against its own).
	// +optional
	MeasuredRequestedQPS string `json:"measuredRequestedQPS,omitempty"`

	// requests is the number of measured requests over every repetition of the measured path.
	// +optional
	Requests int64 `json:"requests,omitempty"`

	// errors is the number of those requests that did not return 200 (socket errors included).
	// +optional
	Errors int64 `json:"errors,omitempty"`

	// returnCodes counts responses by HTTP status code; "-1" counts socket errors.
	// +optional
	ReturnCodes map[string]int64 `json:"returnCodes,omitempty"`

	// latency of the measured path (through Dapr, or direct when dapr.enabled=false): the
	// distribution of every request over every repetition (their histograms merged).
	// +optional
	Latency *LatencySummary `json:"latency,omitempty"`

	// faults are what each of spec.faults did to each path it was applied to.
	// +kubebuilder:validation:MaxItems=4
	// +optional
	Faults []FaultOutcome `json:"faults,omitempty"`

	// delivery is a PubSub run's publish-to-delivery figures (latency above is the publish
	// call's own).
	// +optional
	Delivery *DeliveryResult `json:"delivery,omitempty"`

	// completion is a Workflow run's instances, each from its scheduled start to its
	// completion (latency above is the start call's own).
	// +optional
	Completion *CompletionResult `json:"completion,omitempty"`

	// triggers is a Scheduler run's jobs, reminders or timers, each from its registration's
	// slot plus its due time to its trigger (latency above is the registration call's own).
	// +optional
	Triggers *TriggerResult `json:"triggers,omitempty"`

	// actorHost is an ActorActivation run's actor runtime (spec.actors.host, defaulted):
	// Minimal or GoSDK. Two runs that differ only in it read the SDK's share of the latency.
	// +optional
	ActorHost ActorHost `json:"actorHost,omitempty"`

	// latencySignificantDigits is the precision of every latency figure: each request's
	// latency was recorded to this many significant digits (3: within 0.1%).
	// +optional
	LatencySignificantDigits int32 `json:"latencySignificantDigits,omitempty"`

	// serviceTime of the measured path: each request timed from its actual send, as fortio
	// alone reports it. latency (timed from the slot each request was due in) includes the
	// time a request waited for the one before it on its connection; serviceTime does not,
	// so a stall shows in latency and hides here (coordinated omission).
	// +optional
	ServiceTime *LatencySummary `json:"serviceTime,omitempty"`
	// sendLag of the measured path: how late each request was sent behind its slot — the
	// load tester's own lag plus the wait for the connection's previous request (a stalled
	// path makes the next sends late; that is the path's latency, not saturation).
	// +optional
	SendLag *LatencySummary `json:"sendLag,omitempty"`
	// testerLag of the measured path: how late the load tester itself sent each request,
	// behind both its slot and the previous completion on its connection. It is in latency
	// (nothing is taken off), and judged: against testerLatenessLimit for the added latency's
	// claim, and against one connection's gap for condition Saturated.
	// +optional
	TesterLag *LatencySummary `json:"testerLag,omitempty"`
	// baseline is the latency of the sidecar-free path, when measured, by the same rule.
	// +optional
	Baseline *LatencySummary `json:"baseline,omitempty"`
	// baselineServiceTime and baselineSendLag are the baseline path's, by the same rules.
	// +optional
	BaselineServiceTime *LatencySummary `json:"baselineServiceTime,omitempty"`
	// +optional
	BaselineSendLag *LatencySummary `json:"baselineSendLag,omitempty"`

	// baselineActualQPS is the achieved rate of the baseline path.
	// +optional
	BaselineActualQPS string `json:"baselineActualQPS,omitempty"`

	// added is the latency Dapr adds: for each percentile, latency's value minus baseline's
	// value of the same percentile, and the same for the mean (no max: the difference of two
	// maxima is noise). It can be negative; addedInterval says whether it is within noise.
	// Absent when a path was Saturated (the latency of a rate that was not carried), unless
	// only the Dapr path fell behind, on time, because a sidecar's CPU limit throttled it:
	// then addedLimitBound is true and added is the latency that sidecar, held at its limit,
	// adds at the requested rate (a queue's), beside what it costs (sidecarCost).
	// +optional
	Added *LatencySummary `json:"added,omitempty"`

	// addedLimitBound is true when added is claimed although the Dapr path did not carry
	// the requested rate: its load tester was on time, the baseline carried the rate, and a
	// sidecar or app was throttled by its CPU limit (limitBound). The figure is then the
	// limit's at that rate, not Dapr's work alone; read sidecarCost for what Dapr costs.
	// +optional
	AddedLimitBound bool `json:"addedLimitBound,omitempty"`

	// testerLatenessLimit is the most the load tester's own lateness (testerLag) may reach
	// at p90 over any path's requests for added to be claimed: a tenth of the baseline's
	// p50, at least 2 ms. Latency is timed from the scheduled send with nothing taken off,
	// so a late tester's delay is in every figure; its p99 is shown (paths), not judged.
	// +optional
	TesterLatenessLimit *metav1.Duration `json:"testerLatenessLimit,omitempty"`
	// baselineMethod says, when the baseline does the work by another method than daprd,
	// how: a State BulkGet or BulkSave, and a bulk publish, go through daprd as one round
	// trip per key or entry, in parallel, while the baseline pipelines them into one. The
	// added latency then holds that difference of method beside Dapr's cost; every message
	// and gate that reads it says so. Empty: like for like.
	// +optional
	BaselineMethod string `json:"baselineMethod,omitempty"`
	// knownAnswerDelay is the calibration hold the run carried (its
	// perf.daprbench.io/known-answer-dapr-delay annotation): every call or delivery through
	// Dapr was held this long on purpose, so its figures are the instrument's known answer,
	// not Dapr's. A schedule never judges such a run, nor keeps it as history.
	// +optional
	KnownAnswerDelay *metav1.Duration `json:"knownAnswerDelay,omitempty"`
	// testerLagDifference is the measured path's tester lateness at p90 less the baseline's:
	// lateness only the Dapr path suffered, which the added latency carries (each path's is
	// in its own latency). Named among what bounded the latency from 0.5 ms and a tenth of
	// the added p50; absent without both paths' lateness.
	// +optional
	TesterLagDifference *metav1.Duration `json:"testerLagDifference,omitempty"`
	// addedNotClaimed says why added is absent although every path carried the rate: the
	// load tester was later than testerLatenessLimit (the message gives each late path's
	// p90; its p99 is in paths).
	// +optional
	AddedNotClaimed string `json:"addedNotClaimed,omitempty"`

	// addedInterval bounds each figure of added with a confidence interval: from the spread
	// of the repetitions' own differences (Student's t) and a block bootstrap of one-second
	// blocks within runs, whichever is wider; basis says which kind it is. An interval that
	// reaches zero or below means the difference is within noise.
	// +optional
	AddedInterval *LatencyInterval `json:"addedInterval,omitempty"`

	// spread gives the lowest and highest value of each percentile over repetitions, so a
	// reader can judge the noise (set with more than one repetition).
	// +optional
	Spread *Spread `json:"spread,omitempty"`

	// resources is the CPU and memory per role while the measured path (through Dapr, or
	// direct) ran: only metrics windows that lie wholly inside its runs, away from their first
	// and last seconds, count; warm-up and baseline windows do not.
	// +optional
	Resources *ResourceUsage `json:"resources,omitempty"`

	// memoryTrends are each sidecar's working-set slope over the measured load, for a run
	// whose measured load spans 10 minutes or more (a soak): a leak reads as a slope above 0.
	// +kubebuilder:validation:MaxItems=8
	// +optional
	MemoryTrends []MemoryTrend `json:"memoryTrends,omitempty"`

	// daprdTrends are each daprd's goroutines and open file descriptors over the same span,
	// from its own gauges (the load tester reads them through a measured load of 10 minutes
	// or more): a soak's leak of goroutines or connections, as memoryTrends' of memory.
	// +kubebuilder:validation:MaxItems=4
	// +optional
	DaprdTrends []DaprdTrend `json:"daprdTrends,omitempty"`

	// latencyDrift is how the measured path's p90 moved over a measured load of 10 minutes
	// or more (a soak), from the load tester's windows of it: its slope an hour with an
	// interval, and the points where it changed level.
	// +optional
	LatencyDrift *LatencyDrift `json:"latencyDrift,omitempty"`

	// baselineResources is the CPU and memory per role while the sidecar-free baseline ran,
	// by the same rule.
	// +optional
	BaselineResources *ResourceUsage `json:"baselineResources,omitempty"`

	// variants holds each sidecar variant's figures, in spec order, when spec.variants is
	// set; the fields above are then the first variant's.
	// +listType=map
	// +listMapKey=name
	// +optional
	Variants []VariantResult `json:"variants,omitempty"`

	// attribution splits the added latency between the client and the server sidecar, with
	// their interaction, when the run measured four paths (spec.serviceInvocation.paths FourPaths).
	// +optional
	Attribution *Attribution `json:"attribution,omitempty"`

	// loadTesters holds each load-tester pod's share and achieved rate when the load was
	// split over several pods (spec.loadTester.replicas), so a pod that lagged is visible.
	// The figures above are those of every pod's requests together.
	// +listType=map
	// +listMapKey=index
	// +optional
	LoadTesters []LoadTesterPod `json:"loadTesters,omitempty"`

	// cpu is each container's CPU and CFS throttling during the measured runs and during
	// the baseline runs, and each node's CPU busy, from the kubelet's counters differenced at
	// the runs' edges: exact for runs of any length, and it shows what a CPU figure capped
	// at a container's limit cannot — how often the limit stalled it.
	// +optional
	CPU *CPUAccounting `json:"cpu,omitempty"`
	// paths accounts for every scheduled request of each path over its repetitions:
	// scheduled, sent, completed, failed and never sent (a path still stalled at a run's end
	// time; those slots are in its latency at the least they waited), and the load tester's
	// own lag.
	// +listType=map
	// +listMapKey=path
	// +optional
	Paths []PathAccounting `json:"paths,omitempty"`
	// sidecarCost is what each sidecar's CPU costs per completed request of the measured
	// path, and the rate its CPU limit sustains at that cost: Dapr's cost, told apart from
	// the limit, even when the limit bounded the run.
	// +listType=map
	// +listMapKey=role
	// +optional
	SidecarCost []SidecarCost `json:"sidecarCost,omitempty"`
	// foreignCPU is, per node the run's counters read, the CPU it spent outside the run's own
	// containers during the measured runs: other tenants, Dapr's control plane, the
	// kubelet. Large, it competes with the run for the node's cores.
	// +listType=map
	// +listMapKey=node
	// +optional
	ForeignCPU []ForeignCPU `json:"foreignCPU,omitempty"`
	// limitBound is true when a sidecar or app was throttled by its CPU limit during the
	// measured runs, its throttled share's interval wholly above 1% of its CFS periods
	// (condition CPULimitBound True): the added latency is then that of a sidecar at its
	// limit at the requested rate, not of Dapr's work alone. With sidecar variants it is the
	// first variant's, whose latency added holds; CPULimitBound judges every variant's. A share whose interval holds
	// the 1% line is marginal: CPULimitBound Unknown, reason ThrottledMarginal.
	// +optional
	LimitBound bool `json:"limitBound,omitempty"`
	// saturated lists the paths whose load tester could not keep its schedule: their
	// latency is that of a lower rate than requested, so no added latency is claimed.
	// +listType=map
	// +listMapKey=path
	// +optional
	Saturated []SaturatedPath `json:"saturated,omitempty"`
	// firstRepetitions shows, for the measured path and the baseline, the first
	// repetition's p50 beside the later ones' range: whether the warm-up warmed. With
	// three or more repetitions a first one slower than every later one by more than their
	// spread and a tenth of their median is flagged cold.
	// +listType=map
	// +listMapKey=path
	// +optional
	FirstRepetitions []FirstRepetition `json:"firstRepetitions,omitempty"`
	// restarts counts container restarts per role during the run.
	// +optional
	Restarts *Restarts `json:"restarts,omitempty"`
	// repetitions are every measured run of every path, in the order they were made: what
	// the figures above merge, and their spread.
	// +optional
	Repetitions []RepetitionResult `json:"repetitions,omitempty"`
}

// RepetitionResult is one path's measured run in one repetition.
type RepetitionResult struct {
	// path is the path's name: baseline, dapr, a variant's name, ...
	Path string `json:"path"`
	// repetition counts from 1.
	Repetition int32 `json:"repetition"`
	// start is when the run began; secondHalfStart, for a repetition measured in two
	// halves (an odd repetition count is balanced that way), when its second half began.
	// +optional
	Start *metav1.Time `json:"start,omitempty"`
	// +optional
	SecondHalfStart *metav1.Time `json:"secondHalfStart,omitempty"`
	// duration is how long the run lasted.
	// +optional
	Duration *metav1.Duration `json:"duration,omitempty"`
	// actualQPS is the rate it achieved.
	ActualQPS string `json:"actualQPS"`
	// requests made, of which errors failed; scheduled is the slots its schedule had
	// (scheduled − requests were never sent).
	Requests int64 `json:"requests"`
	// +optional
	Errors int64 `json:"errors,omitempty"`
	// +optional
	Scheduled int64 `json:"scheduled,omitempty"`
	// returnCodes counts responses by HTTP status code; "-1" counts socket errors.
	// +optional
	ReturnCodes map[string]int64 `json:"returnCodes,omitempty"`
	// latency of the run's requests, from each one's scheduled send.
	// +optional
	Latency *LatencySummary `json:"latency,omitempty"`
	// sendLagP99 and testerLagP99 are the 99th percentiles of how late requests were sent
	// behind their slots, and of the load tester's own share of that.
	// +optional
	SendLagP99 *metav1.Duration `json:"sendLagP99,omitempty"`
	// +optional
	TesterLagP99 *metav1.Duration `json:"testerLagP99,omitempty"`
	// serverSidecarCPU and clientSidecarCPU are the CPU time each daprd used over the run,
	// read from its own counter at the run's edges (clientSidecarCPU: every load-tester
	// pod's daprd together).
	// +optional
	ServerSidecarCPU *metav1.Duration `json:"serverSidecarCPU,omitempty"`
	// +optional
	ClientSidecarCPU *metav1.Duration `json:"clientSidecarCPU,omitempty"`
}

// CPUAccounting is CPU use and throttling per container, per kind of phase.
type CPUAccounting struct {
	// source of the figures, e.g. "kubelet /metrics/cadvisor through the API server's node proxy".
	Source string `json:"source"`
	// measured holds the figures over the runs of the measured path (through Dapr, or direct;
	// with sidecar variants, the first variant's).
	// +listType=map
	// +listMapKey=role
	// +optional
	Measured []ContainerCPU `json:"measured,omitempty"`
	// baseline holds the figures over the baseline runs.
	// +listType=map
	// +listMapKey=role
	// +optional
	Baseline []ContainerCPU `json:"baseline,omitempty"`
	// measuredPods holds, for a role several pods share (the load testers' and their
	// sidecars' when the load is split), each pod's own figures over the measured path's
	// runs; measured holds their sum.
	// +listType=atomic
	// +optional
	MeasuredPods []ContainerCPU `json:"measuredPods,omitempty"`
	// variants holds, in a run with sidecar variants, each further variant's figures
	// (spec.variants[1:]) over its own runs, as measured holds the first's: its target's
	// containers and those every variant shares (the load tester and its sidecar, the
	// nodes), each role ending with the variant's code (@d1, @d2, …). A variant's target is
	// counted over its own runs only, never over another's, where it idles.
	// +kubebuilder:validation:MaxItems=3
	// +listType=map
	// +listMapKey=name
	// +optional
	Variants []VariantCPU `json:"variants,omitempty"`
}

// VariantCPU is a further sidecar variant's CPU figures over its own runs.
type VariantCPU struct {
	// name is the variant's name in spec.variants.
	Name string `json:"name"`
	// measured holds the figures over the variant's runs, per role.
	// +listType=map
	// +listMapKey=role
	// +optional
	Measured []ContainerCPU `json:"measured,omitempty"`
}

// ContainerCPU is one container's (or node's) CPU over a kind of phase.
type ContainerCPU struct {
	// role of the container (serverSidecar, clientSidecar, serverApp, loadTester, …) or
	// node/NAME.
	Role string `json:"role"`
	// pod, in measuredPods, is the pod whose container the figures are of.
	// +optional
	Pod string `json:"pod,omitempty"`
	// cpu is the average CPU over the phases: CPU-seconds used / seconds elapsed.
	CPU resource.Quantity `json:"cpu"`
	// seconds the phases lasted (their edges trimmed), over which the figures were taken.
	Seconds int32 `json:"seconds"`
	// periods is the number of CFS periods (100 ms each by default) in which the container
	// ran; absent without a CPU limit.
	// +optional
	Periods int64 `json:"periods,omitempty"`
	// throttledPeriodsPercent is the share of those periods in which the container used up
	// its quota and was stalled until the next, a decimal string such as "12.5".
	// +optional
	ThrottledPeriodsPercent string `json:"throttledPeriodsPercent,omitempty"`
	// throttledPeriods is how many of those periods that was: the count the share's interval
	// and the CPULimitBound verdict are taken over.
	// +optional
	ThrottledPeriods int64 `json:"throttledPeriods,omitempty"`
	// throttled is the total time the container's threads were stalled by its limit.
	// +optional
	Throttled *metav1.Duration `json:"throttled,omitempty"`
	// capacityPercent is, for a node, its CPU busy as a share of its capacity.
	// +optional
	CapacityPercent string `json:"capacityPercent,omitempty"`
}

// ForeignCPU is the CPU a node spent outside a run's own containers during its measured runs.
type ForeignCPU struct {
	// node the figure is of.
	Node string `json:"node"`
	// cpu is the node's root cgroup's average CPU less that of every container of the run
	// on it, over the same phases.
	CPU resource.Quantity `json:"cpu"`
	// capacityPercent is cpu as a share of the node's capacity, a decimal string.
	// +optional
	CapacityPercent string `json:"capacityPercent,omitempty"`
	// nodeBusyPercent is the node's whole CPU busy over the phases, a decimal string.
	// +optional
	NodeBusyPercent string `json:"nodeBusyPercent,omitempty"`
	// upperBound is true when some of the run's containers could not be placed on a node
	// (on a cluster of several, the store and the baseline app, or a load split over nodes):
	// cpu then may include theirs.
	// +optional
	UpperBound bool `json:"upperBound,omitempty"`
}

// SidecarCost is one sidecar role's CPU per request.
type SidecarCost struct {
	// role is serverSidecar, or clientSidecar (every load-tester pod's sidecar together).
	Role string `json:"role"`
	// cpuPerRequest is the CPU time per completed request over the measured runs, from the
	// counter named by source. CFS throttling delays a sidecar's work without changing its
	// amount, so a limit-bound run measures it too (at the requested rate: per-request work
	// may differ at other rates).
	CPUPerRequest metav1.Duration `json:"cpuPerRequest"`
	// source is the counter cpuPerRequest comes from: Daprd (daprd's own counter, read by
	// the load tester at each repetition's exact edges, the mean over repetitions) whenever
	// every repetition read it; otherwise Kubelet (the container's counter differenced at
	// the samples nearest the phases' edges, which misses part of a short phase).
	// +optional
	Source CostSource `json:"source,omitempty"`
	// kubeletCPUPerRequest is the kubelet's figure over the same runs beside daprd's: the
	// cross-check (daprd.kubeletDifferencePercent says how far apart they read). Absent when
	// the kubelet's is the headline, or was not read.
	// +optional
	KubeletCPUPerRequest *metav1.Duration `json:"kubeletCPUPerRequest,omitempty"`
	// limitProjectedQPS is a projection, not a measurement: the rate the sidecar's CPU limit
	// would carry at that cost with the sidecar at 80% of its limit (0.8 × limit / cost), a
	// decimal string; absent without a limit. At 100% the queue never drains; at 80% a
	// sidecar with this cost keeps up with bursts. A run held at its limit says what the limit
	// actually carried: atQPS, with the latency in the result's latency.
	// +optional
	LimitProjectedQPS string `json:"limitProjectedQPS,omitempty"`
	// node the sidecar ran on (a split load's client sidecars: the leader's).
	// +optional
	Node string `json:"node,omitempty"`
	// atQPS, arrival and throttledPercent say what the cost was measured under: the
	// measured path's rate of completed requests (a decimal string), its arrival
	// (Synchronized or Uniform) and the share of CFS periods in which the sidecar was
	// throttled ("0.0" without a limit's stalls). A sidecar's cost per request depends on all
	// three, so costs compare only between like tags (kubectl daprbench compare).
	// +optional
	AtQPS string `json:"atQPS,omitempty"`
	// +optional
	Arrival string `json:"arrival,omitempty"`
	// +optional
	ThrottledPercent string `json:"throttledPercent,omitempty"`
	// daprd is the same cost from daprd's own CPU counter, read by the load tester at each
	// repetition's exact edges: per repetition, with an interval, and the idle floor apart.
	// cpuPerRequest above is this one's mean (source Daprd).
	// +optional
	Daprd *DaprdCost `json:"daprd,omitempty"`
}

// CostSource is the counter a sidecar's cost per request was read from.
// +kubebuilder:validation:Enum=Daprd;Kubelet
type CostSource string

const (
	// CostFromDaprd is daprd's own CPU counter, read at each repetition's exact edges.
	CostFromDaprd CostSource = "Daprd"
	// CostFromKubelet is the kubelet's container CPU counter, differenced at the sampled
	// edges nearest the measured runs.
	CostFromKubelet CostSource = "Kubelet"
)

// FirstRepetition is a path's first repetition beside its later ones.
type FirstRepetition struct {
	// path is dapr, baseline, direct, or a variant's name.
	Path string `json:"path"`
	// p50 of the first repetition, and the lowest and highest p50 of the later ones.
	P50         metav1.Duration `json:"p50"`
	LaterP50Min metav1.Duration `json:"laterP50Min"`
	LaterP50Max metav1.Duration `json:"laterP50Max"`
	// cold is true when the first repetition was slower than every later one by more than
	// their spread and a tenth of their median: the warm-up did not warm the path.
	// +optional
	Cold bool `json:"cold,omitempty"`
}

// PathAccounting is every scheduled request of one path, over its repetitions.
type PathAccounting struct {
	// path is dapr, baseline, direct, or a variant's name.
	Path string `json:"path"`
	// scheduled is the number of slots the load's schedule had.
	Scheduled int64 `json:"scheduled"`
	// sent is the number of requests sent; completed of them succeeded and failed did not
	// (their latency is kept apart: latency percentiles are the successes').
	Sent      int64 `json:"sent"`
	Completed int64 `json:"completed"`
	Failed    int64 `json:"failed"`
	// unsent is the number of slots never sent by the end of a repetition.
	// +optional
	Unsent int64 `json:"unsent,omitempty"`
	// testerLagP99 is the highest 99th percentile of the load tester's own lag over the
	// path's repetitions.
	// +optional
	TesterLagP99 *metav1.Duration `json:"testerLagP99,omitempty"`
}

// SaturatedPath is a path whose load tester fell behind its schedule.
type SaturatedPath struct {
	// path is dapr, baseline, direct, or a variant's name.
	Path string `json:"path"`
	// repetition is the first repetition (from 1) in which the path fell behind.
	// +optional
	Repetition int32 `json:"repetition,omitempty"`
	// actualQPS is the path's lowest achieved rate over its repetitions, a decimal string.
	ActualQPS string `json:"actualQPS"`
	// testerLagP99 is the highest 99th percentile of the load tester's own lag over its
	// repetitions, and testerLagBound the most it may be (one connection's gap, at least 1 ms:
	// a tester a slot behind bunches the load it was asked to spread; the tighter limit on
	// the added latency's claim is result.testerLatenessLimit).
	// +optional
	TesterLagP99 *metav1.Duration `json:"testerLagP99,omitempty"`
	// +optional
	TesterLagBound *metav1.Duration `json:"testerLagBound,omitempty"`
	// sendLagP99 is the 99th percentile of how late its requests were sent.
	// +optional
	SendLagP99 *metav1.Duration `json:"sendLagP99,omitempty"`
	// gap is one connection's time between two scheduled sends (connections / qps).
	// +optional
	Gap *metav1.Duration `json:"gap,omitempty"`
}

// LoadTesterPod is one load-tester pod's part of a run.
type LoadTesterPod struct {
	// index is the pod's Job completion index; pod 0 merged the others' measurements.
	Index int32 `json:"index"`
	// node the pod ran on.
	// +optional
	Node string `json:"node,omitempty"`
	// requestedQPS is the pod's share of the requested rate, a decimal string.
	RequestedQPS string `json:"requestedQPS"`
	// actualQPS is the pod's achieved rate over its measured runs (requests / seconds).
	ActualQPS string `json:"actualQPS"`
}

// LatencySummary holds latency percentiles as durations (µs precision).
type LatencySummary struct {
	// +optional
	P50 *metav1.Duration `json:"p50,omitempty"`
	// +optional
	P75 *metav1.Duration `json:"p75,omitempty"`
	// +optional
	P90 *metav1.Duration `json:"p90,omitempty"`
	// +optional
	P99 *metav1.Duration `json:"p99,omitempty"`
	// p999 is the 99.9th percentile.
	// +optional
	P999 *metav1.Duration `json:"p999,omitempty"`
	// +optional
	Avg *metav1.Duration `json:"avg,omitempty"`
	// +optional
	Max *metav1.Duration `json:"max,omitempty"`
}

// Spread is the range of each variant's percentiles over repetitions.
type Spread struct {
	// +optional
	Latency *LatencyRange `json:"latency,omitempty"`
	// +optional
	Baseline *LatencyRange `json:"baseline,omitempty"`
}

// IntervalBasis is what an interval's spread was measured from.
// +kubebuilder:validation:Enum=BetweenRepetitions;WithinRunOnly
type IntervalBasis string

const (
	// IntervalBetweenRepetitions: two or more repetitions; the interval covers how this
	// run's interleaved repetitions differ, not how far a fresh rerun can drift (an
	// unchanged rerun's point has fallen outside it: docs/measurement.md).
	IntervalBetweenRepetitions IntervalBasis = "BetweenRepetitions"
	// IntervalWithinRunOnly: one repetition; the interval knows nothing of a rerun's drift.
	IntervalWithinRunOnly IntervalBasis = "WithinRunOnly"
)

// LatencyInterval is a confidence interval for each figure of a LatencySummary.
type LatencyInterval struct {
	// confidencePercent of every interval, e.g. 95.
	ConfidencePercent int32 `json:"confidencePercent"`
	// basis is BetweenRepetitions (two or more repetitions measured both paths) or
	// WithinRunOnly (one did: the interval cannot see how much a rerun would differ).
	// +optional
	Basis IntervalBasis `json:"basis,omitempty"`
	// repetitions that measured both paths.
	// +optional
	Repetitions int32 `json:"repetitions,omitempty"`
	// approximate names the figures (p99, p999) whose interval is not claimed at
	// confidencePercent: with fewer than 5 repetitions an episodic tail — a slow second in
	// some of the sidecar's runs and not others — is left outside it in about one experiment
	// in five at three repetitions (docs/measurement-coverage.md).
	// +listType=set
	// +optional
	Approximate []string `json:"approximate,omitempty"`
	// low and high ends of each interval.
	Low  LatencySummary `json:"low"`
	High LatencySummary `json:"high"`
}

// LatencyRange is the lowest and highest value of each percentile.
type LatencyRange struct {
	Min LatencySummary `json:"min"`
	Max LatencySummary `json:"max"`
}

// ResourceUsage is CPU and memory sampled from the metrics API while the load ran.
type ResourceUsage struct {
	// serverApp is the target app's container(s).
	// +optional
	ServerApp *RoleUsage `json:"serverApp,omitempty"`
	// serverSidecar is the target's daprd.
	// +optional
	ServerSidecar *RoleUsage `json:"serverSidecar,omitempty"`
	// clientSidecar is the load tester's daprd.
	// +optional
	ClientSidecar *RoleUsage `json:"clientSidecar,omitempty"`
	// loadTester is the load tester's own container.
	// +optional
	LoadTester *RoleUsage `json:"loadTester,omitempty"`
	// baselineApp is the sidecar-free twin of the target.
	// +optional
	BaselineApp *RoleUsage `json:"baselineApp,omitempty"`
	// store is the state store a State run deployed (none for a Component the run only names).
	// +optional
	Store *RoleUsage `json:"store,omitempty"`
	// controlPlane is Dapr's control plane, per component (operator, sentry, placement, ...).
	// +listType=map
	// +listMapKey=component
	// +optional
	ControlPlane []ComponentUsage `json:"controlPlane,omitempty"`
	// sidecarPer1kQPS is the server sidecar's average CPU per 1000 actual rps, the unit of
	// Dapr's published numbers, and its average memory (working set): memory does not grow
	// with the rate, so it is not scaled (Dapr's "23 MB" is the sidecar's memory at 1000 rps).
	// +optional
	SidecarPer1kQPS *PerKQPS `json:"sidecarPer1kQPS,omitempty"`
}

// RoleUsage aggregates the samples of one role.
type RoleUsage struct {
	// +optional
	CPUAvg *resource.Quantity `json:"cpuAvg,omitempty"`
	// +optional
	CPUMax *resource.Quantity `json:"cpuMax,omitempty"`
	// +optional
	MemoryAvg *resource.Quantity `json:"memoryAvg,omitempty"`
	// +optional
	MemoryMax *resource.Quantity `json:"memoryMax,omitempty"`
	// samples is the number of metrics windows folded in.
	Samples int32 `json:"samples"`
	// firstSample is the timestamp of the first window folded in.
	// +optional
	FirstSample *metav1.Time `json:"firstSample,omitempty"`
	// lastSample is the timestamp of the last window folded in; a window seen again is not
	// counted twice.
	// +optional
	LastSample *metav1.Time `json:"lastSample,omitempty"`
}

// ComponentUsage is one control-plane component's usage.
type ComponentUsage struct {
	// component is the value of the pods' app label, e.g. dapr-sentry.
	Component string    `json:"component"`
	Usage     RoleUsage `json:"usage"`
}

// PerKQPS is usage per 1000 requests per second.
type PerKQPS struct {
	// +optional
	CPU *resource.Quantity `json:"cpu,omitempty"`
	// +optional
	Memory *resource.Quantity `json:"memory,omitempty"`
}

// Restarts counts container restarts per role.
type Restarts struct {
	// app is the target app's container restarts.
	App int32 `json:"app"`
	// sidecar is the target's daprd restarts (init containers counted: native sidecars live there).
	Sidecar int32 `json:"sidecar"`
	// loadTester is the load tester pod's restarts, its daprd included.
	LoadTester int32 `json:"loadTester"`
}

// VariantResult is one sidecar variant's figures, and how it differs from the first.
type VariantResult struct {
	// name is the variant's name in spec.variants.
	Name string `json:"name"`
	// actualQPS is the variant's achieved rate (median over repetitions).
	// +optional
	ActualQPS string `json:"actualQPS,omitempty"`
	// requests and errors over all the variant's repetitions.
	// +optional
	Requests int64 `json:"requests,omitempty"`
	// +optional
	Errors int64 `json:"errors,omitempty"`
	// latency over every request the variant made.
	// +optional
	Latency *LatencySummary `json:"latency,omitempty"`
	// added is the variant's latency minus the baseline's, with its interval.
	// +optional
	Added *LatencySummary `json:"added,omitempty"`
	// +optional
	AddedInterval *LatencyInterval `json:"addedInterval,omitempty"`
	// difference is the variant's latency minus the first variant's (absent for the first),
	// from the repetitions that measured both, with its interval.
	// +optional
	Difference *LatencySummary `json:"difference,omitempty"`
	// +optional
	DifferenceInterval *LatencyInterval `json:"differenceInterval,omitempty"`
	// beyondNoise names the figures (p50, p75, p90, p99, p99.9, avg) whose difference from
	// the first variant has an interval that excludes zero: there the variants differ.
	// +listType=atomic
	// +optional
	BeyondNoise []string `json:"beyondNoise,omitempty"`
	// resources is what the variant's target (app and sidecar) used while it was measured.
	// +optional
	Resources *ResourceUsage `json:"resources,omitempty"`
	// resiliencies name the Dapr Resiliencies (environment.daprResiliencies) that set a
	// policy on the variant's invocations: applied by the load tester's sidecar (unscoped, or
	// scoped to its app id), targeting the variant's target app id or naming a policy every
	// invocation takes (DefaultRetryPolicy, DefaultAppRetryPolicy, DaprBuiltInServiceRetries…).
	// Empty: it ran under none. Two variants whose app ids one Resiliency does and does not
	// target compare a policy with none under the same faults.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Resiliencies []string `json:"resiliencies,omitempty"`
}

// DeliveryResult is a PubSub run's delivery: each message timed from the slot its publish
// was due in to the load tester's subscriber handling it, on the load tester's one clock.
type DeliveryResult struct {
	// latency of delivery through Dapr (publish through the load tester's daprd, delivered
	// by it to the subscriber), over every repetition.
	// +optional
	Latency *LatencySummary `json:"latency,omitempty"`
	// latencyInterval is each figure of latency's 95% interval.
	// BetweenRepetitions covers how the run's repetitions differ (a fresh rerun can drift
	// further: compare widens it by --rerun-spread).
	// +optional
	LatencyInterval *LatencyInterval `json:"latencyInterval,omitempty"`
	// baseline is the delivery latency with the broker's own client publishing and
	// consuming, from the same pod.
	// +optional
	Baseline *LatencySummary `json:"baseline,omitempty"`
	// added is Dapr's delivery latency minus the baseline's, per percentile (not a sum of
	// parts: percentiles do not add), with its interval.
	// +optional
	Added *LatencySummary `json:"added,omitempty"`
	// +optional
	AddedInterval *LatencyInterval `json:"addedInterval,omitempty"`
	// messages of the Dapr path over its measured phases.
	// +optional
	Messages *MessageCounts `json:"messages,omitempty"`
	// baselineMessages of the baseline path.
	// +optional
	BaselineMessages *MessageCounts `json:"baselineMessages,omitempty"`
}

// CompletionResult is a Workflow run's instances: each timed from the slot its start was
// due in to daprd telling the load tester it completed (its WaitForInstanceCompletion
// answer), on the load tester's one clock. An instance not ended by 10s (plus activities ×
// activityDelay) after its phase is in the latency at the least it waited. No baseline: a workflow cannot run without Dapr.
type CompletionResult struct {
	// latency of the instances, start slot to completion, over every repetition.
	// +optional
	Latency *LatencySummary `json:"latency,omitempty"`
	// latencyInterval is each figure of latency's 95% interval.
	// BetweenRepetitions covers how the run's repetitions differ (a fresh rerun can drift
	// further: compare widens it by --rerun-spread).
	// +optional
	LatencyInterval *LatencyInterval `json:"latencyInterval,omitempty"`
	// activityDispatch is the completed instances' activities, each from its workflow
	// scheduling it to the SDK's worker running it (the engine's hand-over: the activity's
	// own work and its result's way back are not in it), on the load tester's clock. A
	// chain's mean completion holds activities × (this mean + activityDelay) and more.
	// +optional
	ActivityDispatch *LatencySummary `json:"activityDispatch,omitempty"`
	// workflows accounts for the instances started in the measured phases.
	// +optional
	Workflows *WorkflowCounts `json:"workflows,omitempty"`
}

// WorkflowCounts accounts for a Workflow run's instances.
type WorkflowCounts struct {
	// started is the instances whose start call succeeded.
	Started int64 `json:"started"`
	// completed is the started instances that completed within 10s (plus activities ×
	// activityDelay) of their phase's end.
	Completed int64 `json:"completed"`
	// failed is the started instances that ended without completing (failed, terminated).
	// +optional
	Failed int64 `json:"failed,omitempty"`
	// unfinished is the started instances that had not ended by then.
	// +optional
	Unfinished int64 `json:"unfinished,omitempty"`
}

// TriggerResult is a Scheduler run's triggers: each job's or reminder's lateness, its
// trigger's receipt by the load tester minus its registration's slot plus its due time, on
// the load tester's one clock (daprd counts the due time from its receipt of the
// registration, so the lateness holds the registration call's time up to daprd). A
// registration not triggered by 10s after its due time is in the lateness at the least it
// waited. No baseline: jobs and reminders only exist behind a sidecar.
type TriggerResult struct {
	// lateness of the triggers over every repetition.
	// +optional
	Lateness *LatencySummary `json:"lateness,omitempty"`
	// latenessInterval is each figure of lateness's 95% interval.
	// BetweenRepetitions covers how the run's repetitions differ (a fresh rerun can drift
	// further: compare widens it by --rerun-spread).
	// +optional
	LatenessInterval *LatencyInterval `json:"latenessInterval,omitempty"`
	// counts accounts for the registrations of the measured phases.
	// +optional
	Counts *TriggerCounts `json:"counts,omitempty"`
}

// TriggerCounts accounts for a Scheduler run's registrations.
type TriggerCounts struct {
	// registered is the jobs or reminders whose registration call succeeded.
	Registered int64 `json:"registered"`
	// triggered is the distinct ones the load tester received by 10s after their phase's end
	// plus the due time.
	Triggered int64 `json:"triggered"`
	// missed is the registered ones not triggered by then.
	// +optional
	Missed int64 `json:"missed,omitempty"`
	// doubled counts triggers beyond a registration's first, those after the phase's end
	// included (through watchedFor).
	// +optional
	Doubled int64 `json:"doubled,omitempty"`
	// late is the missed ones triggered after all, after the bound (still missed).
	// +optional
	Late int64 `json:"late,omitempty"`
	// watchedFor is how long after its end a phase was watched for late and doubled
	// triggers: the shortest of the path's phases, its last one's.
	// +optional
	WatchedFor *metav1.Duration `json:"watchedFor,omitempty"`
}

// MessageCounts accounts for one path's messages.
type MessageCounts struct {
	// published is the messages whose publish call succeeded.
	Published int64 `json:"published"`
	// delivered is the distinct messages the subscriber had within 10s of their phase's end.
	Delivered int64 `json:"delivered"`
	// lost is the published messages not delivered by then.
	// +optional
	Lost int64 `json:"lost,omitempty"`
	// duplicated counts deliveries beyond a message's first (redeliveries included).
	// +optional
	Duplicated int64 `json:"duplicated,omitempty"`
	// unacknowledged is the delivered messages whose publish call failed (a timeout whose
	// message got through).
	// +optional
	Unacknowledged int64 `json:"unacknowledged,omitempty"`
	// late is the lost messages delivered after all, after the drain (still lost).
	// +optional
	Late int64 `json:"late,omitempty"`
	// watchedFor is how long after its end a phase was watched for late deliveries and
	// redeliveries (a broker's, after its processing timeout; counted in duplicated): the
	// shortest of the path's phases, its last one's. A redelivery later than that is not
	// counted.
	// +optional
	WatchedFor *metav1.Duration `json:"watchedFor,omitempty"`
	// receiptLag is the subscriber's own time per delivery, from its arrival (where its
	// delivery latency ends) to its booking: reading the body and decoding it.
	// +optional
	ReceiptLag *ReceiptLag `json:"receiptLag,omitempty"`
}

// ReceiptLag is the subscriber's own time from a delivery's arrival to its booking.
type ReceiptLag struct {
	// p99 is the highest of the path's phases' 99th percentiles.
	P99 metav1.Duration `json:"p99"`
	// max is the longest.
	Max metav1.Duration `json:"max"`
}
