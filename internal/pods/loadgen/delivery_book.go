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

package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// message is what a PubSub run publishes: the publishing process's nonce (another run's
// messages on a shared topic are not this one's), its phase, its number in the phase, the
// slot its publish was due in (an offset on the load tester's monotonic clock: only this
// process reads it) and padding to the run's payload size.
type message struct {
	Nonce string `json:"r"`
	Phase string `json:"ph"`
	Seq   uint64 `json:"n"`
	Due   int64  `json:"due"`           // nanoseconds since the book's epoch
	Pad   string `json:"pad,omitempty"` // the payload's bytes as letters (lettersOf)
}

func encodeMessage(m message) []byte {
	b, _ := json.Marshal(m)
	return b
}

// decodeMessage reads a delivered message: as published (the baseline's stream entry), or
// inside the CloudEvent daprd wraps it in — its data field, or its data_base64 (a raw
// payload, which daprd delivers base64-encoded as application/octet-stream).
func decodeMessage(b []byte) (message, error) {
	var envelope struct {
		SpecVersion string          `json:"specversion"`
		Data        json.RawMessage `json:"data"`
		DataBase64  []byte          `json:"data_base64"`
	}
	if err := json.Unmarshal(b, &envelope); err == nil && envelope.SpecVersion != "" {
		switch {
		case len(envelope.DataBase64) > 0:
			b = envelope.DataBase64
		case len(envelope.Data) > 0:
			b = envelope.Data
		}
	}
	var m message
	if err := json.Unmarshal(b, &m); err != nil {
		return message{}, err
	}
	if m.Phase == "" {
		return message{}, errors.New("not a daprbench message: no phase")
	}
	m.Pad = "" // read, not kept
	return m, nil
}

// deliveryBook keeps, per open phase, which messages were published and when each was
// first delivered. Publisher and subscriber are this one process, so a message's delivery
// latency (its delivery minus the slot its publish was due in) is read on one monotonic
// clock and no two clocks need agree. A delivery is stamped when it arrives, before its body
// is read; what the subscriber then spends on it is its receipt lag, kept apart. A closed
// phase is still watched: a redelivery of one of its messages (a broker's, after its
// processing timeout) is its duplicate, a first delivery after its drain is late (and stays
// lost). A message of no measured phase (the warm-up's, a readiness probe's) or of another
// process (its nonce) is counted apart.
type deliveryBook struct {
	epoch time.Time
	nonce string
	now   func() time.Duration // since epoch; a fake in tests
	mu    sync.Mutex
	open  map[string]*phaseMessages
	// closed holds each closed phase's messages, watched for late deliveries until the run
	// ends (afterClose).
	closed map[string]*closedPhase
	// stray counts deliveries of phases never measured: warm-up and probes; foreign those
	// of another process.
	stray, foreign int64
	// changed is closed and replaced whenever a phase gains a message both published and
	// delivered (await's wake-up).
	changed chan struct{}
}

// phaseMessages is one phase's messages.
type phaseMessages struct {
	start time.Duration
	seq   uint64
	// published holds each accepted message's due slot; delivered each delivery.
	published map[uint64]time.Duration
	delivered map[uint64]latency.Delivery
	// matched counts messages both published and delivered, whichever came second.
	matched int64
	dups    int64
	// failed counts deliveries that were failures (a Workflow instance that ended failed).
	failed int64
	// spans holds what each delivery brought of its own timing: a Workflow instance's
	// activities' dispatch latencies.
	spans []time.Duration
	// lags holds each delivery's receipt lag: from its arrival to its booking.
	lags []time.Duration
}

// closedPhase is what a closed phase keeps to judge a delivery after its close: which of
// its numbers (1 to last, dense) were delivered, as bits, so a long run's phases stay cheap.
type closedPhase struct {
	at   time.Duration // when it closed
	last uint64
	// published and delivered hold a bit per number: published (its call succeeded), and
	// delivered, before or after the close.
	published, delivered bits
	// dups counts redeliveries after the close; lates first deliveries after it of
	// published messages (those counted lost).
	dups, lates int64
}

// bits is a set of a phase's message numbers.
type bits []uint64

func newBits(last uint64) bits     { return make(bits, last/64+1) }
func (b bits) has(seq uint64) bool { return b[seq/64]&(1<<(seq%64)) != 0 }
func (b bits) set(seq uint64)      { b[seq/64] |= 1 << (seq % 64) }

func newDeliveryBook() *deliveryBook {
	epoch := time.Now()
	return &deliveryBook{epoch: epoch, nonce: uuid.NewString(), now: func() time.Duration { return time.Since(epoch) },
		open: map[string]*phaseMessages{}, closed: map[string]*closedPhase{}, changed: make(chan struct{})}
}

// offset is t on the book's clock.
func (b *deliveryBook) offset(t time.Time) int64 { return int64(t.Sub(b.epoch)) }

// begin opens phase: its messages are counted from now on.
func (b *deliveryBook) begin(phase string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.open[phase] = &phaseMessages{start: b.now(), published: map[uint64]time.Duration{}, delivered: map[uint64]latency.Delivery{}}
}

// next is the number of phase's next message.
func (b *deliveryBook) next(phase string) uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.open[phase]
	if p == nil {
		return 0
	}
	p.seq++
	return p.seq
}

// published notes that message seq of phase, due at due, was accepted by its publish call.
func (b *deliveryBook) published(phase string, seq uint64, due int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p := b.open[phase]; p != nil {
		p.published[seq] = time.Duration(due)
		if hasKey(p.delivered, seq) {
			b.match(p)
		}
	}
}

// arrival is a delivery's arrival on the book's clock: stamp it before reading the delivery.
func (b *deliveryBook) arrival() time.Duration { return b.now() }

// delivered notes a delivery of m that arrived at arrived (arrival).
func (b *deliveryBook) delivered(m message, arrived time.Duration) { b.ended(m, arrived, false, nil) }

// ended notes m's outcome, which arrived at arrived: delivered, and a failure when failed
// (counted in the same step, so a phase's close never sees the one without the other),
// with the spans it timed (kept for its first delivery only).
func (b *deliveryBook) ended(m message, arrived time.Duration, failed bool, spans []time.Duration) {
	lag := b.now() - arrived
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.open[m.Phase]
	switch {
	case m.Nonce != b.nonce:
		b.foreign++
	case p == nil:
		b.afterClose(m)
	case hasKey(p.delivered, m.Seq):
		p.dups++
	default:
		p.delivered[m.Seq] = latency.Delivery{Due: time.Duration(m.Due), Received: arrived}
		p.lags = append(p.lags, lag)
		if failed {
			p.failed++
		}
		p.spans = append(p.spans, spans...)
		if hasKey(p.published, m.Seq) {
			b.match(p)
		}
	}
}

// afterClose notes a delivery of a phase not open: a closed phase's duplicate or late
// message, or a stray of a phase never measured.
func (b *deliveryBook) afterClose(m message) {
	c := b.closed[m.Phase]
	switch {
	case c == nil || m.Seq > c.last:
		b.stray++
	case c.delivered.has(m.Seq):
		c.dups++
	default:
		c.delivered.set(m.Seq)
		if c.published.has(m.Seq) {
			c.lates++ // else its publish call failed: delivered after all, never counted lost
		}
	}
}

// match counts one more message of p both published and delivered, and wakes await.
func (b *deliveryBook) match(p *phaseMessages) {
	p.matched++
	close(b.changed)
	b.changed = make(chan struct{})
}

func hasKey[K comparable, V any](m map[K]V, k K) bool { _, ok := m[k]; return ok }

// await waits until every message phase published has been delivered, for at most bound.
func (b *deliveryBook) await(ctx context.Context, phase string, bound time.Duration) {
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		p, changed := b.open[phase], b.changed
		done := p == nil || p.matched >= int64(len(p.published))
		b.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// close ends phase, whose first slot was at start (zero: when it began): its delivery
// latency, its counts and its deliveries' spans. A message published and never delivered is in the latency too,
// at the least it waited (from its slot to now), as a request never sent is: leaving it out
// would let a lossy path read fast. Deliveries after close are strays.
func (b *deliveryBook) close(phase string, start time.Time) (*latency.Recorded, result.Messages, []time.Duration) {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.open[phase]
	delete(b.open, phase)
	if p == nil {
		return latency.NewRecorded(), result.Messages{}, nil
	}
	c := &closedPhase{at: now, last: p.seq, published: newBits(p.seq), delivered: newBits(p.seq)}
	for seq := range p.delivered {
		if seq <= p.seq {
			c.delivered.set(seq)
		}
	}
	for seq := range p.published {
		if seq <= p.seq {
			c.published.set(seq)
		}
	}
	b.closed[phase] = c
	ds := make([]latency.Delivery, 0, len(p.delivered)+len(p.published)-int(p.matched))
	for _, d := range p.delivered {
		ds = append(ds, d)
	}
	for seq, due := range p.published {
		if !hasKey(p.delivered, seq) {
			ds = append(ds, latency.Delivery{Due: due, Received: now})
		}
	}
	from := p.start
	if !start.IsZero() {
		from = time.Duration(b.offset(start))
	}
	counts := result.Messages{
		Published:      int64(len(p.published)),
		Delivered:      int64(len(p.delivered)),
		Lost:           int64(len(p.published)) - p.matched,
		Duplicated:     p.dups,
		Unacknowledged: int64(len(p.delivered)) - p.matched,
		Failed:         p.failed,
		ReceiptLag:     receiptLagOf(p.lags),
	}
	return latency.RecordDeliveries(from, ds), counts, p.spans
}

// deliveredCount is how many distinct messages of phase were delivered so far.
func (b *deliveryBook) deliveredCount(phase string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p := b.open[phase]; p != nil {
		return len(p.delivered)
	}
	return 0
}

// lateSince is, per closed phase, what was delivered after its close until now (the
// duplicates and late first deliveries, with how long it was watched); the phases then
// stay watched.
func (b *deliveryBook) lateSince() map[string]result.Messages {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]result.Messages, len(b.closed))
	for phase, c := range b.closed {
		watched := (now - c.at).Milliseconds()
		out[phase] = result.Messages{Duplicated: c.dups, Late: c.lates, WatchedMs: &watched}
	}
	return out
}

// strays is the deliveries of no measured phase so far, and of other processes.
func (b *deliveryBook) strays() (stray, foreign int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stray, b.foreign
}

// receiptLagOf is a phase's receipt lags' p99 and maximum; nil for none.
func receiptLagOf(lags []time.Duration) *result.ReceiptLag {
	if len(lags) == 0 {
		return nil
	}
	slices.Sort(lags)
	return &result.ReceiptLag{P99Us: lags[(len(lags)*99-1)/100].Microseconds(), MaxUs: lags[len(lags)-1].Microseconds()}
}
