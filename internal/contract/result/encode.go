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
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Encode returns the summary as JSON of at most MaxMessageBytes. When the full form does
// not fit it drops detail step by step — per-run return codes become per-variant totals,
// then each run's own percentiles go (the merged ones stay: they are the result; only the
// spread over repetitions is lost), then an attribution's per-path intervals go (its three
// parts stay; each path's latency is in the merged figures), then the delivery paths' own
// intervals go (their merged figures stay), then the daprds' CPU readings
// go (the kubelet's counters remain), then run start times go, then the error text is
// shortened — and as a last resort keeps
// only the error. It never cuts JSON short. s is not modified.
func Encode(s Summary) ([]byte, error) {
	s.Version = SchemaVersion
	steps := []func(*Summary){foldCodes, dropRunPercentiles, dropPathEstimates, dropDeliveryIntervals, dropDaprdCPU, dropTimes, shortenError}
	for level := 0; ; level++ {
		b, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("encoding summary: %w", err)
		}
		if len(b) <= MaxMessageBytes {
			return b, nil
		}
		if level == len(steps) {
			break
		}
		s = clone(s)
		steps[level](&s)
		s.Degraded = level + 1
	}
	last := Summary{
		Version:      SchemaVersion,
		RequestedQPS: s.RequestedQPS,
		Error:        truncate(fmt.Sprintf("summary of %d runs did not fit in %d bytes; see the load tester's log. %s", len(s.Runs), MaxMessageBytes, s.Error), 1024),
		Degraded:     len(steps) + 1,
	}
	return json.Marshal(last)
}

// Decode parses a summary and checks its version.
func Decode(b []byte) (*Summary, error) {
	if len(b) == 0 {
		return nil, errors.New("empty summary")
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("decoding summary: %w", err)
	}
	if s.Version != SchemaVersion {
		return nil, fmt.Errorf("summary schema version %d, want %d", s.Version, SchemaVersion)
	}
	return &s, nil
}

// CodesOf returns the return codes of a variant, wherever the encoder put them.
func (s *Summary) CodesOf(v Variant) map[string]int64 {
	total := map[string]int64{}
	for code, n := range s.Codes[v] {
		total[code] += n
	}
	for _, r := range s.Runs {
		if r.Variant == v {
			for code, n := range r.Codes {
				total[code] += n
			}
		}
	}
	return total
}

func clone(s Summary) Summary {
	out := s
	out.Runs = make([]Run, len(s.Runs))
	for i, r := range s.Runs {
		out.Runs[i] = r
		out.Runs[i].Codes = maps.Clone(r.Codes)
		out.Runs[i].Percentiles = append([]Percentile(nil), r.Percentiles...)
	}
	out.Codes = make(map[Variant]map[string]int64, len(s.Codes))
	for v, c := range s.Codes {
		out.Codes[v] = maps.Clone(c)
	}
	return out
}

// foldCodes moves per-run return codes into per-variant totals (Run.Errors keeps the count).
func foldCodes(s *Summary) {
	for i := range s.Runs {
		r := &s.Runs[i]
		if len(r.Codes) == 0 {
			continue
		}
		if s.Codes[r.Variant] == nil {
			s.Codes[r.Variant] = map[string]int64{}
		}
		for code, n := range r.Codes {
			s.Codes[r.Variant][code] += n
		}
		r.Codes = nil
	}
}

func dropPathEstimates(s *Summary) {
	if s.Attribution != nil {
		a := *s.Attribution
		a.Paths = nil
		s.Attribution = &a
	}
}

func dropDeliveryIntervals(s *Summary) {
	if s.Delivery != nil {
		d := *s.Delivery
		d.Paths = slices.Clone(d.Paths)
		for i := range d.Paths {
			d.Paths[i].Interval = nil
		}
		s.Delivery = &d
	}
}

func dropRunPercentiles(s *Summary) {
	for i := range s.Runs {
		s.Runs[i].Percentiles = nil
	}
}

func dropDaprdCPU(s *Summary) {
	for i := range s.Runs {
		s.Runs[i].DaprdCPU = nil
	}
}

func dropTimes(s *Summary) {
	for i := range s.Runs {
		s.Runs[i].StartUnix, s.Runs[i].SecondHalfUnix, s.Runs[i].Seconds = 0, 0, 0
	}
}

func shortenError(s *Summary) { s.Error = truncate(s.Error, 512) }

func truncate(msg string, n int) string {
	r := []rune(msg)
	if len(r) <= n {
		return msg
	}
	return string(r[:n-1]) + "…"
}
