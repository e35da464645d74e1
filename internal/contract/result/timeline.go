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

import (
	"fmt"
	"time"
)

// Timeline is one measured run's seconds, in the report of a run with faults only (a
// quiet run's report stays as small as it was): what assess/faults cuts at each fault.
type Timeline struct {
	Variant Variant `json:"v"`
	Rep     int     `json:"i"`
	// StartUnixNano is the schedule's start on the load tester's clock: second k holds the
	// requests whose slots fell in [start + k s, start + (k+1) s).
	StartUnixNano int64 `json:"t"`
	// Seconds, in order.
	Seconds []Second `json:"s"`
}

// Second is one second of a timeline: its successes' latency from their slots (as
// EncodeHistogram writes it; empty with none), and how many of its requests failed.
// Slots never sent by the end are in the latency at the least they waited, as in Latency.
type Second struct {
	Latency string `json:"l,omitempty"`
	Failed  int64  `json:"f,omitempty"`
}

// Start is when the timeline's first second began.
func (t Timeline) Start() time.Time { return time.Unix(0, t.StartUnixNano) }

// AppliedFault is one fault (spec.faults[Fault]) as the load tester applied it in one
// measured phase: from the moment it asked for it to the moment it was sure it was over,
// so the span holds the fault whole. Error says why it was not applied.
type AppliedFault struct {
	Fault   int     `json:"fault"`
	Variant Variant `json:"v"`
	Rep     int     `json:"i"`
	// StartUnixNano and EndUnixNano bound the fault on the load tester's clock.
	StartUnixNano int64 `json:"start"`
	EndUnixNano   int64 `json:"end"`
	// AppSeen is how many invocations the target app counted over the phase (retries
	// included), -1 when it could not be read; Sent how many the load tester sent over it
	// (fortio's one check per connection before the load included): Resiliency's retries
	// show as AppSeen above Sent.
	AppSeen int64  `json:"seen"`
	Sent    int64  `json:"sent"`
	Error   string `json:"err,omitempty"`
	// Pod is the pod a PodKill deleted, Replacement the one made in its place by the
	// fault's end (empty: none), Ready when it was ready by then, at EndUnixNano.
	Pod         string `json:"pod,omitempty"`
	Replacement string `json:"repl,omitempty"`
	Ready       bool   `json:"ready,omitempty"`
	// MeasuredQPS is set when the phase lost a load-tester pod's measurements (a kill of a
	// LoadTester): the rate of the pods whose requests it holds (Run.RequestedQPS).
	MeasuredQPS float64 `json:"mq,omitempty"`
	// Messages are a PubSub phase's messages, counted at its drain; nil in a scenario
	// without messages.
	Messages *Messages `json:"msgs,omitempty"`
	// CPUBefore is what the daprds used from the phase's start to the fault's, CPUDuring
	// over the fault's span, from their own counters; nil: not read.
	CPUBefore *DaprdCPU `json:"cpub,omitempty"`
	CPUDuring *DaprdCPU `json:"cpud,omitempty"`
}

// Span is the fault's recorded [start, end).
func (f AppliedFault) Span() (time.Time, time.Time) {
	return time.Unix(0, f.StartUnixNano), time.Unix(0, f.EndUnixNano)
}

// checkFaults refuses a fault applied in a phase the report has no timeline of: the
// load tester reports both for every phase.
func checkFaults(ts []Timeline, fs []AppliedFault) error {
	type phase struct {
		v   Variant
		rep int
	}
	timed := map[phase]bool{}
	for _, t := range ts {
		timed[phase{t.Variant, t.Rep}] = true
	}
	for _, f := range fs {
		if f.Error == "" && !timed[phase{f.Variant, f.Rep}] {
			return fmt.Errorf("fault %d was applied in %s repetition %d, which has no timeline", f.Fault, f.Variant, f.Rep)
		}
	}
	return nil
}

// checkTimelines refuses a timeline whose seconds are not the load tester's histograms or
// whose counts cannot be.
func checkTimelines(ts []Timeline) error {
	for _, t := range ts {
		for k, s := range t.Seconds {
			if s.Failed < 0 {
				return fmt.Errorf("timeline of %s repetition %d: second %d has %d failed", t.Variant, t.Rep, k, s.Failed)
			}
			if s.Latency == "" {
				continue
			}
			if err := CheckEncodedHistogram(s.Latency); err != nil {
				return fmt.Errorf("timeline of %s repetition %d, second %d: %w", t.Variant, t.Rep, k, err)
			}
		}
	}
	return nil
}
