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

import "strconv"

// Rates are stored as decimal strings ("998.4"): CRDs have no float type that survives
// every client. These read them back, in one place.

// Rate is a rate written as a decimal string; ok is false when it is absent or malformed.
func Rate(s string) (qps float64, ok bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// RequestedRate is the rate the measured path's phases asked of the load-tester pods whose
// requests they hold: requestedQPS, or measuredRequestedQPS when a kill lost a pod's.
func (r *Result) RequestedRate() float64 {
	if q, ok := Rate(r.MeasuredRequestedQPS); ok {
		return q
	}
	return float64(r.RequestedQPS)
}

// ActualRate is the measured path's achieved rate.
func (r *Result) ActualRate() (float64, bool) { return Rate(r.ActualQPS) }

// ActualRate is the variant's achieved rate.
func (v *VariantResult) ActualRate() (float64, bool) { return Rate(v.ActualQPS) }

// MaxSlowWindowsPercent is the share of slow calibration windows beyond which a node's
// score is not used: the calibration ran mostly in a stretch where something held the core
// back, and reads low (measured: 33% low at 75% slow windows, docs/cost-and-change-points.md).
const MaxSlowWindowsPercent = 50

// Trusted says whether the score converts CPU time and compares nodes: not when most of its
// windows ran slow.
func (c *NodeCalibration) Trusted() bool { return c.SlowWindowsPercent <= MaxSlowWindowsPercent }

// TargetCalibration is the calibration of the node the target ran on (what the server
// sidecar's CPU converts with), in units per CPU-second, and the workload version it ran;
// ok is false without a trusted one.
func (e *Environment) TargetCalibration() (perCPUSecond float64, workload string, ok bool) {
	if e == nil {
		return 0, "", false
	}
	for _, c := range e.Calibration {
		if c.Node == e.TargetNode && c.Trusted() {
			v, ok := Rate(c.PerCPUSecond)
			return v, c.Workload, ok && v > 0
		}
	}
	return 0, "", false
}
