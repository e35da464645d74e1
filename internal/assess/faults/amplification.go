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

package faults

import "github.com/daprbench/daprbench/internal/kit/stats"

// Amplification is how many requests the app saw per request the load tester sent, over
// the same span: 1 without retries, 1.3 when Dapr's Resiliency retried three requests in
// ten once. seen is every app pod's count that served in the span, a killed pod's up to its
// last reading before its end (the load tester reads it every 100 ms while it is killed); below 1, requests never reached the app (refused, or lost with a pod). false with
// nothing sent.
func Amplification(seen, sent int64) (float64, bool) {
	if sent <= 0 {
		return 0, false
	}
	return float64(seen) / float64(sent), true
}

// Spread is a figure over repetitions: their mean and its 95% Student-t interval (this
// run's repetitions, not a rerun's). ok is false with fewer than two.
type Spread struct {
	Mean, Low, High float64
	Repetitions     int
}

// SpreadOf is xs' mean with its interval; ok false with fewer than two.
func SpreadOf(xs []float64) (Spread, bool) {
	mean, low, high, ok := stats.MeanInterval(xs, 0.95)
	return Spread{Mean: mean, Low: low, High: high, Repetitions: len(xs)}, ok
}
