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

package exporter

// family is one kind of figure of a finished run. Every family is exported twice: per run,
// daprbench_perfrun_<name>{namespace,perfrun,schedule,<labels>}, while the run exists; and
// per schedule, daprbench_perfschedule_<name>{namespace,schedule,<labels>}, the figure of the
// schedule's latest finished run, kept until the schedule is deleted (schedules.go).
type family struct {
	name, help string
	labels     []string
}

var (
	famLatency = &family{"latency_seconds", "Latency of the latest finished run by quantile (0.5..0.999, avg, max) and variant: measured (from each request's scheduled send), baseline, added (measured minus baseline), service (the measured path from each actual send), sendlag (how late the measured path's requests were sent), a PubSub run's delivery, delivery_baseline and delivery_added (from each message's scheduled publish to its subscriber), " +
		"a Workflow run's completion (from each instance's scheduled start to its end; an unfinished one at the least it waited) and activity_dispatch (each activity of its completed instances, from the workflow scheduling it to the worker running it), " +
		"or a Scheduler run's trigger_lateness (each trigger's receipt minus its registration's slot plus its due time; a missed one at the least it waited).",
		[]string{"variant", "quantile"}}
	famActualQPS            = &family{"actual_qps", "Achieved requests per second of the measured path.", nil}
	famRequestedQPS         = &family{"requested_qps", "Requested requests per second.", nil}
	famErrors               = &family{"errors", "Requests of the measured path that did not return 200.", nil}
	famCPU                  = &family{"cpu_millicores", "CPU used during the measured load, by role and statistic (avg, max).", []string{"role", "stat"}}
	famMemory               = &family{"memory_bytes", "Memory working set during the measured load, by role and statistic (avg, max).", []string{"role", "stat"}}
	famOutcome              = &family{"outcome", "1 for the outcome of the latest finished run: its phase and the reason of its Succeeded or Failed condition.", []string{"phase", "reason"}}
	famCompletion           = &family{"completion_timestamp_seconds", "When the latest run finished (Unix seconds).", nil}
	famRegressed            = &family{"regressed", "1 when the run regressed against its schedule's earlier runs, else 0 (also for a run outside a schedule).", nil}
	famSaturated            = &family{"saturated", "1 when some path did not carry the requested rate on schedule (its capacity or the load tester's lag; no added latency was claimed), else 0.", nil}
	famThrottled            = &family{"cpu_throttled_ratio", "Share of CFS periods in which a container's CPU limit stalled it during the measured runs (0..1), by role, from the kubelet's counters.", []string{"role"}}
	famDisturbances         = &family{"disturbances", "Pods of the run or of Dapr's control plane that restarted, were deleted or were created during the measured runs, by role (status.disturbances).", []string{"role"}}
	famCalibration          = &family{"node_calibration_units_per_cpu_second", "The calibration of a node that hosted the run's pods: units of daprbench's fixed sidecar-like workload per CPU-second (status.environment.calibration); absent when most of its windows ran slow.", []string{"node"}}
	famMessages             = &family{"messages", "A PubSub run's messages over its measured phases, by path (dapr, baseline) and outcome: published, delivered, lost (published, not delivered within 10s of the phase's end), duplicated (deliveries beyond a message's first).", []string{"path", "outcome"}}
	famWorkflows            = &family{"workflows", "A Workflow run's instances over its measured phases, by outcome: started (the start call succeeded), completed, failed (ended without completing: failed or terminated), unfinished (not ended within 10s, plus activities × activityDelay, of the phase's end).", []string{"outcome"}}
	famTriggers             = &family{"triggers", "A Scheduler run's jobs, reminders or timers over its measured phases, by outcome: registered (the registration call succeeded), triggered (distinct ones received within 10s of the phase's end plus the due time), missed (registered, not triggered by then), doubled (triggers beyond a registration's first).", []string{"outcome"}}
	famSidecarCPUPerRequest = &family{"sidecar_cpu_per_request_seconds", "CPU time a sidecar spent per completed request during the measured runs, by role, from daprd's own counter at the phases' edges, or the kubelet's counters where daprd's was not read (the result document's result.sidecarCost, its source).", []string{"role"}}
	famFaultErrors          = &family{"fault_error_ratio", "A fault run's error share (0..1) by fault (its index in spec.faults), path and window: before, during (every second the fault touched) and after it, each summed over the phases it was applied in (status.result.faults).", []string{"fault", "path", "window"}}
	famFaultRecovery        = &family{"fault_recovery_seconds", "A fault run's recovery, from the fault's end to its path back within its pre-fault band, by fault, path and statistic: mean (over the phases that recovered) and slowest (what thresholds.maxRecovery judges); absent when no phase recovered.", []string{"fault", "path", "stat"}}
	famFaultPhases          = &family{"fault_phases", "A fault run's measured phases by fault, path and outcome: applied, recovered, not_recovered (not back within the band by the phase's end), unjudged (too few seconds before the fault to set a band).", []string{"fault", "path", "outcome"}}

	families = []*family{famLatency, famActualQPS, famRequestedQPS, famErrors, famCPU, famMemory, famOutcome, famCompletion,
		famRegressed, famSaturated, famThrottled, famDisturbances, famCalibration, famSidecarCPUPerRequest, famMessages, famWorkflows, famTriggers,
		famFaultErrors, famFaultRecovery, famFaultPhases}
)
