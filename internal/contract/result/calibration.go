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

package result

import "fmt"

// Calibration is a node's score on the calibration workload (internal/pods/calibrate), as
// the calibration pod writes it to its termination message: units of the fixed workload per second.
type Calibration struct {
	// Single is units per second on one goroutine, under the CPU limit: what one request
	// path of the sidecar gets done per second of wall time (the upper decile of 100-ms
	// windows).
	Single float64 `json:"single"`
	// PerCPUSecond is units per CPU-second of the single-goroutine run (the process's own
	// CPU time, upper decile of the windows): the speed of the node's core whatever the
	// limit, and what CPU time converts with (Units).
	PerCPUSecond float64 `json:"perCPUSecond,omitempty"`
	// SlowShare is the share of windows below 80% of that speed: how often something else
	// held the core back while the node was scored.
	SlowShare float64 `json:"slowShare"`
	// Parallel is units per second on Parallelism goroutines at once.
	Parallel    float64 `json:"parallel"`
	Parallelism int     `json:"parallelism"`
	// Seconds each measurement lasted.
	Seconds float64 `json:"seconds"`
	// Workload names the version of the workload that was run (its checksum): scores of
	// different versions do not compare.
	Workload string `json:"workload"`
}

// String is the score as a reader sees it.
func (s Calibration) String() string {
	return fmt.Sprintf("%.0f units/s on one goroutine, %.0f on %d", s.Single, s.Parallel, s.Parallelism)
}
