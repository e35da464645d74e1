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

package compare

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
)

// calibrationFigure is the row of the two runs' node calibrations.
const calibrationFigure = "node calibration (units per CPU-second)"

// Cost lists what each sidecar costs per request in the two runs, raw, beside the
// calibrations of their target nodes. When the calibrations differ by more than
// regression.CalibrationDrift the runs ran on machines of different speed and the cost rows
// say so. No normalised cost is offered: the compute-only calibration moved two machines'
// daprd costs apart where the raw ones agreed (docs/cost-and-change-points.md). Calibrations compare
// only between scores of one calibration workload, and only trusted ones.
func Cost(a, b *perfv1alpha1.ResultDocument) []Difference {
	var out []Difference
	machinesDiffer := false
	ca, wa, okA := a.Environment.TargetCalibration()
	cb, wb, okB := b.Environment.TargetCalibration()
	switch {
	case okA && okB && wa != wb:
		out = append(out, Difference{Figure: calibrationFigure, A: textfmt.Fixed(ca, 0), B: textfmt.Fixed(cb, 0), Change: "-",
			Verdict: "calibration workloads differ (daprbench versions): whether the machines differ is unknown"})
	case okA && okB:
		machinesDiffer = math.Abs(cb-ca)/ca > regression.CalibrationDrift
		verdict := fmt.Sprintf("same speed (within %.0f%%)", regression.CalibrationDrift*100)
		if machinesDiffer {
			verdict = "machines differ: costs do not compare"
		}
		out = append(out, Difference{Figure: calibrationFigure, A: textfmt.Fixed(ca, 0), B: textfmt.Fixed(cb, 0),
			Change: changeText(ca, cb, fmt.Sprintf("%+.0f", cb-ca)), Verdict: verdict})
	case okA || okB:
		show := func(v float64, ok bool) string {
			if ok {
				return textfmt.Fixed(v, 0)
			}
			return "-"
		}
		out = append(out, Difference{Figure: calibrationFigure, A: show(ca, okA), B: show(cb, okB), Change: "-",
			Verdict: "one run has no trusted calibration: whether the machines differ is unknown"})
	}
	costs := func(d *perfv1alpha1.ResultDocument) map[string]perfv1alpha1.SidecarCost {
		m := map[string]perfv1alpha1.SidecarCost{}
		if d.Result != nil {
			for _, c := range d.Result.SidecarCost {
				m[c.Role] = c
			}
		}
		return m
	}
	costA, costB := costs(a), costs(b)
	for _, role := range []string{"serverSidecar", "clientSidecar"} {
		x, okX := costA[role]
		y, okY := costB[role]
		if !okX || !okY {
			continue
		}
		rawVerdict := "-"
		if machinesDiffer {
			rawVerdict = "not like for like: machines differ"
		}
		unlike := unlikeCosts(x, y)
		if unlike != "" {
			rawVerdict = "not like for like: " + unlike
		}
		va, vb := x.CPUPerRequest.Duration, y.CPUPerRequest.Duration
		out = append(out, Difference{Figure: role + " CPU per request", A: va.String(), B: vb.String(),
			Change: changeText(float64(va), float64(vb), (vb - va).String()), Verdict: rawVerdict})
		if x.Daprd != nil && y.Daprd != nil {
			da, db := x.Daprd.CPUPerRequest.Duration, y.Daprd.CPUPerRequest.Duration
			out = append(out, Difference{Figure: role + " CPU per request (daprd's counter)", A: report.DaprdCostWithInterval(x.Daprd), B: report.DaprdCostWithInterval(y.Daprd),
				Change: changeText(float64(da), float64(db), (db - da).String()), Verdict: cmp.Or(unlike, "intervals: each run's own repetitions, not a rerun's")})
		}
	}
	return out
}

// likeRate is how far two costs' rates may lie apart and still compare: a sidecar's CPU per
// request falls as its rate rises (its idle floor spreads over more requests).
const likeRate = 0.10

// unlikeCosts says why two costs do not compare — measured at rates more than likeRate
// apart, under different arrivals, by different counters (daprd's, the kubelet's), or one
// throttled by its limit and the other not — empty when they do, or when either lacks its tags (a result from before they existed).
func unlikeCosts(a, b perfv1alpha1.SidecarCost) string {
	var why []string
	ra, errA := strconv.ParseFloat(a.AtQPS, 64)
	rb, errB := strconv.ParseFloat(b.AtQPS, 64)
	if errA == nil && errB == nil && min(ra, rb) > 0 && math.Abs(rb-ra)/min(ra, rb) > likeRate {
		why = append(why, fmt.Sprintf("%s vs %s rps", a.AtQPS, b.AtQPS))
	}
	if a.Arrival != "" && b.Arrival != "" && a.Arrival != b.Arrival {
		why = append(why, a.Arrival+" vs "+b.Arrival+" arrival")
	}
	if sa, sb := costSource(a), costSource(b); sa != "" && sb != "" && sa != sb {
		why = append(why, fmt.Sprintf("%s's counter vs %s's", strings.ToLower(string(sa)), strings.ToLower(string(sb))))
	}
	ta, errA := strconv.ParseFloat(a.ThrottledPercent, 64)
	tb, errB := strconv.ParseFloat(b.ThrottledPercent, 64)
	if errA == nil && errB == nil && (ta >= regression.ThrottledShare) != (tb >= regression.ThrottledShare) {
		why = append(why, fmt.Sprintf("throttled in %s%% vs %s%% of periods", a.ThrottledPercent, b.ThrottledPercent))
	}
	return strings.Join(why, ", ")
}

// costSource is the counter a cost's headline came from; for a document written before
// source was kept, the kubelet's whenever its counters were read (throttledPercent is set
// only then), daprd's otherwise.
func costSource(c perfv1alpha1.SidecarCost) perfv1alpha1.CostSource {
	switch {
	case c.Source != "":
		return c.Source
	case c.ThrottledPercent != "":
		return perfv1alpha1.CostFromKubelet
	case c.Daprd != nil:
		return perfv1alpha1.CostFromDaprd
	}
	return ""
}

// CostTags is what a cost was measured under, e.g. "1000.0 rps, Synchronized, throttled 0.0%".
func CostTags(c perfv1alpha1.SidecarCost) string {
	if c.AtQPS == "" {
		return "-"
	}
	return fmt.Sprintf("%s rps, %s, throttled %s%%", c.AtQPS, c.Arrival, c.ThrottledPercent)
}
