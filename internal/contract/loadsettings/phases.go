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

import "time"

// Phase is one measured phase of a load: a path (its index in the order the load tester is
// given its targets) in a repetition, whole or one half of it.
type Phase struct {
	Path, Rep int
	// Half is 0 for a phase of the whole duration, 1 or 2 for the first or second half of a
	// repetition measured in two halves.
	Half int
}

// Fraction is the share of the run's duration the phase lasts.
func (p Phase) Fraction() float64 {
	if p.Half == 0 {
		return 1
	}
	return 0.5
}

// MinSplitDuration is the shortest phase a single repetition is measured in two halves of.
const MinSplitDuration = time.Minute

// PhaseOrder is the order in which the load tester measures paths over reps repetitions,
// counterbalanced so that every path's phases have the same time centre: a drift over the
// run (a warming cache, a neighbour's load) then shifts every path alike and cancels in
// their difference.
//
// Repetitions run the paths forward and reversed in turn (A B | B A | A B | B A …), which
// balances any even count. An odd count cannot be balanced with whole phases (the phases'
// positions add up to an odd number), so its first repetition runs forward and then
// reversed at half the duration each (A½ B½ B½ A½), balanced on its own, and the even
// number of repetitions after it alternate as above. A single path is never split, nor a
// single repetition shorter than MinSplitDuration: its halves would hold no window of
// metrics-server's (15 s, away from the phase's edges) and the run would report no usage;
// it runs A B, unbalanced — an even count balances it. Both operator and load tester read
// the order from here.
func PhaseOrder(paths, reps int, duration time.Duration) []Phase {
	var out []Phase
	run := func(rep, half int, reversed bool) {
		for i := range paths {
			p := i
			if reversed {
				p = paths - 1 - i
			}
			out = append(out, Phase{Path: p, Rep: rep, Half: half})
		}
	}
	first := 0
	if Splits(paths, reps, duration) {
		run(0, 1, false)
		run(0, 2, true)
		first = 1
	}
	for rep := first; rep < reps; rep++ {
		run(rep, 0, (rep-first)%2 == 1)
	}
	return out
}

// Splits reports whether PhaseOrder measures the first repetition in two halves: an odd
// count of several repetitions, or one of MinSplitDuration or longer, over more than one
// path (one path has nothing to balance).
func Splits(paths, reps int, duration time.Duration) bool {
	return reps%2 == 1 && paths > 1 && (reps > 1 || duration >= MinSplitDuration)
}
