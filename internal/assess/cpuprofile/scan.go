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

package cpuprofile

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Bounds on a profile's shape, checked on its protobuf wire bytes before pprof's own parser
// allocates a struct per element (it validates only after building them all: 15 MiB of empty
// samples in 15 KiB of gzip once took ~1.1 GiB). daprd's 30 s profiles hold a few thousand
// samples over a few thousand locations; these are two orders of magnitude above.
const (
	maxSamples   = 1 << 17
	maxLocations = 1 << 17
	maxFunctions = 1 << 17
	maxStrings   = 1 << 18
	// maxFrames bounds the frames a report expands: every sample's locations times the most
	// lines (inlined calls) a location has — what TopFunctions and FlameGraph walk.
	maxFrames = 1 << 23
)

// Field numbers of perftools.profiles.Profile, Sample and Location (pprof's profile.proto).
const (
	profileSample   protowire.Number = 2
	profileLocation protowire.Number = 4
	profileFunction protowire.Number = 5
	profileString   protowire.Number = 6
	sampleLocation  protowire.Number = 1
	locationLine    protowire.Number = 4
)

// shapeRefusal walks a profile's top-level fields and says why it is too large to decode, or
// malformed, or "" when it is within the bounds. Malformed wire bytes are refused here, not
// left to pprof's parser: it skips what it does not know (field 0 included), so a malformed
// prefix would hide the rest of a bomb from this walk but not from the parser.
func shapeRefusal(data []byte) string {
	const malformed = "malformed protobuf wire bytes"
	var samples, locations, functions, strings, refs, maxLines int
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return malformed
		}
		data = data[n:]
		m := protowire.ConsumeFieldValue(num, typ, data)
		if m < 0 {
			return malformed
		}
		if typ == protowire.BytesType {
			body, _ := protowire.ConsumeBytes(data[:m])
			switch num {
			case profileSample:
				samples++
				k, ok := countRepeated(body, sampleLocation)
				if !ok {
					return malformed
				}
				refs += k
			case profileLocation:
				locations++
				k, ok := countRepeated(body, locationLine)
				if !ok {
					return malformed
				}
				maxLines = max(maxLines, k)
			case profileFunction:
				functions++
			case profileString:
				strings++
			}
		}
		data = data[m:]
		switch {
		case samples > maxSamples:
			return fmt.Sprintf("more than %d samples", maxSamples)
		case locations > maxLocations:
			return fmt.Sprintf("more than %d locations", maxLocations)
		case functions > maxFunctions:
			return fmt.Sprintf("more than %d functions", maxFunctions)
		case strings > maxStrings:
			return fmt.Sprintf("more than %d strings", maxStrings)
		}
	}
	if frames := refs * max(maxLines, 1); frames > maxFrames {
		return fmt.Sprintf("%d sample locations times up to %d lines each, more than %d frames", refs, maxLines, maxFrames)
	}
	return ""
}

// countRepeated counts the elements of field num in a message: one per occurrence, or one
// per varint of a packed run; false for malformed wire bytes.
func countRepeated(msg []byte, num protowire.Number) (int, bool) {
	count := 0
	for len(msg) > 0 {
		n, typ, l := protowire.ConsumeTag(msg)
		if l < 0 {
			return count, false
		}
		msg = msg[l:]
		m := protowire.ConsumeFieldValue(n, typ, msg)
		if m < 0 {
			return count, false
		}
		if n == num {
			if typ == protowire.BytesType && num == sampleLocation {
				packed, _ := protowire.ConsumeBytes(msg[:m])
				for len(packed) > 0 {
					_, k := protowire.ConsumeVarint(packed)
					if k < 0 {
						return count, false
					}
					packed = packed[k:]
					count++
				}
			} else {
				count++
			}
		}
		msg = msg[m:]
	}
	return count, true
}
