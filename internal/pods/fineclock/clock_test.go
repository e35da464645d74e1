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
	"runtime"
	"sync"
	"testing"
	"time"
)

// A sleep never ends early, from many goroutines sharing the pool at once.
func TestSleepNeverEndsEarly(t *testing.T) {
	var wg sync.WaitGroup
	early := make(chan time.Duration, 64)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, d := range []time.Duration{50 * time.Microsecond, 300 * time.Microsecond, 2 * time.Millisecond} {
				start := time.Now()
				Sleep(d)
				if took := time.Since(start); took < d {
					early <- d - took
				}
			}
		}()
	}
	wg.Wait()
	close(early)
	for e := range early {
		t.Errorf("a sleep ended %v early", e)
	}
}

func TestLinuxHasAFineClock(t *testing.T) {
	if runtime.GOOS == "linux" && !Fine() {
		t.Error("no timerfd on Linux: the pacer would fall back to Go's timers")
	}
}
