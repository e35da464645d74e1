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

package thresholds

import (
	"fmt"
	"strings"
	"time"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// faultChecks are the gates of thresholds.maxFaultErrorPercent and maxRecovery on each
// fault's outcome (the result's faults, one per fault and path). A threshold set on a run
// whose result holds no fault outcome reads Inconclusive, not measured.
func faultChecks(t *perfv1alpha1.Thresholds, res *perfv1alpha1.Result) []Check {
	if t.MaxFaultErrorPercent == nil && t.MaxRecovery == nil {
		return nil
	}
	outcomes := res.Faults
	if len(outcomes) == 0 {
		outcomes = []perfv1alpha1.FaultOutcome{{Fault: -1}}
	}
	var checks []Check
	for _, f := range outcomes {
		if t.MaxFaultErrorPercent != nil {
			checks = append(checks, faultErrorCheck(f, *t.MaxFaultErrorPercent))
		}
		if t.MaxRecovery != nil {
			checks = append(checks, recoveryCheck(f, t.MaxRecovery.Duration))
		}
	}
	return checks
}

// faultName names a fault's outcome as spec.faults does, with its path.
func faultName(f perfv1alpha1.FaultOutcome) string {
	if f.Fault < 0 {
		return "faults"
	}
	return fmt.Sprintf("faults[%d] on %s", f.Fault, f.Path)
}

// notMeasured says why a fault's outcome holds nothing to judge, or "" when it does.
func notMeasured(f perfv1alpha1.FaultOutcome) string {
	switch {
	case f.Fault < 0:
		return "not measured"
	case f.Applied == 0 && len(f.NotApplied) == 0:
		return "not applied"
	case f.Applied == 0:
		return "not applied: " + strings.Join(f.NotApplied, "; ")
	}
	return ""
}

// faultErrorCheck judges the error share of the seconds the fault touched, on the Wilson
// interval of its counts (not the rounded strings the result shows): met when the
// interval's high end is within the limit, violated when its low end is above it. A limit of
// 0 is judged on the count, as maxErrors is: no interval's high end reaches 0.
func faultErrorCheck(f perfv1alpha1.FaultOutcome, limit int32) Check {
	c := Check{Name: faultName(f) + " errors during", Limit: fmt.Sprintf("<= %d%%", limit), Outcome: Inconclusive, Measured: notMeasured(f)}
	if c.Measured != "" {
		return c
	}
	w := f.During
	if w.Requests <= 0 {
		c.Measured = "no requests due while it held"
		return c
	}
	low, high := stats.Wilson(w.Errors, w.Requests)
	share := float64(w.Errors) / float64(w.Requests)
	c.Measured = fmt.Sprintf("%.2f%% (95%% interval %.2f..%.2f%%; %d of %d)", 100*share, 100*low, 100*high, w.Errors, w.Requests)
	if limit == 0 {
		c.Outcome = judge(w.Errors == 0)
		return c
	}
	c.Outcome = intervalOutcome(low, high, float64(limit)/100)
	return c
}

// recoveryCheck judges every phase the fault was applied in: one that never recovered, or
// recovered later than the limit, violates it; one without the seconds before the fault to
// set its band leaves it inconclusive.
func recoveryCheck(f perfv1alpha1.FaultOutcome, limit time.Duration) Check {
	c := Check{Name: faultName(f) + " recovery", Limit: "<= " + limit.String(), Outcome: Inconclusive, Measured: notMeasured(f)}
	if c.Measured != "" {
		return c
	}
	slowest := "-"
	if f.SlowestRecovery != nil {
		slowest = f.SlowestRecovery.Duration.String()
	}
	c.Measured = fmt.Sprintf("slowest %s; %d of %d phases recovered", slowest, f.Recovered, f.Applied)
	switch {
	case f.NotRecovered > 0:
		c.Outcome, c.Measured = Violated, c.Measured+fmt.Sprintf(", %d not before its end", f.NotRecovered)
	case f.SlowestRecovery != nil && f.SlowestRecovery.Duration > limit:
		c.Outcome = Violated
	case f.Unjudged > 0:
		c.Measured += fmt.Sprintf(", %d unjudged (too few seconds before the fault)", f.Unjudged)
	case f.Recovered > 0:
		c.Outcome = Met
	}
	return c
}
