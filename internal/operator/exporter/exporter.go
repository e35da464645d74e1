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

// Package exporter publishes finished runs' results as Prometheus metrics on the manager's
// metrics endpoint (controller-runtime's registry).
package exporter

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/operator/usage"
)

// The latest result of every PerfRun, on the manager's metrics endpoint (controller-runtime's
// registry), so Prometheus keeps the history of scheduled runs and Grafana plots it. A run's
// series go when the run is deleted.

var runLabels = []string{"namespace", "perfrun", "schedule"}

var (
	metricLatency = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_latency_seconds",
		Help: "Latency of the latest finished run by quantile (0.5..0.999, avg, max) and variant: measured (from each request's scheduled send), baseline, added (measured minus baseline), service (the measured path from each actual send) or sendlag (how late the measured path's requests were sent).",
	}, append(runLabels, "variant", "quantile"))
	metricActualQPS = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_actual_qps", Help: "Achieved requests per second of the measured path.",
	}, runLabels)
	metricRequestedQPS = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_requested_qps", Help: "Requested requests per second.",
	}, runLabels)
	metricErrors = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_errors", Help: "Requests of the measured path that did not return 200.",
	}, runLabels)
	metricCPU = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_cpu_millicores", Help: "CPU used during the measured load, by role and statistic (avg, max).",
	}, append(runLabels, "role", "stat"))
	metricMemory = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_memory_bytes", Help: "Memory working set during the measured load, by role and statistic (avg, max).",
	}, append(runLabels, "role", "stat"))
	metricOutcome = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_outcome", Help: "1 for the outcome of the latest finished run: its phase and the reason of its Succeeded or Failed condition.",
	}, append(runLabels, "phase", "reason"))
	metricCompletion = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_completion_timestamp_seconds", Help: "When the latest run finished (Unix seconds).",
	}, runLabels)
	metricRegressed = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_regressed", Help: "1 when the run regressed against its schedule's earlier runs, else 0 (also for a run outside a schedule).",
	}, runLabels)
	metricSaturated = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_saturated", Help: "1 when some path did not carry the requested rate on schedule (its capacity or the load tester's lag; no added latency was claimed), else 0.",
	}, runLabels)
	metricThrottled = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_cpu_throttled_ratio", Help: "Share of CFS periods in which a container's CPU limit stalled it during the measured runs (0..1), by role, from the kubelet's counters.",
	}, append(runLabels, "role"))
	metricDisturbances = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_disturbances", Help: "Pods of the run or of Dapr's control plane that restarted, were deleted or were created during the measured runs, by role (status.disturbances).",
	}, append(runLabels, "role"))
	metricCalibration = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_node_calibration_units_per_cpu_second", Help: "The calibration of a node that hosted the run's pods: units of daprbench's fixed sidecar-like workload per CPU-second (status.environment.calibration); absent when most of its windows ran slow.",
	}, []string{"namespace", "perfrun", "schedule", "node"})
	metricSidecarCPUPerRequest = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_sidecar_cpu_per_request_seconds", Help: "CPU time a sidecar spent per completed request during the measured runs, by role, from the kubelet's counters (status.result.sidecarCost).",
	}, []string{"namespace", "perfrun", "schedule", "role"})
	metricSidecarCostUnits = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfrun_sidecar_cost_calibration_units", Help: "A sidecar's CPU per request in calibration units of its node, by role: comparable across machines where CPU time is not.",
	}, []string{"namespace", "perfrun", "schedule", "role"})
	metricScheduleInterval = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfschedule_interval_seconds", Help: "Time between a PerfSchedule's upcoming slots; absent while it is suspended or invalid.",
	}, []string{"namespace", "schedule"})
	metricOutcomesTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "daprbench_perfrun_outcomes_total", Help: "Finished runs by namespace, phase and reason, since the manager started.",
	}, []string{"namespace", "phase", "reason"})

	runGauges = []*prometheus.GaugeVec{metricLatency, metricActualQPS, metricRequestedQPS, metricErrors, metricCPU,
		metricMemory, metricOutcome, metricCompletion, metricRegressed, metricSaturated, metricThrottled, metricDisturbances,
		metricCalibration, metricSidecarCPUPerRequest, metricSidecarCostUnits}
	registerOnce sync.Once
)

func Register() {
	registerOnce.Do(func() {
		for _, g := range runGauges {
			metrics.Registry.MustRegister(g)
		}
		metrics.Registry.MustRegister(metricOutcomesTotal, metricScheduleInterval)
	})
}

// RecordScheduleInterval exports the time between a schedule's upcoming slots.
func RecordScheduleInterval(namespace, schedule string, interval time.Duration) {
	metricScheduleInterval.WithLabelValues(namespace, schedule).Set(interval.Seconds())
}

// ForgetSchedule drops a schedule's interval: deleted, suspended or invalid.
func ForgetSchedule(namespace, schedule string) {
	metricScheduleInterval.DeleteLabelValues(namespace, schedule)
}

// Forget drops every series of a run.
func Forget(namespace, name string) {
	for _, g := range runGauges {
		g.DeletePartialMatch(prometheus.Labels{"namespace": namespace, "perfrun": name})
	}
}

// Collectors are every metric the manager can export, series or not.
func Collectors() []prometheus.Collector {
	out := []prometheus.Collector{metricOutcomesTotal, metricScheduleInterval}
	for _, g := range runGauges {
		out = append(out, g)
	}
	return out
}

// Record exports a finished run's result; it replaces whatever the run exported before.
func Record(run *perfv1alpha1.PerfRun) {
	if !run.Finished() {
		return
	}
	Forget(run.Namespace, run.Name)
	l := prometheus.Labels{"namespace": run.Namespace, "perfrun": run.Name, "schedule": run.Labels[perfv1alpha1.LabelSchedule]}
	with := func(extra prometheus.Labels) prometheus.Labels {
		out := prometheus.Labels{}
		for k, v := range l {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	metricOutcome.With(with(prometheus.Labels{"phase": string(run.Status.Phase), "reason": outcomeReason(run)})).Set(1)
	if t := run.Status.CompletionTime; t != nil {
		metricCompletion.With(l).Set(float64(t.Unix()))
	}
	// 0 for a run that was not judged (outside a schedule, or no reference yet).
	metricRegressed.With(l).Set(boolFloat(run.ConditionTrue(perfv1alpha1.ConditionRegressed)))
	for _, d := range report.DuringMeasurement(run.Status.Disturbances) {
		metricDisturbances.With(with(prometheus.Labels{"role": d.Role})).Inc()
	}
	if env := run.Status.Environment; env != nil {
		for _, c := range env.Calibration {
			if v, ok := perfv1alpha1.Rate(c.PerCPUSecond); ok && c.Trusted() {
				metricCalibration.With(with(prometheus.Labels{"node": c.Node})).Set(v)
			}
		}
	}
	res := run.Status.Result
	if res == nil || res.Generation != run.Generation {
		return
	}
	for _, c := range res.SidecarCost {
		role := prometheus.Labels{"role": c.Role}
		metricSidecarCPUPerRequest.With(with(role)).Set(c.CPUPerRequest.Seconds())
		if v, ok := perfv1alpha1.Rate(c.CPUPerRequestUnits); ok {
			metricSidecarCostUnits.With(with(role)).Set(v)
		}
	}
	metricRequestedQPS.With(l).Set(float64(res.RequestedQPS))
	if q, ok := res.ActualRate(); ok {
		metricActualQPS.With(l).Set(q)
	}
	metricErrors.With(l).Set(float64(res.Errors))
	metricSaturated.With(l).Set(boolFloat(len(res.Saturated) > 0))
	for variant, s := range map[string]*perfv1alpha1.LatencySummary{"measured": res.Latency, "baseline": res.Baseline, "added": res.Added,
		"service": res.ServiceTime, "sendlag": res.SendLag} {
		if s == nil {
			continue
		}
		for _, f := range perfv1alpha1.LatencyFigures {
			if d := f.Of(s); d != nil {
				metricLatency.With(with(prometheus.Labels{"variant": variant, "quantile": f.Quantile()})).Set(d.Seconds())
			}
		}
	}
	if c := res.CPU; c != nil {
		for _, m := range c.Measured {
			if pct, err := strconv.ParseFloat(m.ThrottledPeriodsPercent, 64); err == nil {
				metricThrottled.With(with(prometheus.Labels{"role": m.Role})).Set(pct / 100)
			}
		}
	}
	if u := res.Resources; u != nil {
		usage.EachRole(u, func(role usage.Role, ru *perfv1alpha1.RoleUsage) { recordRole(with, string(role), ru) })
		for i := range u.ControlPlane {
			recordRole(with, u.ControlPlane[i].Component, &u.ControlPlane[i].Usage)
		}
	}
}

func recordRole(with func(prometheus.Labels) prometheus.Labels, role string, ru *perfv1alpha1.RoleUsage) {
	if ru == nil || ru.Samples == 0 {
		return
	}
	for stat, q := range map[string]float64{"avg": float64(ru.CPUAvg.MilliValue()), "max": float64(ru.CPUMax.MilliValue())} {
		metricCPU.With(with(prometheus.Labels{"role": role, "stat": stat})).Set(q)
	}
	for stat, q := range map[string]float64{"avg": float64(ru.MemoryAvg.Value()), "max": float64(ru.MemoryMax.Value())} {
		metricMemory.With(with(prometheus.Labels{"role": role, "stat": stat})).Set(q)
	}
}

// CountOutcome counts a run that has just finished.
func CountOutcome(run *perfv1alpha1.PerfRun) {
	metricOutcomesTotal.WithLabelValues(run.Namespace, string(run.Status.Phase), outcomeReason(run)).Inc()
}

// outcomeReason is the reason of the Failed or Succeeded condition that is True (Succeeded
// or Saturated), or Succeeded.
func outcomeReason(run *perfv1alpha1.PerfRun) string {
	for _, t := range []string{perfv1alpha1.ConditionFailed, perfv1alpha1.ConditionSucceeded} {
		if c := meta.FindStatusCondition(run.Status.Conditions, t); c != nil && c.Status == metav1.ConditionTrue {
			return c.Reason
		}
	}
	return perfv1alpha1.ReasonSucceeded
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
