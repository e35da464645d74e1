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
	"bytes"
	"compress/zlib"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/daprbench/daprbench/internal/latency"
)

// The leader's coordinator listens on the pod network: anything that can reach pod 0 can
// call it. What guards the merged result: every call presents the run's token, each pod
// delivers once, bodies and histograms are bounded before anything is allocated for
// them, and measurements that cannot be (negative counts, phases the run does not have)
// are refused.

// maxMeasurementsBytes bounds a pod's delivery: its recordings, compressed, are a few
// hundred KiB at the largest spec admission allows.
const maxMeasurementsBytes = 4 << 20

// requireToken admits only calls that present the group's token.
func requireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			http.Error(w, "this run's group token is required", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkMeasurements refuses what no pod of this run can have measured: a run of a phase
// outside the plan (variant × repetition), a negative count or rate, a recording of a
// phase the pod did not report, or a histogram wider than the load tester records.
func checkMeasurements(m podMeasurements, plan map[latency.Key]bool) error {
	reported := map[string]bool{}
	for _, r := range m.Runs {
		k := latency.Key{Variant: r.Variant, Rep: r.Rep}
		if !plan[k] {
			return fmt.Errorf("a run of %s, repetition %d, which this run does not measure", r.Variant, r.Rep)
		}
		if reported[recordingKey(k)] {
			return fmt.Errorf("two runs of %s, repetition %d", r.Variant, r.Rep)
		}
		reported[recordingKey(k)] = true
		if r.Requests < 0 || r.Errors < 0 || r.Errors > r.Requests || r.ActualQPS < 0 || r.Seconds < 0 || r.StartUnix < 0 {
			return fmt.Errorf("impossible figures for %s, repetition %d: %d requests, %d errors, %.1f qps, %.1f s",
				r.Variant, r.Rep, r.Requests, r.Errors, r.ActualQPS, r.Seconds)
		}
		for code, n := range r.Codes {
			if n < 0 {
				return fmt.Errorf("a negative count (%d) of return code %s", n, code)
			}
		}
	}
	for key, w := range m.Recordings {
		if !reported[key] {
			return fmt.Errorf("a recording of %s, which the pod reports no run of", key)
		}
		for _, enc := range append([]string{w.Latency, w.Service, w.Lag}, w.Blocks...) {
			if err := checkHistogram(enc); err != nil {
				return fmt.Errorf("recording %s: %w", key, err)
			}
		}
	}
	return nil
}

// checkHistogram reads an encoded histogram's header (base64 of a V2 compressed
// encoding: cookie, length, then zlib of the V2 encoding, whose header gives the range)
// and refuses one the decoder would allocate more for than the load tester's own
// histograms take.
func checkHistogram(enc string) error {
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(raw) < 8 {
		return errors.New("a histogram that is not an HDR V2 compressed encoding")
	}
	z, err := zlib.NewReader(bytes.NewReader(raw[8:]))
	if err != nil {
		return fmt.Errorf("a histogram that does not decompress: %w", err)
	}
	defer z.Close()
	var header struct {
		Cookie, PayloadLength, NormalizingOffset, SignificantDigits int32
		Lowest, Highest                                             int64
	}
	if err := binary.Read(io.LimitReader(z, 32), binary.BigEndian, &header); err != nil {
		return fmt.Errorf("a histogram without a header: %w", err)
	}
	want := latency.NewHistogram()
	if header.SignificantDigits != int32(want.SignificantFigures()) || header.Lowest != want.LowestTrackableValue() ||
		header.Highest != want.HighestTrackableValue() {
		return fmt.Errorf("a histogram of range [%d, %d] at %d digits, not the load tester's [%d, %d] at %d",
			header.Lowest, header.Highest, header.SignificantDigits, want.LowestTrackableValue(), want.HighestTrackableValue(), want.SignificantFigures())
	}
	return nil
}
