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

import "math"

// Slope is a least-squares line's slope with its 95% interval.
type Slope struct {
	Slope, Low, High float64
	// Intercept is the line's y at x = 0.
	Intercept float64
	// Lag1 is the residuals' lag-1 autocorrelation, held within [0, 0.95], and EffectiveN
	// the count of independent points the series is worth under it.
	Lag1, EffectiveN float64
}

// SlopeInterval fits y = a + b·x by least squares over points in x order and gives b with
// its 95% t interval, widened for the residuals' serial correlation. Readings of a slowly
// moving quantity (a working set read every 15 s) are not independent: when the residuals
// follow an AR(1) of coefficient r, the plain interval is too narrow by about
// √((1+r)/(1−r)). So the standard error is scaled by that factor, and the degrees of freedom
// are those of the effective count n(1−r)/(1+r), less 2 (at least 1). ok is false with fewer
// than 3 points or with every x equal.
func SlopeInterval(x, y []float64) (s Slope, ok bool) {
	n := len(x)
	if n < 3 || len(y) != n {
		return s, false
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/float64(n), my/float64(n)
	var sxx, sxy float64
	for i := range x {
		sxx += (x[i] - mx) * (x[i] - mx)
		sxy += (x[i] - mx) * (y[i] - my)
	}
	if sxx == 0 {
		return s, false
	}
	b := sxy / sxx
	a := my - b*mx
	var sse, lagged float64
	prev := 0.0
	for i := range x {
		e := y[i] - a - b*x[i]
		sse += e * e
		if i > 0 {
			lagged += e * prev
		}
		prev = e
	}
	r := 0.0
	if sse > 0 {
		r = min(max(lagged/sse, 0), 0.95)
	}
	se := math.Sqrt(sse / float64(n-2) / sxx)
	neff := float64(n) * (1 - r) / (1 + r)
	df := max(1, int(math.Floor(neff-2)))
	half := StudentT(0.975, df) * se * math.Sqrt((1+r)/(1-r))
	return Slope{Slope: b, Low: b - half, High: b + half, Intercept: a, Lag1: r, EffectiveN: neff}, true
}
