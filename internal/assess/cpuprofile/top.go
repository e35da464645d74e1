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

package cpuprofile

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/google/pprof/profile"
)

// Function is one function's share of a profile's CPU time.
type Function struct {
	Name string
	// Flat is the CPU time of samples whose innermost frame is this function; Cum of
	// samples with this function anywhere on the stack (counted once however deep it
	// recurses).
	Flat, Cum time.Duration
	// FlatPercent and CumPercent are Flat and Cum in percent of the profile's total.
	FlatPercent, CumPercent float64
}

// Top is a profile's functions ranked by flat and by cumulative CPU, n of each.
type Top struct {
	// Total is the CPU time of every sample: the profile's 100%.
	Total time.Duration
	// Window is the length of the profile (its duration).
	Window    time.Duration
	Flat, Cum []Function
}

// TopFunctions ranks p's functions (p from Parse) by flat and by cumulative CPU time.
func TopFunctions(p *profile.Profile, n int) Top {
	cpu := cpuIndex(p)
	flat, cum := map[string]int64{}, map[string]int64{}
	var total int64
	for _, s := range p.Sample {
		v := s.Value[cpu]
		total += v
		stack := frames(s)
		if len(stack) == 0 {
			continue
		}
		flat[stack[len(stack)-1]] += v // frames are root first: the last is the innermost
		seen := map[string]bool{}
		for _, f := range stack {
			if !seen[f] {
				seen[f] = true
				cum[f] += v
			}
		}
	}
	var fns []Function
	for name, c := range cum {
		fns = append(fns, Function{Name: name, Flat: time.Duration(flat[name]), Cum: time.Duration(c),
			FlatPercent: percent(flat[name], total), CumPercent: percent(c, total)})
	}
	top := Top{Total: time.Duration(total), Window: time.Duration(p.DurationNanos)}
	top.Flat = ranked(fns, func(f Function) time.Duration { return f.Flat }, n)
	top.Cum = ranked(fns, func(f Function) time.Duration { return f.Cum }, n)
	return top
}

// ranked is the n functions of highest by, ties by name so the order is stable; a
// function of none (a caller only, by flat) is left out.
func ranked(fns []Function, by func(Function) time.Duration, n int) []Function {
	out := slices.Clone(fns)
	slices.SortFunc(out, func(a, b Function) int {
		return cmp.Or(cmp.Compare(by(b), by(a)), cmp.Compare(a.Name, b.Name))
	})
	out = slices.DeleteFunc(out, func(f Function) bool { return by(f) == 0 })
	return out[:min(n, len(out))]
}

// frames is a sample's stack as function names, the root first. A location's Line holds
// its inlined frames innermost first; Sample.Location holds the leaf first.
func frames(s *profile.Sample) []string {
	var out []string
	for i := len(s.Location) - 1; i >= 0; i-- {
		loc := s.Location[i]
		if len(loc.Line) == 0 {
			out = append(out, fmt.Sprintf("0x%x", loc.Address))
			continue
		}
		for j := len(loc.Line) - 1; j >= 0; j-- {
			out = append(out, functionName(loc.Line[j], loc.Address))
		}
	}
	return out
}

func functionName(l profile.Line, addr uint64) string {
	if l.Function == nil || l.Function.Name == "" {
		return fmt.Sprintf("0x%x", addr)
	}
	return l.Function.Name
}

func percent(v, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(v) * 100 / float64(total)
}
