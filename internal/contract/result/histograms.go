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
	"encoding/json"
	"fmt"
	"strings"
)

// The termination message holds percentiles, not histograms. Each path's full histograms
// (every repetition and load-tester pod merged) leave the load tester as one line of its
// log, which the controller keeps in a ConfigMap owned by the run: `kubectl daprbench
// export --format fortio` and the report's latency distribution read them there.

// HistogramsKey is the key of the run's histograms ConfigMap that holds them.
const HistogramsKey = "histograms.json"

// HistogramsPrefix starts the line; the rest is the JSON of Histograms.
const HistogramsPrefix = "daprbench-histograms "

// MaxHistogramsBytes bounds the line: the controller reads no more, and a ConfigMap holds at
// most 1 MiB. A path's compressed histograms take a few KiB.
const MaxHistogramsBytes = 512 << 10

// Histograms are every path's merged histograms, in microseconds.
type Histograms struct {
	// Version is SchemaVersion of the load tester that wrote them.
	Version int              `json:"version"`
	Paths   []PathHistograms `json:"paths"`
	// PathEstimates are a four-path run's per-path latencies with their intervals
	// (Attribution.Paths): the termination message drops them first when it is short of
	// room, and the controller takes them from here then.
	PathEstimates []PathEstimate `json:"pathEstimates,omitempty"`
}

// PathHistograms are one path's latency (from each request's scheduled send) and service
// time (from its actual send), each as latency.Encode writes it (HDR V2 compressed, base64).
type PathHistograms struct {
	Variant Variant `json:"variant"`
	Latency string  `json:"latency"`
	Service string  `json:"service"`
}

// Line is h as the load tester prints it.
func (h Histograms) Line() (string, error) {
	b, err := json.Marshal(h)
	if err != nil {
		return "", err
	}
	if line := HistogramsPrefix + string(b); len(line) <= MaxHistogramsBytes {
		return line, nil
	}
	return "", fmt.Errorf("the histograms take %d bytes, more than %d", len(b), MaxHistogramsBytes)
}

// FindHistograms reads the last histograms line of a log; ok is false when it has none.
func FindHistograms(log []byte) (h Histograms, ok bool, err error) {
	lines := strings.Split(string(log), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if body, found := strings.CutPrefix(strings.TrimSpace(lines[i]), HistogramsPrefix); found {
			return ParseHistograms(body)
		}
	}
	return Histograms{}, false, nil
}

// ParseHistograms reads the JSON of Histograms (a line's body, or a ConfigMap's data).
func ParseHistograms(body string) (h Histograms, ok bool, err error) {
	if len(body) > MaxHistogramsBytes {
		return Histograms{}, false, fmt.Errorf("histograms of %d bytes, more than %d", len(body), MaxHistogramsBytes)
	}
	if err := json.Unmarshal([]byte(body), &h); err != nil {
		return Histograms{}, false, fmt.Errorf("histograms: %w", err)
	}
	return h, true, nil
}
