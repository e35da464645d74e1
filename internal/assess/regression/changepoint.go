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

package regression

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Change-point settings: E-divisive means (Matteson and James, 2014) as Apache Otava
// (formerly Hunter) and Orion run it over a benchmark's history. A split is kept when
// fewer than alpha of permutations of its segment split as well (a permutation test needs
// no model of the noise); every segment has at least minSegment runs.
const (
	permutations = 199
	alpha        = 0.01
	minSegment   = 2
)

// ChangePoints returns the indices at which xs changes level — each the first index of a
// new segment — in ascending order, found by E-divisive means: the split that maximises the
// energy distance between the two sides, kept when a permutation test finds it
// significant, then the same within each side, until no segment splits. seed makes one
// history give one answer.
func ChangePoints(xs []float64, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, uint64(len(xs))))
	var out []int
	segments := [][2]int{{0, len(xs)}}
	for len(segments) > 0 {
		// The most significant split of any segment first, as E-divisive proceeds.
		best, bestAt, bestQ := -1, 0, 0.0
		for i, s := range segments {
			at, q := bestSplit(xs[s[0]:s[1]])
			if at > 0 && q > bestQ {
				best, bestAt, bestQ = i, at, q
			}
		}
		if best < 0 {
			break
		}
		s := segments[best]
		segments = slices.Delete(segments, best, best+1)
		if !significant(xs[s[0]:s[1]], bestQ, rng) {
			continue // this segment does not split; the others may
		}
		out = append(out, s[0]+bestAt)
		segments = append(segments, [2]int{s[0], s[0] + bestAt}, [2]int{s[0] + bestAt, s[1]})
	}
	slices.Sort(out)
	return out
}

// bestSplit returns the split point (0: none possible) of xs that maximises the scaled
// energy statistic, and the statistic.
func bestSplit(xs []float64) (at int, q float64) {
	return bestSplitOf(len(xs), func(i, j int) float64 { return math.Abs(xs[i] - xs[j]) })
}

// bestSplitOf scans every split of a sequence of n values whose pairwise distances d gives,
// moving one value at a time from the right side to the left: O(n²) in all.
//
// The statistic is |a||b|/(|a|+|b|) · (2·E|a−b| − E|a−a'| − E|b−b'|), the within-side
// means over pairs (Matteson and James's U-statistics).
func bestSplitOf(n int, d func(i, j int) float64) (at int, q float64) {
	var between, left, right float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			right += d(i, j)
		}
	}
	for t := 1; t < n; t++ { // move value t−1 to the left side
		m := t - 1
		var toLeft, toRight float64
		for i := range m {
			toLeft += d(i, m)
		}
		for j := t; j < n; j++ {
			toRight += d(m, j)
		}
		between += toRight - toLeft
		left += toLeft
		right -= toRight
		na, nb := float64(t), float64(n-t)
		if t < minSegment || n-t < minSegment {
			continue
		}
		e := 2*between/(na*nb) - pairMean(left, na) - pairMean(right, nb)
		if v := na * nb / (na + nb) * e; at == 0 || v > q {
			at, q = t, v
		}
	}
	return at, q
}

// pairMean is a sum over the n·(n−1)/2 pairs of n values as their mean.
func pairMean(sum, n float64) float64 {
	if n < 2 {
		return 0
	}
	return sum / (n * (n - 1) / 2)
}

// significant reports whether a split statistic q of xs is rarely matched when xs is
// shuffled: the permutation test's p-value below alpha.
func significant(xs []float64, q float64, rng *rand.Rand) bool {
	perm := slices.Clone(xs)
	atLeast := 0
	for range permutations {
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if _, pq := bestSplit(perm); pq >= q {
			atLeast++
		}
	}
	return float64(atLeast+1)/float64(permutations+1) < alpha
}
