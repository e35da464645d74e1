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

package faults

import "github.com/daprbench/daprbench/internal/contract/result"

// CPU is one daprd's CPU before and during a fault, in cores, each phase's from its
// counter's advance over the span's wall time: the spread over the phases where both spans
// were read (ok with two).
type CPU struct {
	Before, During     Spread
	BeforeOK, DuringOK bool
}

// daprdCPU gathers each phase's cores before and during the fault, client's and server's.
type daprdCPU struct{ clientBefore, clientDuring, serverBefore, serverDuring []float64 }

// add takes one phase's readings: a daprd counts only where both spans were read.
func (c *daprdCPU) add(before, during *result.DaprdCPU) {
	if before == nil || during == nil || before.WallMs <= 0 || during.WallMs <= 0 {
		return
	}
	cores := func(ms *int64, wallMs int64) float64 { return float64(*ms) / float64(wallMs) }
	if before.ClientMs != nil && during.ClientMs != nil {
		c.clientBefore = append(c.clientBefore, cores(before.ClientMs, before.WallMs))
		c.clientDuring = append(c.clientDuring, cores(during.ClientMs, during.WallMs))
	}
	if before.ServerMs != nil && during.ServerMs != nil {
		c.serverBefore = append(c.serverBefore, cores(before.ServerMs, before.WallMs))
		c.serverDuring = append(c.serverDuring, cores(during.ServerMs, during.WallMs))
	}
}

// spread is a daprd's CPU over its phases; nil when none was read.
func spread(before, during []float64) *CPU {
	if len(during) == 0 {
		return nil
	}
	var c CPU
	c.Before, c.BeforeOK = SpreadOf(before)
	c.During, c.DuringOK = SpreadOf(during)
	return &c
}
