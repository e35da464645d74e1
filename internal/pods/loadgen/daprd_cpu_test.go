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
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// scanProcessCPU reads a page as readProcessCPU does once it has it.
func scanProcessCPU(r io.Reader) (float64, error) {
	v, err := scanSamples(r, processCPU)
	if err != nil {
		return 0, err
	}
	return cpuTime(v[0])
}

func TestScanProcessCPUReadsOnlyTheCounter(t *testing.T) {
	for _, c := range []struct {
		page    string
		want    float64
		wantErr string
	}{
		{"# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.34\n", 12.34, ""},
		{"process_cpu_seconds_total_other 7\nprocess_cpu_seconds_total{pid=\"1\"} 5e-1 1700000000000\n", 0.5, ""},
		{"process_cpu_seconds_totalx 3\n", 0, "no process_cpu_seconds_total"},
		{"process_cpu_seconds_total NaN\n", 0, "not a finite number"},
		{"process_cpu_seconds_total -1\n", 0, "not a CPU time"},
		{"process_cpu_seconds_total\n", 0, "no process_cpu_seconds_total"},
	} {
		got, err := scanProcessCPU(strings.NewReader(c.page))
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: err %v, want %q", c.page, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %v, %v; want %v", c.page, got, err, c.want)
		}
	}
}

func TestDaprdMeterLeavesOutWhatItCannotRead(t *testing.T) {
	var served float64 = 1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("process_cpu_seconds_total " + map[bool]string{true: "1", false: "1.25"}[served == 1] + "\n"))
		served++
	}))
	defer srv.Close()
	var log strings.Builder
	m := newDaprdMeter(Config{DaprdMetrics: DaprdMetrics{ClientURL: srv.URL, ServerURL: "http://127.0.0.1:1/metrics"}, Log: &log})
	before := m.read(context.Background())
	got := m.since(context.Background(), before)
	if got == nil || got.ClientMs == nil || *got.ClientMs != 250 || got.ServerMs != nil || got.ClientPods != 1 {
		t.Fatalf("reading %+v, want the client's 250 ms and no server", got)
	}
	again := m.since(context.Background(), m.read(context.Background()))
	if n := strings.Count(log.String(), "not read from http://127.0.0.1:1"); n != 1 || again == nil || again.ServerMs != nil {
		t.Errorf("the unreadable daprd was tried %d times over two phases, want once:\n%s", n, log.String())
	}
	// A group's other pods leave the target's daprd to the leader.
	member := newDaprdMeter(Config{DaprdMetrics: DaprdMetrics{ServerURL: srv.URL}, Group: &Group{Size: 2, Index: 1}})
	if member != nil {
		t.Errorf("a group member with only the server's URL reads %+v, want nothing", member.urls)
	}
}
