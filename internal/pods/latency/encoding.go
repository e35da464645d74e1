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

package latency

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Encode is a histogram as text: base64 of HDR's V2 compressed encoding, as every HDR
// tool reads it.
func Encode(h *hdrhistogram.Histogram) (string, error) {
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	return string(b), err
}

// Decode reads what Encode wrote, refusing (CheckEncoded) before anything is allocated a
// histogram whose header asks for more than the load tester's own histograms take: the
// text may come from a pod or a log that anyone could have written.
func Decode(enc string) (*hdrhistogram.Histogram, error) {
	if err := CheckEncoded(enc); err != nil {
		return nil, err
	}
	return hdrhistogram.Decode([]byte(enc))
}

// CheckEncoded reads an encoded histogram's header (base64 of a V2 compressed
// encoding: cookie, length, then zlib of the V2 encoding, whose header gives the range)
// and refuses one the decoder would allocate more for than the load tester's own
// histograms take.
func CheckEncoded(enc string) error {
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
