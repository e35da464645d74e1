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

package result

import (
	"fmt"
	"math"
	"time"
)

// LatencyWindows is one measured run's latency in windows of Width seconds, in the report
// of a soak (a measured load of MinTrendSpan or more): what assess/accounting fits latency's
// drift and its change points over. Each window holds percentiles, not a histogram: a
// window's histogram at a high rate fills thousands of buckets, and a soak's hundreds of
// them would not fit the report; the run's whole histograms travel apart, as every run's.
type LatencyWindows struct {
	Variant Variant `json:"v"`
	Rep     int     `json:"i"`
	// StartUnixNano is the schedule's start on the load tester's clock: window k holds the
	// requests whose slots fell in [start + k·Width s, start + (k+1)·Width s).
	StartUnixNano int64 `json:"t"`
	// Width is each window's length in seconds.
	Width int `json:"w"`
	// Windows, in order.
	Windows []LatencyWindow `json:"s"`
}

// LatencyWindow is one window's successes timed from their slots, as Latency is (slots
// never sent by the end counted among them, at the least they waited): how many, their
// percentiles and maximum in microseconds (all 0 without one), and how many requests failed.
type LatencyWindow struct {
	Successes int64 `json:"n,omitempty"`
	Failed    int64 `json:"f,omitempty"`
	P50Us     int64 `json:"p50,omitempty"`
	P90Us     int64 `json:"p90,omitempty"`
	P99Us     int64 `json:"p99,omitempty"`
	MaxUs     int64 `json:"max,omitempty"`
}

// Start is when the first window began.
func (w LatencyWindows) Start() time.Time { return time.Unix(0, w.StartUnixNano) }

// WindowSpan is window k's [start, end).
func (w LatencyWindows) WindowSpan(k int) (time.Time, time.Time) {
	width := time.Duration(w.Width) * time.Second
	from := w.Start().Add(time.Duration(k) * width)
	return from, from.Add(width)
}

// LatencyWindowWidth is the width of a soak's latency windows over a measured load of
// span, in whole seconds: GaugeInterval's, so a soak keeps about MaxGaugeReadings windows
// however long it runs; 0 for a load shorter than MinTrendSpan, which reports none.
func LatencyWindowWidth(span time.Duration) int {
	return int(math.Ceil(GaugeInterval(span).Seconds()))
}

// checkLatencyWindows refuses windows whose counts or percentiles cannot be the load
// tester's.
func checkLatencyWindows(ws []LatencyWindows) error {
	for _, w := range ws {
		if w.Width < 1 {
			return fmt.Errorf("latency windows of %s repetition %d are %d seconds wide", w.Variant, w.Rep, w.Width)
		}
		for k, x := range w.Windows {
			ordered := 0 <= x.P50Us && x.P50Us <= x.P90Us && x.P90Us <= x.P99Us && x.P99Us <= x.MaxUs
			if x.Successes < 0 || x.Failed < 0 || !ordered || (x.Successes == 0 && x.MaxUs != 0) {
				return fmt.Errorf("latency windows of %s repetition %d: window %d is not a window's figures: %+v", w.Variant, w.Rep, k, x)
			}
		}
	}
	return nil
}
