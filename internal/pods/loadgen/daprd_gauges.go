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

package loadgen

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// The gauges of daprd's Prometheus collectors a soak reads: a leak of goroutines or of file
// descriptors (connections not closed) grows them without bound; the process's start tells
// a restarted daprd's readings apart.
const (
	goroutinesGauge = "go_goroutines"
	openFDsGauge    = "process_open_fds"
	startedGauge    = "process_start_time_seconds"
)

// gaugeSampler reads both daprds' goroutines and open files every `every` through a long
// measured load, for the operator to fit their trend. It has its own client: a slow page
// must not hold the CPU readings at a phase's edges. Each reading costs each daprd a
// rendering of its metrics page (a few ms of CPU, hypothesis, not measured: under 0.1% of a
// 0.5-vCPU sidecar at one every 30 s), inside the measured phases.
type gaugeSampler struct {
	urls   DaprdMetrics
	every  time.Duration
	client *http.Client
	log    io.Writer
}

// newGaugeSampler returns nil unless the measured load (every path's repetitions, back to
// back) spans result.MinTrendSpan or more and this pod leads (or is alone): one pod reads
// the target's daprd and its own, as for the CPU.
func newGaugeSampler(cfg Config) *gaugeSampler {
	every := result.GaugeInterval(measuredSpan(cfg))
	if every == 0 || (cfg.Group != nil && cfg.Group.Index != 0) {
		return nil
	}
	if cfg.DaprdMetrics.ClientURL == "" && cfg.DaprdMetrics.ServerURL == "" {
		return nil
	}
	return &gaugeSampler{urls: cfg.DaprdMetrics, every: every, client: &http.Client{Timeout: readTimeout}, log: cfg.Log}
}

// start reads the gauges at once and then every g.every until the returned stop is called,
// which waits for the reading under way and returns every reading kept (nil for a nil
// sampler). A load that runs past its plan (meetings, drains, a fault's wait) would read
// more than result.MaxGaugeReadings times: at that many, every other reading is dropped and
// the interval doubled, so those kept stay evenly spread.
func (g *gaugeSampler) start(ctx context.Context) (stop func() []result.DaprdGauges) {
	if g == nil {
		return func() []result.DaprdGauges { return nil }
	}
	ctx, cancel := context.WithCancel(ctx)
	var (
		wg       sync.WaitGroup
		readings []result.DaprdGauges
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		warned := map[string]bool{}
		every := g.every
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			r := result.DaprdGauges{Client: g.read(ctx, g.urls.ClientURL, warned), Server: g.read(ctx, g.urls.ServerURL, warned)}
			if r.Client != nil || r.Server != nil {
				readings = append(readings, r)
			}
			if len(readings) >= result.MaxGaugeReadings {
				readings = everyOther(readings)
				every *= 2
				t.Reset(every)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() []result.DaprdGauges {
		cancel()
		wg.Wait()
		return readings
	}
}

// everyOther keeps the first reading and every second one after it.
func everyOther(readings []result.DaprdGauges) []result.DaprdGauges {
	kept := readings[:0]
	for i := 0; i < len(readings); i += 2 {
		kept = append(kept, readings[i])
	}
	return kept
}

// read is one daprd's gauges; nil when not read. A daprd that cannot be read this time (a
// restart under way) is tried again next time: its first failure is logged.
func (g *gaugeSampler) read(ctx context.Context, url string, warned map[string]bool) *result.Gauges {
	if url == "" {
		return nil
	}
	v, err := readSamples(ctx, g.client, url, goroutinesGauge, openFDsGauge, startedGauge)
	if err == nil && (v[0] < 0 || v[1] < 0 || v[2] < 0) {
		err = fmt.Errorf("a gauge below zero: %s %v, %s %v, %s %v", goroutinesGauge, v[0], openFDsGauge, v[1], startedGauge, v[2])
	}
	if err != nil {
		if ctx.Err() == nil && !warned[url] {
			warned[url] = true
			logf(g.log, "daprd gauges: not read from %s (%v); tried again every %v", url, err, g.every)
		}
		return nil
	}
	return &result.Gauges{At: time.Now(), Goroutines: int64(v[0]), OpenFDs: int64(v[1]), Started: int64(v[2])}
}
