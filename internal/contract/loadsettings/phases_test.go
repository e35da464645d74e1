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

package loadsettings

import (
	"math"
	"slices"
	"testing"
	"time"
)

// Every path's measured time has the same centre, for any number of paths and repetitions,
// and every path gets each repetition's full duration exactly once.
func TestPhaseOrderBalancesTimeCentres(t *testing.T) {
	for paths := 1; paths <= 4; paths++ {
		for reps := 1; reps <= 9; reps++ {
			order := PhaseOrder(paths, reps, time.Minute)
			centre := make([]float64, paths)
			weight := map[[2]int]float64{}
			clock := 0.0
			for _, ph := range order {
				f := ph.Fraction()
				centre[ph.Path] += f * (clock + f/2)
				weight[[2]int{ph.Path, ph.Rep}] += f
				clock += f
			}
			for p := range paths {
				centre[p] /= float64(reps)
				if math.Abs(centre[p]-centre[0]) > 1e-9 {
					t.Errorf("%d paths, %d repetitions: path %d centred at %.3f, path 0 at %.3f (order %v)",
						paths, reps, p, centre[p], centre[0], order)
				}
				for rep := range reps {
					if w := weight[[2]int{p, rep}]; w != 1 {
						t.Errorf("%d paths, %d repetitions: path %d repetition %d measured for %.2f of a duration", paths, reps, p, rep, w)
					}
				}
			}
		}
	}
}

// The even order is the plain alternation; an odd count splits only its first repetition.
func TestPhaseOrderShapes(t *testing.T) {
	want := []Phase{{0, 0, 1}, {1, 0, 1}, {1, 0, 2}, {0, 0, 2}, {0, 1, 0}, {1, 1, 0}, {1, 2, 0}, {0, 2, 0}}
	got := PhaseOrder(2, 3, 30*time.Second)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if got := PhaseOrder(2, 2, time.Minute); got[0] != (Phase{0, 0, 0}) || got[2] != (Phase{1, 1, 0}) || len(got) != 4 {
		t.Errorf("even order %v, want A B | B A", got)
	}
	// One short repetition is not halved: its halves would hold no metrics window.
	if got := PhaseOrder(2, 1, 45*time.Second); len(got) != 2 || got[0] != (Phase{0, 0, 0}) || got[1] != (Phase{1, 0, 0}) {
		t.Errorf("one 45 s repetition: %v, want A B", got)
	}
	if got := PhaseOrder(2, 1, time.Minute); len(got) != 4 || got[0].Half != 1 {
		t.Errorf("one 60 s repetition: %v, want it halved", got)
	}
}

// Splits says what PhaseOrder does: a fault run needs whole phases, and asks it.
func TestSplitsIsWhetherPhaseOrderHalvesARepetition(t *testing.T) {
	for _, c := range []struct {
		paths, reps int
		duration    time.Duration
	}{{2, 3, 30 * time.Second}, {2, 2, time.Minute}, {2, 1, 59 * time.Second}, {2, 1, time.Minute}, {3, 1, 2 * time.Minute}, {1, 3, time.Minute}, {1, 1, time.Hour}} {
		halved := slices.ContainsFunc(PhaseOrder(c.paths, c.reps, c.duration), func(p Phase) bool { return p.Half != 0 })
		if got := Splits(c.paths, c.reps, c.duration); got != halved {
			t.Errorf("%d paths, %d repetitions of %v: Splits %v, PhaseOrder halves one: %v", c.paths, c.reps, c.duration, got, halved)
		}
	}
}
