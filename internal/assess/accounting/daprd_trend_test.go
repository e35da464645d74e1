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

package accounting

import (
	"fmt"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// A target daprd leaking 120 goroutines and 30 open files an hour over a 20-minute load
// reads as those slopes, from the readings inside the measured load only; a client daprd
// read too seldom gets none, and a load under MinTrendSpan none at all.
func TestADaprdTrendIsItsGaugesSlopeOverTheMeasuredLoad(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	phases := []Phase{{Variant: "dapr", Start: start, End: start.Add(20 * time.Minute)}}
	var readings []result.DaprdGauges
	for s := -90; s <= 1200; s += 30 {
		at := start.Add(time.Duration(s) * time.Second)
		h := at.Sub(start).Hours()
		server := &result.Gauges{At: at, Goroutines: 200 + int64(120*h), OpenFDs: 50 + int64(30*h), Started: 1}
		if s < 0 {
			server = &result.Gauges{At: at, Goroutines: 5000, OpenFDs: 900, Started: 1} // the warm-up: outside the load
		}
		r := result.DaprdGauges{Server: server}
		if s%300 == 0 {
			r.Client = &result.Gauges{At: at, Goroutines: 90, OpenFDs: 20, Started: 1}
		}
		readings = append(readings, r)
	}
	got := DaprdTrends(readings, phases, "dapr", 2*time.Second)
	if len(got) != 2 {
		t.Fatalf("%d trends, want the server daprd's two: %+v", len(got), got)
	}
	goroutines, files := got[0], got[1]
	if goroutines.Sidecar != "serverSidecar" || goroutines.Gauge != "goroutines" || files.Gauge != "openFDs" {
		t.Fatalf("trends %+v", got)
	}
	// Whole goroutines: the slope is within a reading's rounding of 120 an hour.
	if slope := parse(t, goroutines.PerHour); slope < 118 || slope > 122 || parse(t, goroutines.Low) > 120 || parse(t, goroutines.High) < 118 {
		t.Errorf("goroutines %+v: want 120 an hour, its interval around it", goroutines)
	}
	if slope := parse(t, files.PerHour); slope < 29 || slope > 31 {
		t.Errorf("open files %+v: want 30 an hour", files)
	}
	// 30 s to 1170 s in: the readings the trimmed load holds.
	if goroutines.Readings != 39 || goroutines.Span.Duration != 1140*time.Second || goroutines.Start != "201.00" {
		t.Errorf("the line runs through %d readings over %v from %s, want 39 over 19m0s from 201.00", goroutines.Readings, goroutines.Span.Duration, goroutines.Start)
	}
	if short := DaprdTrends(readings, []Phase{{Variant: "dapr", Start: start, End: start.Add(9 * time.Minute)}}, "dapr", 0); short != nil {
		t.Errorf("a 9-minute load got trends %+v", short)
	}
}

// Only the measured path's phases count, each trimmed (a baseline phase idles both
// daprds), and a daprd restarted mid-run counts from its last start: its first process's
// readings are another process's.
func TestADaprdTrendSkipsBaselinePhasesAndEarlierProcesses(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	var phases []Phase
	for i, v := range []string{"dapr", "baseline", "dapr", "baseline", "dapr"} {
		phases = append(phases, Phase{Variant: v, Start: start.Add(time.Duration(i) * 5 * time.Minute), End: start.Add(time.Duration(i+1) * 5 * time.Minute)})
	}
	var readings []result.DaprdGauges
	for s := 0; s <= 1500; s += 15 {
		at := start.Add(time.Duration(s) * time.Second)
		phase := phases[min(s/300, len(phases)-1)]
		g := &result.Gauges{At: at, Goroutines: 300, OpenFDs: 60, Started: 1}
		if phase.Variant == "baseline" {
			g.Goroutines, g.OpenFDs = 20, 10 // idle: were these counted, the line would dip and rise
		}
		c := *g
		if s >= 700 { // the client daprd restarted 11m40s in, in the second dapr phase
			c.Started, c.Goroutines = 2, 300+int64(s-700)
		}
		readings = append(readings, result.DaprdGauges{Server: g, Client: &c})
	}
	got := DaprdTrends(readings, phases, "dapr", 2*time.Second)
	if len(got) != 4 {
		t.Fatalf("%d trends, want both daprds' two: %+v", len(got), got)
	}
	for _, tr := range got[2:] {
		if tr.Sidecar != "serverSidecar" || tr.PerHour != "0.00" || tr.Readings != 57 {
			t.Errorf("server %s: %s an hour over %d readings, want flat over the dapr phases' 57", tr.Gauge, tr.PerHour, tr.Readings)
		}
	}
	// The restarted client: only its readings from 11m40s on count, 13 of the second dapr
	// phase and the third's 19.
	if client := got[0]; client.Gauge != "goroutines" || client.Readings != 32 || parse(t, client.PerHour) < 3599 || parse(t, client.PerHour) > 3601 {
		t.Errorf("client goroutines %+v: want its last process's 32 readings, 1 a second = 3600 an hour", client)
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
