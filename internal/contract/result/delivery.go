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

import "cmp"

// Delivery is a PubSub run's publish-to-delivery figures. A path's request latency (Runs,
// Merged, Added) is its publish call's own; Delivery times each message from the slot its
// publish was due in to its subscriber's handler, on the load tester's one clock.
type Delivery struct {
	// Paths holds each path's delivery latency over its repetitions and its message counts.
	Paths []DeliveryPath `json:"p"`
	// Added is the delivery latency Dapr adds over the baseline's (the broker's own client
	// publishing and consuming), with its interval; nil without a repetition of both.
	Added *Added `json:"ad,omitempty"`
}

// DeliveryPath is one path's delivery latency and messages.
type DeliveryPath struct {
	Variant     Variant      `json:"v"`
	Percentiles []Percentile `json:"p,omitempty"`
	AvgUs       int64        `json:"a,omitempty"`
	MaxUs       int64        `json:"m,omitempty"`
	Messages    Messages     `json:"n"`
	// Interval is the path's own latency (no baseline taken off) with an interval over its
	// repetitions, as an added latency's is estimated (how its repetitions differ). nil without
	// a recording.
	Interval *Added `json:"iv,omitempty"`
	// Activities is a Workflow run's activity dispatch latency: each activity from its
	// workflow scheduling it to the worker running it, on the load tester's clock. Empty for
	// other scenarios.
	Activities Spectrum `json:"act,omitzero"`
}

// Latency returns the delivery latency at percentile p, selected by value.
func (d *DeliveryPath) Latency(p float64) (int64, bool) {
	l, ok := (&Run{Percentiles: d.Percentiles}).Latency(p)
	return l.Microseconds(), ok
}

// PathOf returns variant v's delivery figures.
func (d *Delivery) PathOf(v Variant) (DeliveryPath, bool) {
	for _, p := range d.Paths {
		if p.Variant == v {
			return p, true
		}
	}
	return DeliveryPath{}, false
}

// Messages counts one path's messages in its measured phases.
type Messages struct {
	// Published is the messages whose publish succeeded.
	Published int64 `json:"pub"`
	// Delivered is the distinct messages the subscriber had by the phase's drain deadline.
	Delivered int64 `json:"del"`
	// Lost is the published messages never delivered by then.
	Lost int64 `json:"lost,omitempty"`
	// Duplicated counts deliveries beyond a message's first (redeliveries included).
	Duplicated int64 `json:"dup,omitempty"`
	// Unacknowledged is the delivered messages whose publish call failed (a timeout whose
	// message got through): delivered, but not in Published.
	Unacknowledged int64 `json:"unack,omitempty"`
	// Failed is, of a Workflow run's instances (counted as messages: started as published,
	// ended as delivered, unfinished as lost), those that ended without completing.
	Failed int64 `json:"fail,omitempty"`
	// Late is the lost messages delivered after all, after their phase's drain (still lost:
	// the drain bounds a delivery).
	Late int64 `json:"late,omitempty"`
	// WatchedMs is how long after its close a phase was watched for late deliveries and
	// redeliveries (in Duplicated): the shortest of the path's phases, the last one's. nil:
	// not watched.
	WatchedMs *int64 `json:"wms,omitempty"`
	// ReceiptLag is the subscriber's own time per delivery, not in the delivery latency;
	// nil: none delivered.
	ReceiptLag *ReceiptLag `json:"rl,omitempty"`
}

// ReceiptLag is the subscriber's own time from a delivery's arrival (its stamp) to its
// booking: reading the body, decoding it, the book's lock.
type ReceiptLag struct {
	P99Us int64 `json:"p99"` // the highest of the phases' p99s
	MaxUs int64 `json:"max"`
}

// Plus adds another phase's counts: its watch is the shorter, its receipt lag the higher.
func (m Messages) Plus(o Messages) Messages {
	return Messages{Published: m.Published + o.Published, Delivered: m.Delivered + o.Delivered, Lost: m.Lost + o.Lost,
		Duplicated: m.Duplicated + o.Duplicated, Unacknowledged: m.Unacknowledged + o.Unacknowledged, Failed: m.Failed + o.Failed,
		Late: m.Late + o.Late, WatchedMs: shorter(m.WatchedMs, o.WatchedMs), ReceiptLag: m.ReceiptLag.higher(o.ReceiptLag)}
}

func shorter(a, b *int64) *int64 {
	if a == nil || b != nil && *b < *a {
		return b
	}
	return a
}

func (l *ReceiptLag) higher(o *ReceiptLag) *ReceiptLag {
	if l == nil || o == nil {
		return cmp.Or(l, o)
	}
	return &ReceiptLag{P99Us: max(l.P99Us, o.P99Us), MaxUs: max(l.MaxUs, o.MaxUs)}
}
