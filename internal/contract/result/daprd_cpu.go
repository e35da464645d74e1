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

// DaprdCPU is the CPU each daprd used over one measured run, from its own counter
// (process_cpu_seconds_total on its metrics port), which the load tester reads just before
// the run's first request and just after its last: the run's exact edges, where the
// kubelet's counters refresh only every 10–15 s. The counter ticks in 10 ms (the kernel's
// USER_HZ), a fraction of a percent of a run of seconds at hundreds of requests a second.
type DaprdCPU struct {
	// ClientMs is what the load tester's own daprd used, in a group every pod's together
	// (ClientPods of them); nil: not read.
	ClientMs   *int64 `json:"c,omitempty"`
	ClientPods int    `json:"cp,omitempty"`
	// ServerMs is what the target's daprd used; nil: not read.
	ServerMs *int64 `json:"s,omitempty"`
	// WallMs is the time between the two readings (the longest pod's, in a group).
	WallMs int64 `json:"w"`
}

// JoinHalves is the reading of a repetition measured in two halves: a daprd read in both.
func (d *DaprdCPU) JoinHalves(second *DaprdCPU) *DaprdCPU {
	if d == nil || second == nil {
		return nil
	}
	both := func(a, b *int64) *int64 {
		if a == nil || b == nil {
			return nil
		}
		s := *a + *b
		return &s
	}
	return &DaprdCPU{ClientMs: both(d.ClientMs, second.ClientMs), ClientPods: min(d.ClientPods, second.ClientPods),
		ServerMs: both(d.ServerMs, second.ServerMs), WallMs: d.WallMs + second.WallMs}
}

// AddPod folds another load-tester pod's reading of the same run into d: the client daprds
// add up (ClientPods counts them), the target's daprd is read by one pod only (the group's
// leader), and the run lasts as long as the longest pod's.
func (d *DaprdCPU) AddPod(o *DaprdCPU) *DaprdCPU {
	if o == nil {
		return d
	}
	if d == nil {
		c := *o
		return &c
	}
	either := func(a, b *int64) *int64 {
		switch {
		case a == nil:
			return b
		case b == nil:
			return a
		}
		s := *a + *b
		return &s
	}
	return &DaprdCPU{ClientMs: either(d.ClientMs, o.ClientMs), ClientPods: d.ClientPods + o.ClientPods,
		ServerMs: either(d.ServerMs, o.ServerMs), WallMs: max(d.WallMs, o.WallMs)}
}
