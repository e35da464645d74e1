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

package calibrate

import (
	"testing"
	"time"
)

// The workload does the same work every run, on every machine: its output's checksum is
// fixed. A change to the workload changes it — and makes old scores incomparable, so the
// golden value changes only together with a note in the docs.
func TestTheWorkloadIsDeterministic(t *testing.T) {
	a, b := Checksum(64), Checksum(64)
	if a != b {
		t.Fatalf("two runs of 64 units: %#x then %#x", a, b)
	}
	if WorkloadVersion != "72fd566eafe054a5" {
		t.Errorf("workload version %q", WorkloadVersion)
	}
	if a != workloadChecksum {
		t.Errorf("checksum of 64 units %#x, want %#x: the workload changed", a, workloadChecksum)
	}
	if Checksum(63) == a {
		t.Error("63 and 64 units give one checksum: the units' output is not in it")
	}
}

// A score is units per second, and parallel goroutines do more of them than one.
func TestMeasureScoresUnitsPerSecond(t *testing.T) {
	s := Measure(500*time.Millisecond, 2)
	if s.Single <= 0 || s.Parallel <= 0 || s.Parallelism != 2 || s.Seconds != 0.5 || s.SlowShare < 0 || s.SlowShare > 1 {
		t.Fatalf("score %+v", s)
	}
	if s.PerCPUSecond < s.Single*0.5 {
		t.Errorf("%.0f units per CPU-second against %.0f per second on one goroutine: its CPU time is not its own", s.PerCPUSecond, s.Single)
	}
	if s.Single > 1e7 {
		t.Errorf("%.0f units/s on one goroutine: a unit (1 KiB sealed and opened, a protobuf and two HTTP/2 frames) cannot take 100 ns", s.Single)
	}
}

// The score is the upper decile of the windows: a slow stretch covering up to four in five
// of them does not move it, and the share of slow windows says how much of the run it took.
func TestTheScoreIsTheUpperDecileOfWindows(t *testing.T) {
	windows := []float64{55, 54, 56, 30, 29, 31, 55, 57, 30, 54}
	if got := upperDecile(windows); got != 56 {
		t.Errorf("upper decile %v, want 56 (the 9th of 10 in order)", got)
	}
	if got := countBelow(windows, slowWindow*56); got != 4 {
		t.Errorf("%d windows below 80%% of 56, want 4", got)
	}
	if got := upperDecile([]float64{3, 1, 2, 5, 4}); got != 5 {
		t.Errorf("upper decile of five %v, want the highest", got)
	}
}
