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
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The load tester records each latency into an HDR histogram of one geometry and sends it
// encoded (HDR V2 compressed, base64): the operator and the plugin decode it.

// SignificantDigits of every recorded latency: a recorded value is within 0.1% of the
// request's latency (exact to the microsecond up to 2.048 ms, 2 µs steps up to 4.096 ms, ...).
const SignificantDigits = 3

// Latencies are recorded in whole microseconds from 1 µs to HighestMicros (longer requests
// are recorded as HighestMicros: no request timeout daprbench allows is that long).
const HighestMicros = int64(10 * time.Minute / time.Microsecond)

// NewHistogram returns an empty histogram of daprbench's geometry; histograms of one
// geometry merge exactly.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, HighestMicros, SignificantDigits)
}

// EncodeHistogram is a histogram as text: base64 of HDR's V2 compressed encoding, as every HDR
// tool reads it.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	return string(b), err
}

// DecodeHistogram reads what EncodeHistogram wrote, refusing (CheckEncodedHistogram) before anything is allocated a
// histogram whose header asks for more than the load tester's own histograms take: the
// text may come from a pod or a log that anyone could have written.
func DecodeHistogram(enc string) (*hdrhistogram.Histogram, error) {
	if err := CheckEncodedHistogram(enc); err != nil {
		return nil, err
	}
	return hdrhistogram.Decode([]byte(enc))
}

// CheckEncodedHistogram reads an encoded histogram's header (base64 of a V2 compressed
// encoding: cookie, length, then zlib of the V2 encoding, whose header gives the range)
// and refuses one the decoder would allocate more for than the load tester's own
// histograms take.
func CheckEncodedHistogram(enc string) error {
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
	want := NewHistogram()
	if header.SignificantDigits != int32(want.SignificantFigures()) || header.Lowest != want.LowestTrackableValue() ||
		header.Highest != want.HighestTrackableValue() {
		return fmt.Errorf("a histogram of range [%d, %d] at %d digits, not the load tester's [%d, %d] at %d",
			header.Lowest, header.Highest, header.SignificantDigits, want.LowestTrackableValue(), want.HighestTrackableValue(), want.SignificantFigures())
	}
	return nil
}
