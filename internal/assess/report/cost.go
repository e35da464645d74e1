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

package report

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// sidecarCosts is each sidecar's CPU per completed request of the measured path — from
// daprd's own counter at each repetition's edges whenever every repetition read it, the
// kubelet's counters over the same runs beside it as the cross-check and the throttling
// source; from the kubelet's alone otherwise — and the rate the spec's sidecar CPU limit
// would carry at that cost (projected at ProjectionUtilisation), tagged with the rate,
// arrival and throttling it was measured under. completedQPS is the measured path's rate of
// completed requests. Nil with neither source.
//
// daprd's counter is the headline because it is read at the phase's exact edges; the
// kubelet's is differenced at the samples nearest them and misses part of a short phase
// (12.5% low on 20 s phases, 42% on 10 s ones, in the project's reruns).
func sidecarCosts(run *perfv1alpha1.PerfRun, cpu *perfv1alpha1.CPUAccounting, sum *result.Summary, completedQPS float64) []perfv1alpha1.SidecarCost {
	env := run.Status.Environment
	if env == nil {
		env = &perfv1alpha1.Environment{}
	}
	nodeOf := map[roles.Role]string{roles.ServerSidecar: env.TargetNode, roles.ClientSidecar: env.LoadTesterNode}
	if completedQPS <= 0 {
		return nil
	}
	var out []perfv1alpha1.SidecarCost
	for _, role := range []roles.Role{roles.ServerSidecar, roles.ClientSidecar} {
		var kubelet *perfv1alpha1.ContainerCPU
		if cpu != nil {
			for i, c := range cpu.Measured {
				// With sidecar variants the target's roles carry its variant's code (@d).
				base, variant := roles.SplitVariant(c.Role)
				if base == string(role) && (variant == "" || variant == string(MeasuredVariant(run))) && c.CPU.MilliValue() > 0 {
					kubelet = &cpu.Measured[i]
				}
			}
		}
		var kubeletPerRequest time.Duration
		if kubelet != nil {
			// m millicores are m/1000 CPU-seconds each second, over completedQPS requests.
			kubeletPerRequest = time.Duration(float64(kubelet.CPU.MilliValue()) / 1000 / completedQPS * float64(time.Second)).Round(time.Microsecond / 10)
		}
		daprd := daprdCost(sum, role, MeasuredVariant(run))
		var perRequest time.Duration
		var source perfv1alpha1.CostSource
		switch {
		case daprd != nil:
			perRequest, source = daprd.CPUPerRequest.Duration, perfv1alpha1.CostFromDaprd
		case kubelet != nil:
			perRequest, source = kubeletPerRequest, perfv1alpha1.CostFromKubelet
		default:
			continue
		}
		cost := perfv1alpha1.SidecarCost{Role: string(role), CPUPerRequest: metav1.Duration{Duration: perRequest.Round(time.Microsecond / 10)},
			Source: source, AtQPS: formatQPS(completedQPS), Arrival: string(run.Spec.Load.EffectiveArrival()), Daprd: daprd}
		if kubelet != nil {
			// No CFS periods: no limit stalled it. No kubelet counters: unknown, left empty.
			cost.ThrottledPercent = cmp.Or(kubelet.ThrottledPeriodsPercent, "0.0")
		}
		if daprd != nil && kubelet != nil {
			cost.KubeletCPUPerRequest = &metav1.Duration{Duration: kubeletPerRequest}
			daprd.KubeletDifferencePercent = kubeletDifference(kubeletPerRequest, daprd.CPUPerRequest.Duration)
		}
		if limit := run.Spec.Dapr.Sidecar.CPULimit; limit != nil && perRequest > 0 {
			projected := ProjectionUtilisation * limit.AsApproximateFloat64() / perRequest.Seconds()
			cost.LimitProjectedQPS = formatQPS(math.Floor(projected))
		}
		cost.Node = nodeOf[role]
		out = append(out, cost)
	}
	return out
}

// ProjectionUtilisation is the share of its CPU limit at which a sidecar's projected rate is
// given: at the whole limit the queue never drains (the project's own fixture carried 800
// rps while bound where limit ÷ cost read 896).
const ProjectionUtilisation = 0.8

// CostMessage says what each sidecar costs per request and what its limit would carry; for
// a limit-bound result it says what the limit actually carried and labels the added latency
// as the limit's. Empty without costs.
func CostMessage(res *perfv1alpha1.Result) string {
	if res == nil || len(res.SidecarCost) == 0 {
		return ""
	}
	var parts []string
	for _, c := range res.SidecarCost {
		part := fmt.Sprintf("%s %s CPU per request", c.Role, c.CPUPerRequest.Duration)
		switch d := c.Daprd; {
		case d != nil && c.KubeletCPUPerRequest != nil:
			part += fmt.Sprintf(" (daprd's own counter: %s; the kubelet's cross-check: %s, %s%%)", daprdCostText(d), c.KubeletCPUPerRequest.Duration, signed(d.KubeletDifferencePercent))
		case d != nil:
			part += " (daprd's own counter: " + daprdCostText(d) + ")"
		default:
			part += " by the kubelet's counters (daprd's own was not read)"
		}
		if c.LimitProjectedQPS != "" {
			part += fmt.Sprintf(" (projected: its CPU limit would carry ~%s rps at %.0f%% use)", c.LimitProjectedQPS, ProjectionUtilisation*100)
		}
		parts = append(parts, part)
	}
	msg := "Dapr's cost: " + strings.Join(parts, ", ")
	if res.LimitBound && res.Added != nil {
		msg += fmt.Sprintf("; the added latency at %d rps is limit-bound: that of a sidecar held at its CPU limit", res.RequestedQPS)
		if res.ActualQPS != "" {
			msg += fmt.Sprintf(", which carried %s rps", res.ActualQPS)
		}
	}
	return msg
}

// signed is a decimal string with its sign: "+5.0", "-12.5".
func signed(percent string) string {
	if percent == "" || strings.HasPrefix(percent, "-") {
		return percent
	}
	return "+" + percent
}

// daprdCostText is a daprd's own cost in a few words: its mean with the interval over the
// repetitions, and what it costs above its idle floor.
func daprdCostText(d *perfv1alpha1.DaprdCost) string {
	text := DaprdCostWithInterval(d)
	if d.Low != nil && d.High != nil {
		text += fmt.Sprintf(" over %d repetitions", len(d.PerRepetition))
	}
	if d.MarginalPerRequest != nil && d.IdleCPU != nil {
		text += fmt.Sprintf(", %s above its idle %s", d.MarginalPerRequest.Duration, d.IdleCPU)
	}
	return text
}

// DaprdCostWithInterval is a daprd's mean cost and, with two or more repetitions, its
// interval over them: "240µs [215.2µs, 264.8µs]".
func DaprdCostWithInterval(d *perfv1alpha1.DaprdCost) string {
	if d.Low == nil || d.High == nil {
		return d.CPUPerRequest.Duration.String()
	}
	return fmt.Sprintf("%s [%s, %s]", d.CPUPerRequest.Duration, d.Low.Duration, d.High.Duration)
}
