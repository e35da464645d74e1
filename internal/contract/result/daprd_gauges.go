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

import "time"

// MinTrendSpan is the shortest measured load a trend (a sidecar's working set, daprd's
// goroutines and open files) is fitted over: over a few minutes a sidecar still settles
// (caches, pools, the runtime's heap goal), which a slope would read as a leak.
const MinTrendSpan = 10 * time.Minute

// The load tester reads daprd's gauges every GaugeEvery through a soak, and less often in a
// longer one: it keeps at most MaxGaugeReadings readings, so a 24-hour soak's report stays
// small (a reading of both daprds takes ~150 bytes before gzip).
const (
	GaugeEvery       = 30 * time.Second
	MaxGaugeReadings = 240
)

// GaugeInterval is how often the gauges are read over a measured load of span; 0 for a
// load shorter than MinTrendSpan, which fits no trend and is not read (each reading costs
// daprd a rendering of its metrics page).
func GaugeInterval(span time.Duration) time.Duration {
	if span < MinTrendSpan {
		return 0
	}
	return max(GaugeEvery, span/MaxGaugeReadings)
}

// DaprdGauges is one reading of both daprds' own gauges on their metrics port, during a
// soak: a leak of goroutines or file descriptors reads as a slope of them.
type DaprdGauges struct {
	// Client is the load tester's own daprd (a group's leader's), Server the target's (the
	// first variant's); nil: not read this time.
	Client *Gauges `json:"c,omitempty"`
	Server *Gauges `json:"s,omitempty"`
}

// Gauges are one daprd's Go runtime and process gauges as the Prometheus client's
// collectors serve them (go_goroutines, process_open_fds), when its page was read, and the
// process's start (process_start_time_seconds, Unix seconds): a restarted daprd starts its
// counts over, and its readings are another process's.
type Gauges struct {
	At         time.Time `json:"t"`
	Goroutines int64     `json:"g"`
	OpenFDs    int64     `json:"f"`
	Started    int64     `json:"st"`
}
