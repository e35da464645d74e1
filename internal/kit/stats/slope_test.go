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
	"math/rand/v2"
	"testing"
)

// A straight line's slope is exact, its interval of no width; too few points, or one x,
// give none.
func TestASlopeOfAStraightLineIsExact(t *testing.T) {
	s, ok := SlopeInterval([]float64{0, 1, 2, 3}, []float64{5, 7, 9, 11})
	if !ok || s.Slope != 2 || s.Low != 2 || s.High != 2 || s.Intercept != 5 {
		t.Errorf("%+v, %v: want slope 2 with no width, intercept 5", s, ok)
	}
	if _, ok := SlopeInterval([]float64{0, 1}, []float64{0, 1}); ok {
		t.Error("a slope from two points")
	}
	if _, ok := SlopeInterval([]float64{3, 3, 3}, []float64{0, 1, 2}); ok {
		t.Error("a slope with every x equal")
	}
}

// The interval is judged by how often it holds: over series like a working set read every
// 15 s for 30 minutes, a true slope plus AR(1) noise (coefficient 0.7, the serial
// correlation a slowly moving reading has), it must hold near 95% of the time. Without the
// widening for that correlation, the plain interval holds far less often: the reason the
// widening exists.
func TestTheSlopesIntervalHoldsAsOftenAsItSaysUnderSerialCorrelation(t *testing.T) {
	const series, n, phi, trueSlope = 2000, 120, 0.7, 0.01
	rng := rand.New(rand.NewPCG(63, 2026))
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i) * 15
	}
	held, plainHeld := 0, 0
	for range series {
		y := make([]float64, n)
		e := rng.NormFloat64() / math.Sqrt(1-phi*phi) // the stationary start
		for i := range y {
			y[i] = 100 + trueSlope*x[i] + e
			e = phi*e + rng.NormFloat64()
		}
		s, ok := SlopeInterval(x, y)
		if !ok {
			t.Fatal("no slope")
		}
		if s.Low <= trueSlope && trueSlope <= s.High {
			held++
		}
		// The plain interval: the same fit without the widening.
		half := (s.High - s.Low) / 2 / math.Sqrt((1+s.Lag1)/(1-s.Lag1)) * StudentT(0.975, n-2) / StudentT(0.975, max(1, int(math.Floor(s.EffectiveN-2))))
		if math.Abs(s.Slope-trueSlope) <= half {
			plainHeld++
		}
	}
	coverage, plain := float64(held)/series, float64(plainHeld)/series
	t.Logf("coverage %.3f widened, %.3f plain", coverage, plain)
	if coverage < 0.90 || coverage > 0.985 {
		t.Errorf("the widened interval held in %.1f%% of series, want about 95%%", 100*coverage)
	}
	if plain > 0.85 {
		t.Errorf("the plain interval held in %.1f%% of series: the widening would not be needed", 100*plain)
	}
}
