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

package fineclock

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// timerfdClock sleeps on a Linux timerfd read through Go's poller: the kernel's
// high-resolution timer wakes the goroutine (tens of µs late, where Go's own timers are up
// to ~1 ms late), and no thread or CPU is held while it waits — a blocking nanosleep would
// hold the runtime's P from the connections' responses, and spinning would burn a core.
type timerfdClock struct {
	f  *os.File
	fd int
}

// New returns a timerfd clock, or Go's timer where the kernel refuses a timerfd.
func New() Clock {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return goClock{}
	}
	return &timerfdClock{f: os.NewFile(uintptr(fd), "daprbench-pacer"), fd: fd}
}

func (c *timerfdClock) SleepUntil(due time.Time) {
	d := time.Until(due)
	if d <= 0 {
		return
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	var expirations [8]byte
	if unix.TimerfdSettime(c.fd, 0, &spec, nil) != nil {
		goClock{}.SleepUntil(due)
		return
	}
	if _, err := c.f.Read(expirations[:]); err != nil {
		goClock{}.SleepUntil(due)
	}
}

func (c *timerfdClock) Close() { _ = c.f.Close() }
