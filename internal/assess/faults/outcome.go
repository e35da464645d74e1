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

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// Outcome is what one fault did to one path, over every phase it was applied in (one per
// repetition): the windows summed over them, the recovery and amplification of each, and
// their spread over the repetitions.
type Outcome struct {
	Fault   int
	Variant result.Variant
	// Applied counts the phases the fault was applied in; NotApplied says why it was not in
	// the others (the load tester's words).
	Applied    int
	NotApplied []string
	// Before, During and After are the windows of every applied phase, summed: their From
	// and To are the first phase's and the last one's.
	Before, During, After Window
	// Recoveries are the phases' recovery times, in repetition order, of those that
	// recovered; NotRecovered counts those whose timeline ended first, NoBand those with too
	// few pre-fault seconds to judge. Recovery is the recoveries' spread (ok with two).
	Recoveries           []time.Duration
	NotRecovered, NoBand int
	Recovery             Spread
	RecoveryOK           bool
	// Amplification is the app's invocations per request sent over each phase, with its
	// spread (ok with two phases whose app count was read).
	Amplification   Spread
	AmplificationOK bool
	// Messages are a PubSub run's messages over the applied phases, summed (nil: no phase
	// counted any); LostPerPhase is the spread of each phase's lost (ok with two).
	Messages       *result.Messages
	LostPerPhase   Spread
	LostPerPhaseOK bool
	// ClientCPU and ServerCPU are the load tester's own daprd's and the target's before and
	// during the fault (nil: not read in any phase).
	ClientCPU, ServerCPU *CPU
	// Seconds are the applied phases' timelines pooled by second (PoolSeconds).
	Seconds []PooledSecond
}

// Judge is each fault's outcome on each path it was applied to, from the report's timelines
// and applied faults, ordered by fault and path. A fault applied in a phase without a
// timeline is an error: the report is not one load tester's.
func Judge(timelines []result.Timeline, applied []result.AppliedFault) ([]Outcome, error) {
	type phase struct {
		v   result.Variant
		rep int
	}
	// Decoded one phase at a time: a second's histogram takes about 170 KB decoded, and a
	// run holds up to thousands of seconds.
	encoded := map[phase]result.Timeline{}
	for _, t := range timelines {
		encoded[phase{t.Variant, t.Rep}] = t
	}
	type key struct {
		fault int
		v     result.Variant
	}
	byKey := map[key][]result.AppliedFault{}
	for _, a := range applied {
		byKey[key{a.Fault, a.Variant}] = append(byKey[key{a.Fault, a.Variant}], a)
	}
	var out []Outcome
	for k, as := range byKey {
		slices.SortFunc(as, func(a, b result.AppliedFault) int { return cmp.Compare(a.Rep, b.Rep) })
		o := Outcome{Fault: k.fault, Variant: k.v}
		var phases []result.Timeline
		var recoveries, amps, lost []float64
		var cpu daprdCPU
		for _, a := range as {
			if a.Error != "" {
				o.NotApplied = append(o.NotApplied, fmt.Sprintf("repetition %d: %s", a.Rep+1, a.Error))
				continue
			}
			enc, ok := encoded[phase{a.Variant, a.Rep}]
			if !ok {
				return nil, fmt.Errorf("fault %d was applied in %s repetition %d, which has no timeline", a.Fault, a.Variant, a.Rep)
			}
			start, end := a.Span()
			f := Fault{Start: start, End: end}
			timeline, err := readPhase(enc, f, &o.Before, &o.During, &o.After)
			if err != nil {
				return nil, err
			}
			o.Applied++
			phases = append(phases, enc)
			band, ok := BandOf(timeline, f)
			if !ok {
				o.NoBand++
			} else if r, ok := Recovery(timeline, f, band, DefaultHold); ok {
				o.Recoveries = append(o.Recoveries, r)
				recoveries = append(recoveries, r.Seconds())
			} else {
				o.NotRecovered++
			}
			if m := a.Messages; m != nil {
				o.Messages = cmp.Or(o.Messages, &result.Messages{})
				*o.Messages = o.Messages.Plus(*m)
				lost = append(lost, float64(m.Lost))
			}
			cpu.add(a.CPUBefore, a.CPUDuring)
			if a.AppSeen >= 0 {
				if x, ok := Amplification(a.AppSeen, a.Sent); ok {
					amps = append(amps, x)
				}
			}
		}
		o.Before.finish()
		o.During.finish()
		o.After.finish()
		pooled, err := PoolSeconds(phases)
		if err != nil {
			return nil, err
		}
		o.Seconds = pooled
		o.Recovery, o.RecoveryOK = SpreadOf(recoveries)
		o.Amplification, o.AmplificationOK = SpreadOf(amps)
		o.LostPerPhase, o.LostPerPhaseOK = SpreadOf(lost)
		o.ClientCPU, o.ServerCPU = spread(cpu.clientBefore, cpu.clientDuring), spread(cpu.serverBefore, cpu.serverDuring)
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b Outcome) int {
		return cmp.Or(cmp.Compare(a.Fault, b.Fault), cmp.Compare(a.Variant, b.Variant))
	})
	return out, nil
}

// PooledSecond is the k-th second of several phases together: their requests and errors
// summed, and the p50 and p99 of their successes' histograms merged (never averaged), in µs
// (0 with no success).
type PooledSecond struct {
	Sent, Errors int64
	P50Us, P99Us int64
}

// PoolSeconds pools phases by second, to the longest phase's end (a phase that ended a
// second early is missing from the last), so the pooled seconds hold every request of the
// phases, as the windows do. It decodes one second at a time into one scratch histogram: a
// run's seconds decoded at once would take gigabytes.
func PoolSeconds(phases []result.Timeline) ([]PooledSecond, error) {
	n := 0
	for _, t := range phases {
		n = max(n, len(t.Seconds))
	}
	if n == 0 {
		return nil, nil
	}
	out := make([]PooledSecond, n)
	merged := result.NewHistogram()
	for k := range n {
		merged.Reset()
		p := &out[k]
		for _, t := range phases {
			if k >= len(t.Seconds) {
				continue
			}
			s := t.Seconds[k]
			p.Errors += s.Failed
			p.Sent += s.Failed
			if s.Latency == "" {
				continue
			}
			h, err := result.DecodeHistogram(s.Latency)
			if err != nil {
				return nil, fmt.Errorf("second %d of %s repetition %d: %w", k, t.Variant, t.Rep, err)
			}
			p.Sent += h.TotalCount()
			merged.Merge(h)
		}
		if merged.TotalCount() > 0 {
			p.P50Us, p.P99Us = merged.ValueAtQuantile(50), merged.ValueAtQuantile(99)
		}
	}
	return out, nil
}

// SecondsOf is a report's timeline as the seconds the analysis reads, each with its
// successes' histogram.
func SecondsOf(t result.Timeline) ([]Second, error) {
	out := make([]Second, 0, len(t.Seconds))
	for k := range t.Seconds {
		s, h, err := secondOf(t, k)
		if err != nil {
			return nil, err
		}
		s.Latency = h
		out = append(out, s)
	}
	return out, nil
}

// readPhase is a phase's seconds without their histograms: each second's successes are
// merged into the window the fault puts it in (before, during or after) as it is decoded,
// then let go. A decoded second takes about 170 KB: a 10-minute phase held whole took
// about 100 MB of the manager's memory.
func readPhase(t result.Timeline, f Fault, before, during, after *Window) ([]Second, error) {
	windows := [...]*Window{placeBefore: before, placeDuring: during, placeAfter: after}
	out := make([]Second, 0, len(t.Seconds))
	for k := range t.Seconds {
		s, h, err := secondOf(t, k)
		if err != nil {
			return nil, err
		}
		windows[placeOf(s, f)].addSecond(s, h)
		out = append(out, s)
	}
	return out, nil
}

// secondOf is the k-th second of a report's timeline, and its successes' histogram (nil:
// none).
func secondOf(t result.Timeline, k int) (Second, *hdrhistogram.Histogram, error) {
	enc := t.Seconds[k]
	s := Second{At: t.Start().Add(time.Duration(k) * time.Second), Sent: enc.Failed, Errors: enc.Failed}
	if enc.Latency == "" {
		return s, nil, nil
	}
	h, err := result.DecodeHistogram(enc.Latency)
	if err != nil {
		return s, nil, fmt.Errorf("second %d of %s repetition %d: %w", k, t.Variant, t.Rep, err)
	}
	s.Sent += h.TotalCount()
	s.P99 = p99Of(h)
	return s, h, nil
}
