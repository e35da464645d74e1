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

import (
	"slices"
	"strconv"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// figure is one number of a finished run: its family, the values of the family's own labels
// (in the family's order) and the value.
type figure struct {
	fam    *family
	values []string
	value  float64
}

// figuresOf lists the figures of a finished run, its result read from its document (nil:
// none, or it could not be read), computed once for both of its exports (the run's series
// and its schedule's). A figure listed twice keeps its last value, as a gauge set twice
// would.
func figuresOf(run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result) []figure {
	var out []figure
	add := func(fam *family, v float64, values ...string) {
		i := slices.IndexFunc(out, func(f figure) bool { return f.fam == fam && slices.Equal(f.values, values) })
		if i >= 0 {
			out[i].value = v
			return
		}
		out = append(out, figure{fam, values, v})
	}
	add(famOutcome, 1, string(run.Status.Phase), outcomeReason(run))
	if t := run.Status.CompletionTime; t != nil {
		add(famCompletion, float64(t.Unix()))
	}
	// 0 for a run that was not judged (outside a schedule, or no reference yet).
	add(famRegressed, boolFloat(run.ConditionTrue(perfv1alpha1.ConditionRegressed)))
	disturbed := map[string]float64{}
	var disturbedRoles []string
	for _, d := range report.DuringMeasurement(run.Status.Disturbances) {
		if disturbed[d.Role] == 0 {
			disturbedRoles = append(disturbedRoles, d.Role)
		}
		disturbed[d.Role]++
	}
	for _, role := range disturbedRoles {
		add(famDisturbances, disturbed[role], role)
	}
	if env := run.Status.Environment; env != nil {
		for _, c := range env.Calibration {
			if v, ok := perfv1alpha1.Rate(c.PerCPUSecond); ok && c.Trusted() {
				add(famCalibration, v, c.Node)
			}
		}
	}
	if res == nil || res.Generation != run.Generation {
		return out // a previous generation's result is not this run's
	}
	for _, c := range res.SidecarCost {
		add(famSidecarCPUPerRequest, c.CPUPerRequest.Seconds(), c.Role)
	}
	add(famRequestedQPS, float64(res.RequestedQPS))
	if q, ok := res.ActualRate(); ok {
		add(famActualQPS, q)
	}
	add(famErrors, float64(res.Errors))
	add(famSaturated, boolFloat(len(res.Saturated) > 0))
	for _, v := range []struct {
		name string
		s    *perfv1alpha1.LatencySummary
	}{{"measured", res.Latency}, {"baseline", res.Baseline}, {"added", res.Added}, {"service", res.ServiceTime}, {"sendlag", res.SendLag},
		{"delivery", orEmpty(res.Delivery).Latency}, {"delivery_baseline", orEmpty(res.Delivery).Baseline}, {"delivery_added", orEmpty(res.Delivery).Added},
		{"completion", orEmpty(res.Completion).Latency}, {"activity_dispatch", orEmpty(res.Completion).ActivityDispatch},
		{"trigger_lateness", orEmpty(res.Triggers).Lateness}} {
		if v.s == nil {
			continue
		}
		for _, f := range perfv1alpha1.LatencyFigures {
			if d := f.Of(v.s); d != nil {
				add(famLatency, d.Seconds(), v.name, f.Quantile())
			}
		}
	}
	for _, p := range []struct {
		path string
		n    *perfv1alpha1.MessageCounts
	}{{"dapr", orEmpty(res.Delivery).Messages}, {"baseline", orEmpty(res.Delivery).BaselineMessages}} {
		if p.n != nil {
			add(famMessages, float64(p.n.Published), p.path, "published")
			add(famMessages, float64(p.n.Delivered), p.path, "delivered")
			add(famMessages, float64(p.n.Lost), p.path, "lost")
			add(famMessages, float64(p.n.Duplicated), p.path, "duplicated")
		}
	}
	if n := orEmpty(res.Completion).Workflows; n != nil {
		add(famWorkflows, float64(n.Started), "started")
		add(famWorkflows, float64(n.Completed), "completed")
		add(famWorkflows, float64(n.Failed), "failed")
		add(famWorkflows, float64(n.Unfinished), "unfinished")
	}
	if n := orEmpty(res.Triggers).Counts; n != nil {
		add(famTriggers, float64(n.Registered), "registered")
		add(famTriggers, float64(n.Triggered), "triggered")
		add(famTriggers, float64(n.Missed), "missed")
		add(famTriggers, float64(n.Doubled), "doubled")
	}
	for _, f := range res.Faults {
		faultFigures(add, f)
	}
	if c := res.CPU; c != nil {
		for _, m := range c.Measured {
			if pct, err := strconv.ParseFloat(m.ThrottledPeriodsPercent, 64); err == nil {
				add(famThrottled, pct/100, m.Role)
			}
		}
		// Each further variant's over its own runs: its roles end @d1, … (one series a role).
		for _, v := range c.Variants {
			for _, m := range v.Measured {
				if pct, err := strconv.ParseFloat(m.ThrottledPeriodsPercent, 64); err == nil {
					add(famThrottled, pct/100, m.Role)
				}
			}
		}
	}
	role := func(role string, ru *perfv1alpha1.RoleUsage) {
		if ru == nil || ru.Samples == 0 {
			return
		}
		add(famCPU, float64(ru.CPUAvg.MilliValue()), role, "avg")
		add(famCPU, float64(ru.CPUMax.MilliValue()), role, "max")
		add(famMemory, float64(ru.MemoryAvg.Value()), role, "avg")
		add(famMemory, float64(ru.MemoryMax.Value()), role, "max")
	}
	if u := res.Resources; u != nil {
		accounting.EachRole(u, func(r roles.Role, ru *perfv1alpha1.RoleUsage) { role(string(r), ru) })
		for i := range u.ControlPlane {
			role(u.ControlPlane[i].Component, &u.ControlPlane[i].Usage)
		}
	}
	return out
}

// faultFigures are what one fault cost one path: each window's error share, the recovery and
// how its phases came back.
func faultFigures(add func(fam *family, v float64, values ...string), f perfv1alpha1.FaultOutcome) {
	fault := strconv.Itoa(int(f.Fault))
	for _, w := range []struct {
		name string
		w    perfv1alpha1.FaultWindow
	}{{"before", f.Before}, {"during", f.During}, {"after", f.After}} {
		if w.w.Requests > 0 {
			add(famFaultErrors, float64(w.w.Errors)/float64(w.w.Requests), fault, f.Path, w.name)
		}
	}
	if f.Recovery != nil {
		add(famFaultRecovery, f.Recovery.Seconds(), fault, f.Path, "mean")
	}
	if f.SlowestRecovery != nil {
		add(famFaultRecovery, f.SlowestRecovery.Seconds(), fault, f.Path, "slowest")
	}
	add(famFaultPhases, float64(f.Applied), fault, f.Path, "applied")
	add(famFaultPhases, float64(f.Recovered), fault, f.Path, "recovered")
	add(famFaultPhases, float64(f.NotRecovered), fault, f.Path, "not_recovered")
	add(famFaultPhases, float64(f.Unjudged), fault, f.Path, "unjudged")
}

// orEmpty is a scenario's own figures (delivery, completion, triggers), empty for a run of
// another scenario: every figure of it reads as absent.
func orEmpty[T any](figures *T) *T {
	if figures == nil {
		return new(T)
	}
	return figures
}
