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
	lat, failed := r.Windows(2)
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

	if lat, _ := r.Windows(0); len(lat) != len(r.Blocks) {
		t.Errorf("width 0 gave %d windows, want one per block (%d)", len(lat), len(r.Blocks))
	}
	if lat, failed := (&Recorded{}).Windows(30); lat != nil || failed != nil {
		t.Errorf("an empty run has windows: %v %v", lat, failed)
	}
}
