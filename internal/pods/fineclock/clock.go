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

// Package fineclock sleeps until a time with a resolution finer than Go's timers, which wake
// up to ~1 ms late (the runtime's poller waits in whole milliseconds). The load tester's
// pacer holds requests to their slots with it, and the target app's known-answer delay
// (perfapp --dapr-delay) is made with it, so 500 µs injected is 500 µs and not 1.2 ms.
package fineclock

import (
	"sync"
	"time"
)

// Clock sleeps until a time; one goroutine at a time uses a Clock.
type Clock interface {
	SleepUntil(due time.Time)
	Close()
}

// idle holds clocks between Sleeps: a timerfd is three syscalls to make and close.
var idle = sync.Pool{New: func() any { return New() }}

// Sleep sleeps for d on a fine clock (pooled: safe from many goroutines at once).
func Sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	c := idle.Get().(Clock)
	c.SleepUntil(time.Now().Add(d))
	idle.Put(c)
}

// Fine reports whether this machine gives a clock finer than Go's timers; where it does
// not, New falls back to Go's timers and the load tester says so in its log.
func Fine() bool {
	c := New()
	defer c.Close()
	_, fallback := c.(goClock)
	return !fallback
}

// goClock is the fallback where no finer clock can be had: Go's own timer.
type goClock struct{}

func (goClock) SleepUntil(due time.Time) { time.Sleep(time.Until(due)) }
func (goClock) Close()                   {}
