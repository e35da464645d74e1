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
	"slices"
	"testing"
)

func TestWindowsSumTheBlocksWidthAtATime(t *testing.T) {
	block := func(v ...int64) Counts {
		m := map[int64]int64{}
		for _, x := range v {
			m[x]++
		}
		return countsOf(m)
	}
	r := &Recorded{
		Blocks:       []Counts{block(1, 2), block(2), block(3), block(4, 4), block(5)},
		FailedBlocks: []int64{0, 1, 0, 0, 2, 0, 7}, // failures past the last success count too
	}
	lat, failed := Windows(r.Blocks, r.FailedBlocks, 2)
	want := []Counts{block(1, 2, 2), block(3, 4, 4), block(5)}
	if len(lat) != len(want) {
		t.Fatalf("%d windows, want %d: %+v", len(lat), len(want), lat)
	}
	for k := range want {
		if !slices.Equal(lat[k].Values, want[k].Values) || !slices.Equal(lat[k].Counts, want[k].Counts) {
			t.Errorf("window %d = %+v, want %+v", k, lat[k], want[k])
		}
	}
	if !slices.Equal(failed, []int64{1, 0, 2, 7}) {
		t.Errorf("failed per window = %v, want [1 0 2 7]", failed)
	}

	if lat, _ := Windows(r.Blocks, nil, 0); len(lat) != len(r.Blocks) {
		t.Errorf("width 0 gave %d windows, want one per block (%d)", len(lat), len(r.Blocks))
	}
	if lat, failed := Windows(nil, nil, 30); lat != nil || failed != nil {
		t.Errorf("an empty run has windows: %v %v", lat, failed)
	}
}

// A repetition measured in two halves is joined by Append; Parts cuts it back along the
// halves' own sizes, the failed counts where Append padded them.
func TestPartsCutAJoinedRecordingBackIntoItsHalves(t *testing.T) {
	block := func(v int64) Counts { return Counts{Values: []int64{v}, Counts: []int64{1}} }
	recording := func(blocks []Counts, failed []int64) *Recorded {
		r := NewRecorded()
		r.Blocks, r.FailedBlocks = blocks, failed
		return r
	}
	first := recording([]Counts{block(1), block(2)}, []int64{0, 0, 5}) // a failure past the last success
	second := recording([]Counts{block(3), block(4), block(5)}, []int64{1})
	sizes := [][2]int{{len(first.Blocks), len(first.FailedBlocks)}, {len(second.Blocks), len(second.FailedBlocks)}}
	joined := NewRecorded()
	joined.Append(first)
	joined.Append(second)
	blocks, failed := joined.Parts(sizes)
	if len(blocks) != 2 || len(blocks[0]) != 2 || len(blocks[1]) != 3 || blocks[1][0].Values[0] != 3 {
		t.Fatalf("blocks cut %+v: want the first half's 2, then the second's 3", blocks)
	}
	if !slices.Equal(failed[0], []int64{0, 0, 5}) || !slices.Equal(failed[1], []int64{1}) {
		t.Errorf("failed counts cut %v: want [0 0 5] and [1]", failed)
	}
	// A half whose failures ended before its blocks: Append padded them to its blocks.
	first = recording([]Counts{block(1), block(2), block(3)}, []int64{2})
	sizes = [][2]int{{3, 1}, {len(second.Blocks), len(second.FailedBlocks)}}
	joined = NewRecorded()
	joined.Append(first)
	joined.Append(second)
	if _, failed := joined.Parts(sizes); !slices.Equal(failed[0], []int64{2, 0, 0}) || !slices.Equal(failed[1], []int64{1}) {
		t.Errorf("failed counts cut %v: want [2 0 0] and [1]", failed)
	}
}
