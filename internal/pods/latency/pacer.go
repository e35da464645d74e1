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

package latency

import (
	"sync"
	"time"

	"github.com/daprbench/daprbench/internal/pods/fineclock"
)

// PacerLead is how far ahead of the pacer's schedule fortio's own schedule runs (at most a
// quarter of one connection's gap: see Pacer.lead). Fortio
// sleeps on Go's timers, which wake up to ~1 ms late (the runtime's poller waits in whole
// milliseconds); the pacer holds each request from fortio's wake-up until its own slot on a
// finer clock, so a send is late only when fortio wakes more than PacerLead late.
const PacerLead = 2 * time.Millisecond

// coarseMargin is how long before a slot the pacer stops waiting on Go's timer (which it
// can abandon when the run is aborted) and starts waiting on the fine clock (which it
// cannot): longer than the Go timer's lateness, short enough for an abort to be prompt.
const coarseMargin = 5 * time.Millisecond

// Pacer holds each request of a fixed-rate run until its slot. Its schedule is fortio's
// arithmetic started PacerLead after the first request's wake-up, so fortio's slots always
// lead the pacer's by about PacerLead and every request reaches the pacer before its slot.
// Latency is timed from the pacer's slots, never from fortio's.
type Pacer struct {
	plan   Schedule
	stop   <-chan struct{}
	once   sync.Once
	start  time.Time         // set once, by the first request
	begun  chan struct{}     // closed once start is set
	clocks []fineclock.Clock // one per thread, each used only by its thread
}

// newPacer paces plan (its Start is ignored) for threads threads, giving up a wait when
// stop closes.
func newPacer(plan Schedule, stop <-chan struct{}) *Pacer {
	return &Pacer{plan: plan, stop: stop, begun: make(chan struct{}), clocks: make([]fineclock.Clock, max(plan.Threads, 1))}
}

// hold returns at thread's i-th slot (at once when it is past, or the run was aborted).
func (p *Pacer) hold(thread int, i int64) {
	p.once.Do(func() {
		p.start = time.Now().Add(p.lead())
		close(p.begun)
	})
	if thread < 0 || thread >= len(p.clocks) {
		return // not a thread of the plan: a guard, fortio never makes one
	}
	due := p.schedule().Intended(thread, i)
	if wait := time.Until(due) - coarseMargin; wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-p.stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
	if p.clocks[thread] == nil {
		p.clocks[thread] = fineclock.New()
	}
	p.clocks[thread].SleepUntil(due)
}

// lead is PacerLead, or a quarter of one connection's gap when that is less: fortio stops a
// connection at its own end time, PacerLead ahead of the pacer's, so a lead near the gap
// would leave the last slots of a busy connection unsent.
func (p *Pacer) lead() time.Duration {
	if g := p.plan.Gap(); g > 0 && g/4 < PacerLead {
		return g / 4
	}
	return PacerLead
}

// schedule is the plan started where the first request set it (zero Start before).
func (p *Pacer) schedule() Schedule {
	s := p.plan
	s.Start = p.start
	return s
}

// close releases the clocks; call it once the run is over (again: nothing).
func (p *Pacer) close() {
	for i, c := range p.clocks {
		if c != nil {
			c.Close()
			p.clocks[i] = nil
		}
	}
}
