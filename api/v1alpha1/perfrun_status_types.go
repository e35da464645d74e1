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

// Phase summarises the conditions in one word, for print columns.
// +kubebuilder:validation:Enum=Pending;Provisioning;Running;Succeeded;Failed
type Phase string

const (
	PhasePending      Phase = "Pending"
	PhaseProvisioning Phase = "Provisioning"
	PhaseRunning      Phase = "Running"
	PhaseSucceeded    Phase = "Succeeded"
	PhaseFailed       Phase = "Failed"
)

// PerfRunStatus is what the operator observed and measured.
type PerfRunStatus struct {
	// observedGeneration is the spec generation the conditions and phase describe.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// phase summarises the conditions: Pending, Provisioning, Running, Succeeded or Failed.
	// +optional
	Phase Phase `json:"phase,omitempty"`

	// startTime is when the operator started the current generation's run.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty"`

	// completionTime is when the current generation's run finished, successfully or not.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`

	// queueWait is how long the run waited in the queue for other runs' measurements to end;
	// it does not count against spec.timeout.
	// +optional
	QueueWait *metav1.Duration `json:"queueWait,omitempty"`

	// progress is where the current generation's load is, written by the controller while
	// the load runs (when the repetition or path changes) and cleared when the run ends.
	// +optional
	Progress *RunProgress `json:"progress,omitempty"`

	// conditions: DaprReady, WorkloadsReady, ResourceUsageAvailable, Saturated, ThresholdsMet, Regressed,
	// CPULimitBound, Disturbed, Succeeded and Failed (see the Condition* constants for their reasons).
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// environment is what the run found on the cluster.
	// +optional
	Environment *Environment `json:"environment,omitempty"`

	// liveUsage holds the metrics windows sampled so far by the current generation's run,
	// kept here so a controller restart loses nothing. When the run finishes, each window is
	// attributed to the measured phase that contains it (result.resources,
	// result.baselineResources) and liveUsage is cleared.
	// +optional
	LiveUsage *LiveUsage `json:"liveUsage,omitempty"`

	// disturbances are what happened, while the current generation's load ran, to the run's
	// pods and to Dapr's control-plane pods: a container restarted, a pod's deletion was
	// requested, a pod was created (a replacement, most often). Each carries its time and,
	// once the load tester's timeline is known, the part of the load it hit. A figure taken
	// across one measures a recovery, not Dapr's steady state (condition Disturbed).
	// +listType=atomic
	// +optional
	Disturbances []Disturbance `json:"disturbances,omitempty"`

	// regressionBaseline is the run that its schedule's accepted baseline (the annotation
	// perf.daprbench.io/accepted-baseline) named when this run was judged for regression,
	// empty for none: a run judged Regressed before a later acceptance is reference again
	// once its level is accepted; one judged under the same acceptance stays a flag.
	// +optional
	RegressionBaseline string `json:"regressionBaseline,omitempty"`

	// result is the headline of the latest finished run's result — the rate carried, the
	// errors, the added latency or the scenario's own figure with its interval, what each
	// sidecar costs — and where the whole of it is: the result document (every repetition,
	// path, variant, histogram and figure; perf.daprbench.io/result/v1) in the ConfigMap
	// result.document, written once, and its digest. A rerun (new generation) keeps the
	// previous result until its own replaces it; result.generation says which spec produced
	// it. `kubectl daprbench export RUN` prints the document.
	// +optional
	Result *ResultHeadline `json:"result,omitempty"`

	// tokenSecret names the run's token Secret (a name the API server generated, so no
	// Secret made before the run can stand in for it): its pods present the token to
	// each other — a load-tester group to its leader, the load tester to the target's
	// daprd API (four paths, dapr.io/api-token-secret) and to the target app's capture of
	// daprd's profile (spec.profiling), and the clients of a store the run deploys to the
	// store, as its password. Empty when the run needs none.
	// +optional
	TokenSecret string `json:"tokenSecret,omitempty"`

	// tokenDigest is the SHA-256 of the run's token, in hex: the operator's kill route
	// (a PodKill in spec.faults) checks the token the run's load tester presents against it,
	// so the operator never reads a Secret. Empty for a token made before it was kept.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	TokenDigest string `json:"tokenDigest,omitempty"`

	// storePassword: the store or broker the run deploys asks for the run's token as its
	// password (set with the token). A run whose token a manager made before stores had
	// passwords keeps its store without one: a password now would restart it mid-run.
	// +optional
	StorePassword bool `json:"storePassword,omitempty"`

	// lastSuccessful is the headline of the latest result that Succeeded, and its document:
	// a rerun that fails replaces result with its partial one, never this (nor its document).
	// +optional
	LastSuccessful *ResultDigest `json:"lastSuccessful,omitempty"`

	// measuredSpec fingerprints what the latest generation measures: the spec without its
	// thresholds. A new generation with the same fingerprint (a thresholds-only edit)
	// re-judges the result instead of measuring again.
	// +optional
	MeasuredSpec string `json:"measuredSpec,omitempty"`
}

// ResultDigest is a finished result's headline in brief: enough to know what a rerun
// replaced, to compare with it, and where its document is.
type ResultDigest struct {
	// generation whose spec the result answers.
	Generation int64 `json:"generation"`
	// completionTime of that run.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`
	// document and digest are the result document's ConfigMap and the SHA-256 of its JSON.
	// +optional
	Document string `json:"document,omitempty"`
	// +optional
	Digest string `json:"digest,omitempty"`
	// +optional
	RequestedQPS int32 `json:"requestedQPS,omitempty"`
	// +optional
	ActualQPS string `json:"actualQPS,omitempty"`
	// +optional
	Errors int64 `json:"errors,omitempty"`
	// latency of the measured path.
	// +optional
	Latency *PointLatency `json:"latency,omitempty"`
	// added latency.
	// +optional
	Added *PointLatency `json:"added,omitempty"`
	// message of the run's Succeeded condition.
	// +kubebuilder:validation:MaxLength=2048
	// +optional
	Message string `json:"message,omitempty"`
}

// Environment is what the run found on the cluster.
type Environment struct {
	// daprInstalled is whether Dapr's CRDs were found.
	// +optional
	DaprInstalled *bool `json:"daprInstalled,omitempty"`
	// mtls is the control plane's mTLS setting, from its daprsystem Configuration.
	// +optional
	MTLS *bool `json:"mtls,omitempty"`
	// daprVersion is the version of the sidecar injector's image, when it could be read.
	// +optional
	DaprVersion string `json:"daprVersion,omitempty"`
	// sidecarImage is the image of the daprd container the injector put into the target's
	// pod: the sidecar build that was actually measured.
	// +optional
	SidecarImage string `json:"sidecarImage,omitempty"`
	// daprConfigurations are the Dapr Configurations the run's sidecars used (dapr.io/config):
	// the run's own, or the ones it named (spec.dapr.configuration, a variant's
	// configuration), read at preflight.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=5
	// +optional
	DaprConfigurations []DaprConfigurationRecord `json:"daprConfigurations,omitempty"`
	// daprResiliencies are the Dapr Resiliency objects in the run's namespace that apply to
	// its sidecars (unscoped, or scoped to one of its app ids): a timeout, retry or circuit
	// breaker on its calls shapes a figure. The run never writes one; a team measures its own
	// by having it in the namespace. Read at preflight, before the run may wait in the queue;
	// daprd reads them when its pod starts, so one changed while the run waited is not seen.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=16
	// +optional
	DaprResiliencies []DaprResiliencyRecord `json:"daprResiliencies,omitempty"`
	// kubernetesVersion is the API server's version.
	// +optional
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	// managerVersion is the version (and commit) of the daprbench manager that ran it.
	// +optional
	ManagerVersion string `json:"managerVersion,omitempty"`
	// targetNode is the node the target app ran on.
	// +optional
	TargetNode string `json:"targetNode,omitempty"`
	// loadTesterNode is the node the load tester ran on (a group's leader's).
	// +optional
	LoadTesterNode string `json:"loadTesterNode,omitempty"`
	// loadTesterNodes are the nodes of every load-tester pod, sorted: the run queue holds
	// all of them.
	// +optional
	// +listType=set
	LoadTesterNodes []string `json:"loadTesterNodes,omitempty"`
	// baselinePod is the pod the baseline path called and its node: the Dapr target's own pod
	// (spec.serviceInvocation.baselineTarget SamePod), or the sidecar-free twin's.
	// +optional
	BaselinePod string `json:"baselinePod,omitempty"`
	// store is the state store a State run measured: its Component and type, and the address
	// its baseline called directly, e.g. "kv-statestore (state.redis, deployed by the run) at
	// kv-store:6379".
	// +optional
	Store string `json:"store,omitempty"`
	// storeAddress is the host:port the State baseline called with the store's own client.
	// +optional
	StoreAddress string `json:"storeAddress,omitempty"`
	// sameNode is whether the load tester shared the target's node.
	// +optional
	SameNode *bool `json:"sameNode,omitempty"`
	// calibration is each node's score on daprbench's calibration workload — a fixed bundle
	// of a sidecar's work per request (a TLS record sealed and opened, a protobuf message,
	// two HTTP/2 frames) — measured before the load by an init container of the run's target
	// and load-tester pods, under the sidecar's CPU limit. It tells a node held back while
	// scored (slowWindowsPercent) and whether two runs' nodes ran alike; it does not normalise
	// CPU figures: on the two CPU families measured it moved daprd's cost per request apart
	// where the raw cost agreed (docs/cost-and-change-points.md), so costs stay raw.
	// +listType=map
	// +listMapKey=node
	// +kubebuilder:validation:MaxItems=100
	// +optional
	Calibration []NodeCalibration `json:"calibration,omitempty"`
}

// DaprConfigurationRecord is one Dapr Configuration a run's sidecars used, and the settings
// in it that shape a latency or CPU figure.
type DaprConfigurationRecord struct {
	// name is the Configuration's name in the run's namespace.
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`
	// ownedByRun is true for a Configuration the run wrote (and deletes), false for one it
	// was named.
	// +optional
	OwnedByRun bool `json:"ownedByRun,omitempty"`
	// generation is a named Configuration's metadata.generation when the run read it: a
	// later run on a changed Configuration records another.
	// +optional
	Generation int64 `json:"generation,omitempty"`
	// variants are the spec.variants using it; empty without variants.
	// +kubebuilder:validation:MaxItems=4
	// +optional
	Variants []string `json:"variants,omitempty"`
	// tracingSamplingRate is its spec.tracing.samplingRate; empty when unset (Dapr then
	// samples nothing).
	// +kubebuilder:validation:MaxLength=32
	// +optional
	TracingSamplingRate string `json:"tracingSamplingRate,omitempty"`
	// middleware are its HTTP pipelines' handlers in order, "name (type)"; the app
	// pipeline's are prefixed "app: ".
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Middleware []string `json:"middleware,omitempty"`
	// features are the preview features it enables.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Features []string `json:"features,omitempty"`
	// apiAllowlist is true when it restricts daprd's APIs (spec.api.allowed or denied).
	// +optional
	APIAllowlist bool `json:"apiAllowlist,omitempty"`
}

// DaprResiliencyRecord is one Dapr Resiliency that applied to a run's sidecars.
type DaprResiliencyRecord struct {
	// name is the Resiliency's name in the run's namespace.
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`
	// generation is its metadata.generation when the run read it.
	// +optional
	Generation int64 `json:"generation,omitempty"`
	// scopes are the run's app ids it is scoped to; empty when it is unscoped and applies
	// to every app in the namespace.
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Scopes []string `json:"scopes,omitempty"`
	// targets are what its policies are set on, as its spec.targets names them: "app ID",
	// "actor TYPE", "component NAME"; and "default NAME" or "built-in NAME" for a policy
	// named as Dapr's defaults (DefaultAppRetryPolicy…) or built-in overrides
	// (DaprBuiltInServiceRetries…), which apply to every call of their kind.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Targets []string `json:"targets,omitempty"`
}

// NodeCalibration is one node's calibration score.
type NodeCalibration struct {
	// node the score was measured on.
	Node string `json:"node"`
	// single is units of the workload per second on one goroutine under the CPU limit, a
	// decimal string: what one request path of the sidecar gets done per second (the upper
	// decile of 100-ms windows).
	Single string `json:"single"`
	// perCPUSecond is units per CPU-second of that run (its own CPU time, upper decile of
	// the windows), a decimal string: the core's speed whatever the limit; CPU time
	// converts to units with it. Of several pods on the node, the fastest reading.
	// +optional
	PerCPUSecond string `json:"perCPUSecond,omitempty"`
	// slowWindowsPercent is the share of the calibration's 100-ms windows that ran below 80%
	// of that speed: how often something else (a neighbour, the host) held the core back
	// while it was scored. Above 50 the score may read low, and is not used: no comparison
	// of nodes with it.
	// +optional
	SlowWindowsPercent int32 `json:"slowWindowsPercent,omitempty"`
	// workload is the version of the calibration workload that ran (its checksum): scores
	// of different versions do not compare (absent: before versions were recorded).
	// +optional
	Workload string `json:"workload,omitempty"`
	// parallel is units per second on parallelism goroutines at once (GOMAXPROCS under the
	// CPU limit), a decimal string.
	Parallel    string `json:"parallel"`
	Parallelism int32  `json:"parallelism"`
	// cpuLimit the calibration ran under: the sidecar's (absent: none).
	// +optional
	CPULimit *resource.Quantity `json:"cpuLimit,omitempty"`
}

// LiveUsage is the raw material of a run's resource figures: metrics windows, kept until the
// load tester's timeline says which phase each belongs to.
type LiveUsage struct {
	// windows seen so far, oldest first; beyond 400 every other one of each role is dropped
	// and spacing doubled, so the windows kept stay evenly spread over the run's time.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=400
	// +optional
	Windows []UsageWindow `json:"windows,omitempty"`
	// spacing is the least time between two windows of a role once the windows have been
	// thinned: a window sooner than that after its role's previous one is not kept, as the
	// thinning would have dropped it (unset: every window is kept).
	// +optional
	Spacing *metav1.Duration `json:"spacing,omitempty"`
	// counters are the kubelet's cumulative CPU counters of the run's containers and of
	// their nodes, read at every sampling interval. When the run finishes they are
	// differenced at the measured runs' edges (exact CPU-seconds and CFS throttling per
	// phase, however short) into result.cpu; beyond 3000 every other one is dropped.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=3000
	// +optional
	Counters []CounterSample `json:"counters,omitempty"`
}

// CounterSample is one container's (or node's) cumulative CPU counters at one instant.
type CounterSample struct {
	// role of the container, as in windows, or node/NAME for a node's root cgroup.
	// +kubebuilder:validation:MaxLength=128
	Role string `json:"role"`
	// pod the container belongs to: each pod's container is differenced on its own series
	// (several load-tester pods share the clientSidecar and loadTester roles).
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Pod string `json:"pod,omitempty"`
	// at is when the kubelet read the counters (microseconds: they are differenced).
	At metav1.MicroTime `json:"at"`
	// cpuMillis is container_cpu_usage_seconds_total, in CPU-milliseconds.
	CPUMillis int64 `json:"cpuMillis"`
	// periods, throttledPeriods and throttledMillis are the CFS counters
	// (container_cpu_cfs_periods_total, _throttled_periods_total, _throttled_seconds_total
	// in ms); absent for a container without a CPU limit.
	// +optional
	Periods int64 `json:"periods,omitempty"`
	// +optional
	ThrottledPeriods int64 `json:"throttledPeriods,omitempty"`
	// +optional
	ThrottledMillis int64 `json:"throttledMillis,omitempty"`
	// capacityMillis is a node's CPU capacity in millicores (node roles only).
	// +optional
	CapacityMillis int64 `json:"capacityMillis,omitempty"`
}

// UsageWindow is one role's usage over one metrics window.
type UsageWindow struct {
	// role is serverApp, serverSidecar, clientSidecar, loadTester, baselineApp, or
	// controlPlane/<component>.
	// +kubebuilder:validation:MaxLength=128
	Role string `json:"role"`
	// end of the window (metrics-server's timestamp).
	End metav1.Time `json:"end"`
	// seconds the window spans.
	Seconds int32 `json:"seconds"`
	// cpu is the average CPU over the window, in millicores.
	CPU int64 `json:"cpu"`
	// memory is the working set at the end of the window, in bytes.
	Memory int64 `json:"memory"`
}

// DisturbanceKind is what happened to a pod.
// +kubebuilder:validation:Enum=Restarted;Deleted;Created
type DisturbanceKind string

const (
	// DisturbanceRestarted: one of the pod's containers exited and the kubelet restarted it.
	DisturbanceRestarted DisturbanceKind = "Restarted"
	// DisturbanceDeleted: the pod's deletion was requested.
	DisturbanceDeleted DisturbanceKind = "Deleted"
	// DisturbanceCreated: the pod was created after the load began (a replacement, most often).
	DisturbanceCreated DisturbanceKind = "Created"
)

// Disturbance is one thing that happened to a pod while the load ran.
type Disturbance struct {
	// time is when it happened: a restarted container's exit, a deletion's request, a new
	// pod's creation.
	Time metav1.Time     `json:"time"`
	Kind DisturbanceKind `json:"kind"`
	// role is the pod's part: target, baseline, loadtester, or controlPlane/<its app label>
	// (e.g. controlPlane/dapr-placement-server).
	Role string `json:"role"`
	Pod  string `json:"pod"`
	// container is the container that restarted.
	// +optional
	Container string `json:"container,omitempty"`
	// detail is a restart's exit code and reason, or how soon a new pod was ready.
	// +optional
	Detail string `json:"detail,omitempty"`
	// phase is the part of the load it hit, once the load tester's timeline is known: e.g.
	// "dapr run 2 of 3, 15s in", "warm-up", "between runs", "after the load".
	// +optional
	Phase string `json:"phase,omitempty"`
	// fault is the index in spec.faults of the PodKill that deleted the pod, or whose
	// replacement it is: made on purpose, it does not make the run Disturbed.
	// +optional
	Fault *int32 `json:"fault,omitempty"`
}

// RunProgress is where a run's load is: when it started, when it should end and what it
// measures now. Elapsed and remaining time follow from the two times.
type RunProgress struct {
	// loadStartTime is when the last load-tester container started: a load-tester group
	// starts its warm-up together, once every pod has arrived.
	LoadStartTime metav1.Time `json:"loadStartTime"`
	// expectedEndTime is loadStartTime plus the warm-up and every measured run.
	ExpectedEndTime metav1.Time `json:"expectedEndTime"`
	// repetition being measured, from 1; 0 during the warm-up.
	// +optional
	Repetition int32 `json:"repetition,omitempty"`
	// repetitions the run measures.
	Repetitions int32 `json:"repetitions"`
	// path being measured: warm-up, baseline, direct, dapr or dapr (<variant>).
	// +kubebuilder:validation:MaxLength=128
	Path string `json:"path"`
}
