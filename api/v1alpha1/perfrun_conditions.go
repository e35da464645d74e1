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
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Finished reports whether the current generation's run has ended (Succeeded or Failed).
func (r *PerfRun) Finished() bool {
	return r.ConditionTrue(ConditionSucceeded) || r.ConditionTrue(ConditionFailed)
}

// Succeeded reports whether the current generation's run has finished with a result.
func (r *PerfRun) Succeeded() bool { return r.ConditionTrue(ConditionSucceeded) }

// Admitted reports whether the current generation's run has had its turn in the run queue
// (Queued=False, Admitted): it holds its nodes until it finishes.
func (r *PerfRun) Admitted() bool {
	c := meta.FindStatusCondition(r.Status.Conditions, ConditionQueued)
	return c != nil && c.Status == metav1.ConditionFalse && c.Reason == ReasonAdmitted && c.ObservedGeneration == r.Generation
}

// ConditionTrue reports whether the condition is True for the current generation.
func (r *PerfRun) ConditionTrue(condType string) bool {
	c := meta.FindStatusCondition(r.Status.Conditions, condType)
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == r.Generation
}

// Condition types of a PerfRun.
const (
	// ConditionDaprReady says whether the cluster can run the Dapr side of the run:
	// Dapr installed and its mTLS setting as the run expects.
	ConditionDaprReady = "DaprReady"
	// ConditionWorkloadsReady says whether the target (and baseline twin) are Available.
	ConditionWorkloadsReady = "WorkloadsReady"
	// ConditionSucceeded is True once the run has finished with a result.
	ConditionSucceeded = "Succeeded"
	// ConditionFailed is True once the run has ended without a result, with the reason.
	ConditionFailed = "Failed"
	// ConditionResourceUsageAvailable says whether CPU and memory could be sampled from the
	// metrics API. A run never fails only because it is False.
	ConditionResourceUsageAvailable = "ResourceUsageAvailable"
	// ConditionThresholdsMet says whether the result meets spec.thresholds: True, False, or
	// Unknown when the spread over repetitions straddles a limit.
	ConditionThresholdsMet = "ThresholdsMet"
	// ConditionRegressed says whether a scheduled run is worse than the runs before it.
	ConditionRegressed = "Regressed"
	// ConditionSaturated says whether some path did not carry the requested rate on
	// schedule (achieved under 99% of it in a repetition, or the load tester's own lag p99
	// beyond one connection's gap; the message says which, the path or the tester): the
	// latency measured there is that of a lower rate, and no added latency is claimed.
	ConditionSaturated = "Saturated"
	// ConditionDisturbed says whether a pod of the run or of Dapr's control plane restarted,
	// was deleted or was created during a measured run (status.disturbances): the figures
	// then include a recovery.
	ConditionDisturbed = "Disturbed"
	// ConditionCPULimitBound says whether a daprd or the app was throttled by its CPU limit
	// in more than 1% of CFS periods during the measured runs: its latency then includes
	// stalls of up to a CFS period (100 ms) that the limit, not Dapr, caused.
	ConditionCPULimitBound = "CPULimitBound"
	// ConditionQueued is True while an exclusive run waits for another run's measurement on
	// its nodes to end, False once it may start its load.
	ConditionQueued = "Queued"
)

// Condition reasons. Events reuse them.
const (
	// ReasonDaprFound: Dapr's CRDs and control-plane Configuration were found and agree with the spec.
	ReasonDaprFound = "DaprFound"
	// ReasonDaprNotRequired: dapr.enabled=false; nothing of Dapr is needed.
	ReasonDaprNotRequired = "DaprNotRequired"
	// ReasonDaprNotInstalled: Dapr's CRDs or its control-plane Configuration are missing.
	ReasonDaprNotInstalled = "DaprNotInstalled"
	// ReasonControlPlaneNotAllowed: spec.dapr.controlPlaneNamespace names a namespace other
	// than the operator's configured Dapr namespace.
	ReasonControlPlaneNotAllowed = "ControlPlaneNotAllowed"
	// ReasonPodKillUnavailable: spec.faults holds a PodKill, but the operator serves no kill
	// route (--kill-url empty).
	ReasonPodKillUnavailable = "PodKillUnavailable"
	// ReasonControlPlaneFaultsNotAllowed (Failed, at preflight): spec.faults takes a Dapr
	// control-plane service down, which every tenant shares, and the operator is not allowed
	// to (--allow-control-plane-faults off).
	ReasonControlPlaneFaultsNotAllowed = "ControlPlaneFaultsNotAllowed"
	// ReasonCountersNotRead: the operator is set not to read the kubelet's CPU counters
	// (no nodes/proxy), so CPULimitBound is Unknown.
	ReasonCountersNotRead = "CountersNotRead"
	// ReasonPlacementNotAllowed: a toleration or node label the operator's placement policy
	// does not list.
	ReasonPlacementNotAllowed = "PlacementNotAllowed"
	// ReasonStateStoreNotAllowed: spec.actors.stateStore names a store the operator's policy
	// does not list.
	ReasonStateStoreNotAllowed = "StateStoreNotAllowed"
	// ReasonSchedulerLoadNotAllowed (Failed, at preflight): a Scheduler run would hold more
	// in Dapr's shared scheduler at once than the operator allows (--max-scheduler-held-bytes).
	ReasonSchedulerLoadNotAllowed = "SchedulerLoadNotAllowed"
	// ReasonMTLSMismatch: spec.dapr.mtls disagrees with the control plane's setting.
	ReasonMTLSMismatch = "MTLSMismatch"
	// ReasonDaprFeatureMissing: the cluster's Dapr lacks a feature the spec needs (a
	// four-path run's invocation of non-Dapr endpoints, Dapr 1.11+).
	ReasonDaprFeatureMissing = "DaprFeatureMissing"
	// ReasonConfigurationNotFound: spec.dapr.configuration (or a variant's configuration)
	// names a Dapr Configuration that does not exist in the run's namespace.
	ReasonConfigurationNotFound = "ConfigurationNotFound"
	// ReasonStateStoreNotFound: spec.actors.stateStore names a Component that does not exist.
	ReasonStateStoreNotFound = "StateStoreNotFound"
	// ReasonComponentNotFound: spec.state.component names no state store Component of the
	// run's namespace.
	ReasonComponentNotFound = "ComponentNotFound"
	// ReasonBaselineImpossible: a State run's baseline cannot call the named Component's
	// store directly (not state.redis, a password, or a redisHost that is not a plain value).
	ReasonBaselineImpossible = "BaselineImpossible"

	// ReasonProvisioning: the workloads are being created or are not Available yet.
	ReasonProvisioning = "Provisioning"
	// ReasonWorkloadsAvailable: the target (and baseline twin) are Available.
	ReasonWorkloadsAvailable = "WorkloadsAvailable"
	// ReasonTargetNotAvailable: the target did not become Available within the timeout.
	ReasonTargetNotAvailable = "TargetNotAvailable"
	// ReasonPodsRefused: the API server refused to create the run's pods (Pod Security
	// admission, a ResourceQuota or LimitRange, a policy webhook) for longer than the
	// image-start grace; its own words are in the message.
	ReasonPodsRefused = "PodsRefused"
	// ReasonSidecarNotInjected: a pod that needs a Dapr sidecar was admitted without one.
	// Dapr's injector webhook fails open (failurePolicy Ignore), so an injector that is down
	// or unreachable from the API server yields pods without daprd instead of an error.
	ReasonSidecarNotInjected = "SidecarNotInjected"
	// ReasonImageNotStarting: a container of the run cannot start (image pull, crash loop,
	// bad config); the kubelet's own reason is in the message.
	ReasonImageNotStarting = "ImageNotStarting"
	// ReasonActorTypeInUse: the explicit spec.actors.actorType is hosted by another run's
	// target in the namespace.
	ReasonActorTypeInUse = "ActorTypeInUse"
	// ReasonImageNotAllowed: an image the run names (target, load tester, a variant's
	// sidecar) is under no prefix the operator allows (--allowed-image-prefixes).
	ReasonImageNotAllowed = "ImageNotAllowed"
	// ReasonNetworkPoliciesOff (Failed): the run would open the target's daprd API on its pod
	// address (serviceInvocation.paths FourPaths), guarded by the run's API token and NetworkPolicy,
	// and the operator creates no policy (--network-policies=false).
	ReasonNetworkPoliciesOff = "NetworkPoliciesOff"
	// ReasonInvalidAnnotation (Failed): an annotation daprbench reads has a value it cannot
	// use (the message names it and what it wants).
	ReasonInvalidAnnotation = "InvalidAnnotation"
	// ReasonChildRefused: the API server refused an object the run creates (a template field
	// it passed through that the API server's validation rejects, a policy); its words are
	// in the message. Retrying would meet the same answer.
	ReasonChildRefused = "ChildRefused"
	// ReasonNameConflict: an object the run would create already exists and belongs to
	// someone else; the run never applies onto it (it would take it over, and cleanup
	// would delete it).
	ReasonNameConflict = "NameConflict"
	// ReasonNamespaceNotWatched: the operator runs benchmarks only in the namespaces it was
	// given (--watch-namespaces; the Helm chart's rbac.namespaces), and this run is in
	// another. Nothing was created.
	ReasonNamespaceNotWatched = "NamespaceNotWatched"
	// ReasonOperatorForbidden (Failed, at preflight): the operator lacks rights its role
	// asks for in the run's namespace (a namespace deleted and created again loses the Role
	// the chart made in it); the message lists them and the fix. Nothing was created.
	ReasonOperatorForbidden = "OperatorForbidden"
	// ReasonPodsUnschedulable: a pod of the run found no node for longer than the image-start
	// grace; the scheduler's own words are in the message.
	ReasonPodsUnschedulable = "PodsUnschedulable"
	// ReasonPodsNeverFit (Failed, at preflight): a pod of the run asks for more CPU or memory
	// than any schedulable node its nodeSelector allows has allocatable (with placement
	// SameNode: the target and a load-tester pod together). Nothing was created.
	ReasonPodsNeverFit = "PodsNeverFit"

	// ReasonWaitingForRun: Queued, behind the run the message names.
	ReasonWaitingForRun = "WaitingForRun"
	// ReasonQueueTimeout: the run waited longer than spec.maxQueueWait for its turn; the
	// message names the run it waited for.
	ReasonQueueTimeout = "QueueTimeout"
	// ReasonNamespaceLimit: Queued, because the run's namespace already has as many
	// unfinished runs as the operator allows (--max-runs-per-namespace); nothing is created.
	ReasonNamespaceLimit = "NamespaceLimit"
	// ReasonAdmitted: no earlier run holds or waits on the run's nodes; the run creates its
	// workloads and measures, holding its nodes until it ends.
	ReasonAdmitted = "Admitted"

	// ReasonRunning: the load tester is running.
	ReasonRunning = "Running"
	// ReasonLoadTesterFailed: the load tester ended with an error; its summary says why.
	ReasonLoadTesterFailed = "LoadTesterFailed"
	// ReasonTimeout: the run passed spec.timeout.
	ReasonTimeout = "Timeout"
	// ReasonInvalidResult: the load tester finished but its termination message could not be
	// read, or its report lacks a path or repetition the spec asked for.
	ReasonInvalidResult = "InvalidResult"
	// ReasonResultUnreadable: the load tester's report could not be read from its log, or did
	// not match its termination message's size and digest (the message says which).
	ReasonResultUnreadable = "ResultUnreadable"
	// ReasonResultTooLarge: the load tester's report, or the result document made of it, is
	// larger than its channel or store holds; the message names the size and the limit.
	ReasonResultTooLarge = "ResultTooLarge"
	// ReasonSampled: resource usage was sampled from the metrics API.
	ReasonSampled = "Sampled"
	// ReasonMetricsUnavailable: the metrics API is absent or failed; its error is in the message.
	ReasonMetricsUnavailable = "MetricsUnavailable"
	// ReasonThresholdsMet: every threshold holds.
	ReasonThresholdsMet = "ThresholdsMet"
	// ReasonThresholdsViolated: at least one threshold is violated beyond the spread.
	ReasonThresholdsViolated = "ThresholdsViolated"
	// ReasonInconclusive: no threshold is violated, but the spread straddles at least one
	// limit, or a figure a threshold needs was not measured.
	ReasonInconclusive = "Inconclusive"
	// ReasonRegressed: worse than the reference runs beyond the tolerance and their spread.
	ReasonRegressed = "Regressed"
	// ReasonNoRegression: within the tolerance or the reference runs' spread.
	ReasonNoRegression = "NoRegression"
	// ReasonNoReference: no earlier successful run of the schedule to compare with.
	ReasonNoReference = "NoReference"
	// ReasonKnownAnswer: the run carried a known-answer hold (its figures are the
	// instrument's calibration, not Dapr's), so it is not judged.
	ReasonKnownAnswer = "KnownAnswer"
	// ReasonSucceeded: the run finished and status.result holds its measurements.
	ReasonSucceeded = "Succeeded"
	// ReasonSaturated: the run finished, but some path did not carry the requested rate on
	// schedule; the message names the path, the rate it achieved and what held it back.
	ReasonSaturated = "Saturated"
	// ReasonScheduleKept: every path carried the requested rate on schedule.
	ReasonScheduleKept = "ScheduleKept"
	// ReasonThrottled: a container was throttled in more than 1% of its CFS periods, the
	// share's 95% interval wholly above that line.
	ReasonThrottled = "Throttled"
	// ReasonThrottledMarginal (CPULimitBound Unknown): no container was bound, but one's
	// throttled share has an interval that holds the 1% line: a rerun may read either way.
	ReasonThrottledMarginal = "ThrottledMarginal"
	// ReasonNotThrottled: every daprd and app was throttled clear of the 1% line: its
	// share's interval wholly below it, or under half of it.
	ReasonNotThrottled = "NotThrottled"
	// ReasonCountersUnavailable: the kubelet's CPU counters could not be read; the message
	// says why (CPU figures then come from the metrics API alone).
	ReasonCountersUnavailable = "CountersUnavailable"
	// ReasonPodsDisturbed: some pod was disturbed during a measured run; the message names it.
	ReasonPodsDisturbed = "PodsDisturbed"
	// ReasonUndisturbed: no watched pod restarted, was deleted or was created while measured.
	ReasonUndisturbed = "Undisturbed"
)
