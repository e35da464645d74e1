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
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// DaprdMetrics are the metrics endpoints (daprd's --metrics-port, /metrics) whose CPU
// counter the load tester reads at every measured run's edges; an empty URL is not read.
type DaprdMetrics struct {
	ClientURL, ServerURL string
}

// processCPU is the Prometheus process collector's counter of the process's user and
// system CPU, in seconds, which daprd serves with its own metrics.
const processCPU = "process_cpu_seconds_total"

// The bounds of one reading: a daprd that does not answer within readTimeout, or whose
// metrics run past maxMetricsBytes, is not read for that run (and the run has no reading).
const (
	readTimeout     = 2 * time.Second
	maxMetricsBytes = 8 << 20
)

// daprdMeter reads the daprds' CPU counters. Each reading costs daprd one rendering of its
// metrics (a few ms of CPU, hypothesis from the page's size, not measured), of which at most
// one falls inside a run's edges. A fault's readings (at its start and end) come from its
// own goroutine: mu holds one reading at a time.
type daprdMeter struct {
	urls   DaprdMetrics
	client *http.Client
	log    io.Writer
	mu     sync.Mutex
	failed map[string]bool // endpoints that could not be read: not tried again
}

// newDaprdMeter returns nil when there is nothing to read. In a group only the leader reads
// the target's daprd: every pod reading it would count its CPU once per pod.
func newDaprdMeter(cfg Config) *daprdMeter {
	urls := cfg.DaprdMetrics
	if g := cfg.Group; g != nil && g.Index != 0 {
		urls.ServerURL = ""
	}
	if urls.ClientURL == "" && urls.ServerURL == "" {
		return nil
	}
	return &daprdMeter{urls: urls, client: &http.Client{Timeout: readTimeout}, log: cfg.Log, failed: map[string]bool{}}
}

// daprdReading is the counters at one instant, in seconds; nil: not read.
type daprdReading struct {
	client, server *float64
	at             time.Time
}

func (m *daprdMeter) read(ctx context.Context) daprdReading {
	if m == nil {
		return daprdReading{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r := daprdReading{client: m.counter(ctx, m.urls.ClientURL), server: m.counter(ctx, m.urls.ServerURL)}
	r.at = time.Now()
	return r
}

// since is what the counters advanced by from before to now: the CPU of the run between.
func (m *daprdMeter) since(ctx context.Context, before daprdReading) *result.DaprdCPU {
	if m == nil {
		return nil
	}
	return between(before, m.read(ctx))
}

// between is what the counters advanced by from before to after; nil when neither was read
// at both.
func between(before, after daprdReading) *result.DaprdCPU {
	out := &result.DaprdCPU{WallMs: after.at.Sub(before.at).Milliseconds(), ClientMs: deltaMs(before.client, after.client),
		ServerMs: deltaMs(before.server, after.server)}
	if out.ClientMs != nil {
		out.ClientPods = 1
	}
	if out.ClientMs == nil && out.ServerMs == nil {
		return nil
	}
	return out
}

// deltaMs is b − a in milliseconds; nil when either is missing or the counter went back
// (the daprd restarted between the readings: its CPU over the run is unknown).
func deltaMs(a, b *float64) *int64 {
	if a == nil || b == nil || *b < *a {
		return nil
	}
	d := int64(math.Round((*b - *a) * 1000))
	return &d
}

// counter reads processCPU from one endpoint; nil when it cannot be read. An endpoint that
// failed once is not tried again: each try may wait readTimeout at a phase's edge, and a
// cost needs every repetition's reading anyway.
func (m *daprdMeter) counter(ctx context.Context, url string) *float64 {
	if url == "" || m.failed[url] {
		return nil
	}
	v, err := readProcessCPU(ctx, m.client, url)
	if err != nil {
		if ctx.Err() != nil {
			return nil // the phase ended under the reading: the endpoint is not at fault
		}
		m.failed[url] = true
		logf(m.log, "daprd CPU: not read from %s (%v); not tried again, so the run has no daprd CPU figure for it", url, err)
		return nil
	}
	return &v
}

// readProcessCPU fetches a Prometheus text page and returns its processCPU sample.
func readProcessCPU(ctx context.Context, client *http.Client, url string) (float64, error) {
	v, err := readSamples(ctx, client, url, processCPU)
	if err != nil {
		return 0, err
	}
	return cpuTime(v[0])
}

// readSamples fetches a Prometheus text page and returns the samples of names, in order.
func readSamples(ctx context.Context, client *http.Client, url string, names ...string) ([]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return scanSamples(io.LimitReader(resp.Body, maxMetricsBytes), names...)
}

// cpuTime refuses a counter below zero: no process ran for less than no time.
func cpuTime(v float64) (float64, error) {
	if v < 0 {
		return 0, fmt.Errorf("%s %v is not a CPU time", processCPU, v)
	}
	return v, nil
}

// scanSamples finds each of names' sample in a Prometheus text exposition: the line
// "NAME VALUE" (labels, if any, ignored: a process has one of each), its first if several.
// An error names the first one missing or not a finite number.
func scanSamples(r io.Reader, names ...string) ([]float64, error) {
	out := make([]float64, len(names))
	found := make([]bool, len(names))
	left := len(names)
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for left > 0 && s.Scan() {
		line := s.Text()
		for i, name := range names {
			rest, ok := strings.CutPrefix(line, name)
			if found[i] || !ok || rest == "" || (rest[0] != ' ' && rest[0] != '{') {
				continue
			}
			if j := strings.LastIndexByte(rest, '}'); j >= 0 {
				rest = rest[j+1:]
			}
			fields := strings.Fields(rest)
			if len(fields) == 0 {
				return nil, fmt.Errorf("%s without a value", name)
			}
			v, err := strconv.ParseFloat(fields[0], 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				return nil, fmt.Errorf("%s %q is not a finite number", name, fields[0])
			}
			out[i], found[i] = v, true
			left--
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	for i, name := range names {
		if !found[i] {
			return nil, fmt.Errorf("no %s on the page", name)
		}
	}
	return out, nil
}
