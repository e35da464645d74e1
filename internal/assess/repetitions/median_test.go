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

package repetitions

import (
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	if got := Median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("odd: %v", got)
	}
	if got := Median([]time.Duration{4, 1, 3, 2}); got != 2 { // (2+3)/2 in integer nanoseconds
		t.Errorf("even durations: %v", got)
	}
	in := []float64{5, 1}
	if got := Median(in); got != 3 || in[0] != 5 {
		t.Errorf("median %v, input %v (must not be sorted in place)", got, in)
	}
	if got := Median[float64](nil); got != 0 {
		t.Errorf("empty: %v", got)
	}
}
