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
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/accounting"
	"github.com/daprbench/daprbench/internal/assess/report"
)

// Assessment is what Evaluate found.
type Assessment struct {
	// Result is the result document's figures; nil when the load left no summary with runs
	// in it.
	Result *perfv1alpha1.Result
	// Disturbances are the evidence's, each placed in the load's timeline.
	Disturbances []perfv1alpha1.Disturbance
	// Conditions are the judging conditions found, in the order they are set, each for the
	// run's generation: ResourceUsageAvailable, CPULimitBound, Disturbed, Saturated,
	// Regressed, ThresholdsMet (those the evidence speaks to).
	Conditions []metav1.Condition
	// RegressionBaseline is status.regressionBaseline for a scheduled run: the accepted
	// baseline it was judged under. Nil for a run no schedule judged.
	RegressionBaseline *string
	// Verdict ends the run.
	Verdict Verdict
}

// Verdict ends a run: Failed with a reason, or Succeeded (reason Succeeded or Saturated).
type Verdict struct {
	Failed  bool
	Reason  string
	Message string
}

// Evaluate judges a finished load. The result stands when the load left a summary with runs
// (a failed load tester's partial result included); its judges (saturation, regression,
// thresholds) run only when no check of the load decided the run first. Disturbances are
// judged in every case: they explain a failure as well as a success.
func Evaluate(run *perfv1alpha1.PerfRun, ev Evidence) Assessment {
	var a Assessment
	sum := ev.Load.Summary
	if ev.Load.DecodeErr != nil {
		sum = nil
	}
	phases := Phases(sum)
	if sum != nil && len(sum.Runs) > 0 {
		a.Result = report.Build(run, report.Inputs{Summary: sum, Restarts: ev.Restarts, TesterNodes: ev.TesterNodes,
			Usage: usageByVariant(ev, phases), CPU: accountCPU(run, ev, phases), Faults: ev.Load.Faults, MemoryTrends: memoryTrends(run, ev, phases),
			DaprdTrends:         accounting.DaprdTrends(ev.Load.DaprdGauges, phases, string(report.MeasuredVariant(run)), PhaseEdge),
			LatencyDrift:        accounting.LatencyDrift(ev.Load.LatencyWindows, phases, string(report.MeasuredVariant(run)), PhaseEdge),
			VariantResiliencies: ev.VariantResiliencies})
		a.add(run, cpuCondition(ev, a.Result))
		a.add(run, usageCondition(run, ev, a.Result, phases))
	}
	disturbed := a.judgeDisturbances(run, ev.Disturbances, phases, ev.Load.Faults.Applied)
	o := outcome{Load: ev.Load, summary: sum}
	if sum != nil {
		o.missing = MissingPaths(run, sum)
	}
	v := firstVerdict(&o, loadChecks)
	if v == nil {
		res := a.Result
		a.add(run, saturatedCondition(res))
		a.judgeRegression(run, ev.History, res)
		o.thresholdsViolated = a.judgeThresholds(run, res)
		o.saturated = len(res.Saturated) > 0
		o.headline = report.Headline(res)
		v = firstVerdict(&o, resultChecks)
	}
	if disturbed != "" {
		v.Message += "; " + disturbed
	}
	a.Verdict = *v
	return a
}

// Rejudge judges a finished run's result (its document's) again, for a generation that
// changed only its thresholds: the result, its saturation and its disturbances stand; the
// thresholds and the verdict are judged anew.
func Rejudge(run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result) Assessment {
	var a Assessment
	o := outcome{saturated: run.ConditionTrue(perfv1alpha1.ConditionSaturated), headline: report.Headline(res)}
	o.thresholdsViolated = a.judgeThresholds(run, res)
	v := firstVerdict(&o, resultChecks)
	if run.ConditionTrue(perfv1alpha1.ConditionDisturbed) {
		v.Message += "; " + meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionDisturbed).Message
	}
	a.Verdict = *v
	return a
}

// add appends a condition for the run's generation; nil adds nothing.
func (a *Assessment) add(run *perfv1alpha1.PerfRun, c *metav1.Condition) {
	if c == nil {
		return
	}
	c.ObservedGeneration = run.Generation
	a.Conditions = append(a.Conditions, *c)
}

func condition(t string, status metav1.ConditionStatus, reason, msg string) *metav1.Condition {
	return &metav1.Condition{Type: t, Status: status, Reason: reason, Message: msg}
}
