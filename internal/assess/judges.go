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

package assess

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/assess/thresholds"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// usageByVariant attributes the recorded windows to the measured runs of the timeline, per
// variant; nil when usage was not sampled or the metrics API failed.
func usageByVariant(ev Evidence, phases []accounting.Phase) map[string]*perfv1alpha1.ResourceUsage {
	if !ev.Sampled || ev.Live == nil || ev.MetricsFailed {
		return nil
	}
	return accounting.Attribute(ev.Live.Windows, phases, PhaseEdge)
}

// memoryTrends are the sidecars' working-set slopes over a long measured load; nil when
// usage was not sampled or the metrics API failed.
func memoryTrends(run *perfv1alpha1.PerfRun, ev Evidence, phases []accounting.Phase) []perfv1alpha1.MemoryTrend {
	if !ev.Sampled || ev.Live == nil || ev.MetricsFailed {
		return nil
	}
	return accounting.MemoryTrends(ev.Live.Windows, phases, PhaseEdge, int(run.Spec.LoadTester.EffectiveReplicas()))
}

// countersRead reports whether the kubelet's CPU counters were read while the load ran.
func countersRead(ev Evidence) bool {
	return ev.CountersSource != "" && ev.Live != nil && len(ev.Live.Counters) > 0
}

// accountCPU differences the recorded counters at the measured runs' edges, per container
// of the measured path and the baseline; nil when there are none to difference.
func accountCPU(run *perfv1alpha1.PerfRun, ev Evidence, phases []accounting.Phase) *perfv1alpha1.CPUAccounting {
	if !countersRead(ev) {
		return nil
	}
	byVariant := accounting.AccountCPU(ev.Live.Counters, phases, PhaseEdge)
	measured := byVariant[string(report.MeasuredVariant(run))]
	if len(measured.Roles) == 0 {
		return nil
	}
	acct := &perfv1alpha1.CPUAccounting{Source: ev.CountersSource, Measured: measured.Roles, MeasuredPods: measured.Pods,
		Baseline: byVariant[string(result.Baseline)].Roles}
	for i := 1; i < len(run.Spec.Variants); i++ {
		code := string(result.DaprVariant(i))
		v := byVariant[code]
		if len(v.Roles) == 0 {
			continue
		}
		// The roles every variant shares (the load tester's, the nodes) are named with the
		// variant whose runs they were differenced over, as its target's are.
		for j := range v.Roles {
			if _, variant := roles.SplitVariant(v.Roles[j].Role); variant == "" {
				v.Roles[j].Role = string(roles.OfVariant(roles.Role(v.Roles[j].Role), code))
			}
		}
		acct.Variants = append(acct.Variants, perfv1alpha1.VariantCPU{Name: run.Spec.Variants[i].Name, Measured: v.Roles})
	}
	return acct
}

// cpuCondition is CPULimitBound from the result's CPU accounting; nil without counters.
func cpuCondition(ev Evidence, res *perfv1alpha1.Result) *metav1.Condition {
	if ev.CountersOff != "" {
		return condition(perfv1alpha1.ConditionCPULimitBound, metav1.ConditionUnknown, perfv1alpha1.ReasonCountersNotRead, ev.CountersOff)
	}
	if !countersRead(ev) {
		return nil
	}
	if res.CPU == nil {
		return condition(perfv1alpha1.ConditionCPULimitBound, metav1.ConditionUnknown, perfv1alpha1.ReasonCountersUnavailable,
			fmt.Sprintf("%d counter samples recorded, none around both edges of a measured run", len(ev.Live.Counters)))
	}
	t := report.ThrottledContainers(report.JudgedCPU(res.CPU))
	if len(t.Bound) > 0 {
		return condition(perfv1alpha1.ConditionCPULimitBound, metav1.ConditionTrue, perfv1alpha1.ReasonThrottled,
			fmt.Sprintf("throttled by its CPU limit in more than %.0f%% of CFS periods during the measured runs (the share's 95%% interval "+
				"wholly above it): %s; each throttled period stalls the container until the next (100 ms), and the latency includes those stalls",
				report.ThrottledBoundPercent, strings.Join(t.Bound, ", ")))
	}
	if len(t.Marginal) > 0 {
		return condition(perfv1alpha1.ConditionCPULimitBound, metav1.ConditionUnknown, perfv1alpha1.ReasonThrottledMarginal,
			fmt.Sprintf("throttled near the %.0f%% line, the share's 95%% interval (this run's periods) holding it: %s; a rerun may read bound or not, "+
				"and the latency may include the limit's stalls", report.ThrottledBoundPercent, strings.Join(t.Marginal, ", ")))
	}
	msg := "no daprd or app was throttled near 1% of its CFS periods during the measured runs"
	if len(t.Ratios) > 0 {
		msg += ": " + strings.Join(t.Ratios, ", ")
	}
	return condition(perfv1alpha1.ConditionCPULimitBound, metav1.ConditionFalse, perfv1alpha1.ReasonNotThrottled, msg)
}

// usageCondition is ResourceUsageAvailable from the result: whether a window lay wholly
// inside a measured run of the measured path. Nil when usage was not sampled or the
// metrics API failed (its own error is the condition already).
func usageCondition(run *perfv1alpha1.PerfRun, ev Evidence, res *perfv1alpha1.Result, phases []accounting.Phase) *metav1.Condition {
	if !ev.Sampled || ev.MetricsFailed {
		return nil
	}
	if res.Resources == nil {
		windows := 0
		if ev.Live != nil {
			windows = len(ev.Live.Windows)
		}
		return condition(perfv1alpha1.ConditionResourceUsageAvailable, metav1.ConditionFalse, perfv1alpha1.ReasonMetricsUnavailable,
			fmt.Sprintf("no metrics window lay wholly inside a measured run (%d windows recorded; %s): metrics-server reports a window "+
				"every ~15s and a pod's first ~20s after it starts; make load.duration longer than two windows plus %v", windows, describePhases(phases), 2*PhaseEdge))
	}
	msg := fmt.Sprintf("metrics windows inside the measured runs: %s: %s", report.MeasuredVariant(run), accounting.Counts(res.Resources))
	if b := res.BaselineResources; b != nil {
		msg += fmt.Sprintf("; baseline: %s", accounting.Counts(b))
	}
	return condition(perfv1alpha1.ConditionResourceUsageAvailable, metav1.ConditionTrue, perfv1alpha1.ReasonSampled, msg)
}

// judgeDisturbances places each disturbance in the load's timeline, sets Disturbed and
// returns the words the verdict's message carries (empty: none).
func (a *Assessment) judgeDisturbances(run *perfv1alpha1.PerfRun, ds []perfv1alpha1.Disturbance, phases []accounting.Phase, applied []result.AppliedFault) string {
	a.Disturbances = append([]perfv1alpha1.Disturbance(nil), ds...)
	report.PlaceDisturbances(a.Disturbances, phases)
	report.FaultMade(a.Disturbances, applied, run.Spec.Faults)
	msg := report.DisturbanceMessage(a.Disturbances)
	if msg == "" {
		words := "no pod of the run or of Dapr's control plane restarted, was deleted or was created during the measured runs"
		if made := faultMadeCount(a.Disturbances); made > 0 {
			words = fmt.Sprintf("%s, besides the %d the run's PodKill made on purpose (status.disturbances, marked with their fault)", words, made)
		}
		a.add(run, condition(perfv1alpha1.ConditionDisturbed, metav1.ConditionFalse, perfv1alpha1.ReasonUndisturbed, words))
		return ""
	}
	a.add(run, condition(perfv1alpha1.ConditionDisturbed, metav1.ConditionTrue, perfv1alpha1.ReasonPodsDisturbed, msg))
	return msg
}

// faultMadeCount counts the disturbances a PodKill made on purpose.
func faultMadeCount(ds []perfv1alpha1.Disturbance) int {
	n := 0
	for _, d := range ds {
		if d.Fault != nil {
			n++
		}
	}
	return n
}

// saturatedCondition says whether the load tester kept its schedule on every path.
func saturatedCondition(res *perfv1alpha1.Result) *metav1.Condition {
	if msg := report.SaturationMessage(res); msg != "" {
		return condition(perfv1alpha1.ConditionSaturated, metav1.ConditionTrue, perfv1alpha1.ReasonSaturated, msg)
	}
	return condition(perfv1alpha1.ConditionSaturated, metav1.ConditionFalse, perfv1alpha1.ReasonScheduleKept, report.ScheduleMessage(res))
}

// judgeRegression sets Regressed for a scheduled run from its history.
func (a *Assessment) judgeRegression(run *perfv1alpha1.PerfRun, h *History, res *perfv1alpha1.Result) {
	if h == nil {
		return
	}
	a.RegressionBaseline = &h.AcceptedBaseline
	if d := res.KnownAnswerDelay; d != nil {
		a.add(run, condition(perfv1alpha1.ConditionRegressed, metav1.ConditionFalse, perfv1alpha1.ReasonKnownAnswer,
			fmt.Sprintf("not judged: every call or delivery through Dapr was held %v on purpose (annotation %s), so its figures are a known answer, not this schedule's history",
				d.Duration, perfv1alpha1.AnnotationKnownAnswerDelay)))
		return
	}
	// A few reference runs have no spread worth the name: their noise would be reported as
	// regressions.
	if h.Reference < h.Need {
		a.add(run, condition(perfv1alpha1.ConditionRegressed, metav1.ConditionFalse, perfv1alpha1.ReasonNoReference,
			fmt.Sprintf("%d earlier successful, undisturbed runs of schedule %s with this template; %d are needed to judge a regression", h.Reference, h.Schedule, h.Need)))
		return
	}
	regressed, findings, _ := regression.Compare(res, h.Earlier, h.TolerancePercent)
	cur, _, _ := run.Status.Environment.TargetCalibration()
	msg := regression.Message(findings)
	if warning := regression.CalibrationWarning(cur, h.CalibrationScores); warning != "" {
		msg += "; " + warning
	}
	if regressed {
		a.add(run, condition(perfv1alpha1.ConditionRegressed, metav1.ConditionTrue, perfv1alpha1.ReasonRegressed, msg))
		return
	}
	a.add(run, condition(perfv1alpha1.ConditionRegressed, metav1.ConditionFalse, perfv1alpha1.ReasonNoRegression, msg))
}

// judgeThresholds sets ThresholdsMet from spec.thresholds and the variants' thresholds, and
// returns the violations that fail the run (spec.thresholds.failRun), empty when none do.
func (a *Assessment) judgeThresholds(run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result) string {
	v, ok := thresholds.EvaluateRun(&run.Spec, res)
	if !ok {
		return ""
	}
	switch v.Outcome {
	case thresholds.Met:
		a.add(run, condition(perfv1alpha1.ConditionThresholdsMet, metav1.ConditionTrue, perfv1alpha1.ReasonThresholdsMet, v.Message()))
	case thresholds.Violated:
		a.add(run, condition(perfv1alpha1.ConditionThresholdsMet, metav1.ConditionFalse, perfv1alpha1.ReasonThresholdsViolated, v.Message()))
		if t := run.Spec.Thresholds; t != nil && t.FailRun {
			return v.Message()
		}
	default:
		a.add(run, condition(perfv1alpha1.ConditionThresholdsMet, metav1.ConditionUnknown, perfv1alpha1.ReasonInconclusive, v.Message()))
	}
	return ""
}
