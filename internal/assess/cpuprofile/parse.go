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

// Package cpuprofile reads a daprd CPU profile (pprof, through pprof's own profile
// package) into what a report shows: the top functions by flat and by cumulative CPU, and
// a flame graph's tree. The controller validates a profile with Parse before storing it;
// the plugin reads it back with the same bounds.
package cpuprofile

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/google/pprof/profile"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// MaxUncompressedBytes bounds a profile once decompressed: daprd's profiles of tens of KiB
// gzipped are a few MiB of protobuf at most, and a crafted one must not inflate without
// bound in the operator (profile.ParseData reads a gzip stream to its end).
const MaxUncompressedBytes = 16 << 20

// Parse reads a pprof profile as daprd serves it (gzipped protobuf, or plain protobuf),
// refusing one larger than result.MaxProfileBytes or than MaxUncompressedBytes once
// decompressed, one whose shape (samples, locations, frames) passes the bounds of scan.go
// before it is decoded, and one that is not a CPU profile.
func Parse(data []byte) (*profile.Profile, error) {
	if len(data) > result.MaxProfileBytes {
		return nil, fmt.Errorf("a profile of %d bytes, more than %d", len(data), result.MaxProfileBytes)
	}
	if isGzip(data) {
		gz, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("decompressing the profile: %w", err)
		}
		raw, err := io.ReadAll(io.LimitReader(gz, MaxUncompressedBytes+1))
		if err != nil {
			return nil, fmt.Errorf("decompressing the profile: %w", err)
		}
		if len(raw) > MaxUncompressedBytes {
			return nil, fmt.Errorf("the profile decompresses to more than %d bytes", MaxUncompressedBytes)
		}
		if isGzip(raw) {
			// ParseData would unpack this inner stream again, without any bound.
			return nil, fmt.Errorf("the profile is gzipped twice: not what daprd serves")
		}
		data = raw
	}
	if why := shapeRefusal(data); why != "" {
		return nil, fmt.Errorf("the profile is larger than a daprd profile can be: %s", why)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, err
	}
	if cpuIndex(p) < 0 {
		return nil, fmt.Errorf("not a CPU profile: its sample types are %v", sampleTypes(p))
	}
	return p, nil
}

// isGzip reports whether data starts with gzip's magic number.
func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// cpuIndex is the index of the CPU time among p's sample values (Go's CPU profile holds
// samples/count and cpu/nanoseconds), -1 when it has none.
func cpuIndex(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			return i
		}
	}
	return -1
}

func sampleTypes(p *profile.Profile) []string {
	var out []string
	for _, st := range p.SampleType {
		out = append(out, st.Type+"/"+st.Unit)
	}
	return out
}
