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

package stats

import (
	"math"
	"testing"
)

func TestStudentTQuantiles(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{{1, 12.706}, {2, 4.303}, {4, 2.776}, {9, 2.262}, {30, 2.042}, {1000, 1.962}} {
		if got := StudentT(0.975, c.df); math.Abs(got-c.want) > 0.002 {
			t.Errorf("t(0.975, %d) = %.4f, want %.3f", c.df, got, c.want)
		}
	}
}

func TestMeanIntervalCoversTheMeanOfRepetitions(t *testing.T) {
	mean, low, high, ok := MeanInterval([]float64{10, 12, 14}, 0.95)
	// mean 12, sd 2, se 2/sqrt(3), t(0.975, 2) = 4.303: half-width 4.969.
	if !ok || mean != 12 || math.Abs(low-7.031) > 0.01 || math.Abs(high-16.969) > 0.01 {
		t.Errorf("MeanInterval = %v [%v, %v] %v, want 12 [7.031, 16.969]", mean, low, high, ok)
	}
	if _, _, _, ok := MeanInterval([]float64{10}, 0.95); ok {
		t.Error("an interval from one repetition")
	}
}

// Known answers of the Wilson interval (Newcombe 1998, table I: 81 of 263 gives
// 0.2553–0.3662; 0 of 10, 0–0.2775).
func TestWilsonKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		k, n      int64
		low, high float64
	}{{81, 263, 0.2553, 0.3662}, {0, 10, 0, 0.2775}, {15, 148, 0.0624, 0.1605}} {
		low, high := Wilson(c.k, c.n)
		if math.Abs(low-c.low) > 0.00006 || math.Abs(high-c.high) > 0.00006 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, low, high, c.low, c.high)
		}
	}
	if low, high := Wilson(0, 0); low != 0 || high != 1 {
		t.Errorf("no trials: [%v, %v], want [0, 1]", low, high)
	}
}
