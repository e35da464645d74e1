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
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// One channel, whole. The load tester's report — the summary of every repetition, path and
// variant, each path's histograms and the daprds' profiles — leaves the pod as one frame at
// the end of its log, and its termination message (capped at 4096 bytes by Kubernetes)
// holds only a Pointer: the verdict for `kubectl describe pod`, and the frame's size and
// digest. The operator reads the frame through the API server's pods/log of the run's own
// leader pod, checks it against the pointer, and keeps nothing it cannot check. Nothing is
// ever dropped to fit: a report too large for the channel fails the run, saying its size.

// Report is everything a load tester measured.
type Report struct {
	Summary Summary `json:"summary"`
	// Histograms are each path's full latency histograms (every repetition and load-tester
	// pod merged); empty for a report without measured runs.
	Histograms Histograms `json:"histograms,omitzero"`
	// Profiles are the daprds' CPU profiles (spec.profiling).
	Profiles []Profile `json:"profiles,omitempty"`
	// Timelines are each measured run's seconds, and Faults each fault as applied in each
	// phase it was applied in: a run with faults only (spec.faults).
	Timelines []Timeline     `json:"timelines,omitempty"`
	Faults    []AppliedFault `json:"faults,omitempty"`
	// DaprdGauges are the daprds' goroutines and open files read through a measured load of
	// MinTrendSpan or more (GaugeInterval apart), by the leader alone.
	DaprdGauges []DaprdGauges `json:"daprdGauges,omitempty"`
	// LatencyWindows are each measured run's latency in windows of LatencyWindowWidth, over
	// a measured load of MinTrendSpan or more, by the leader alone (every pod's merged).
	LatencyWindows []LatencyWindows `json:"latencyWindows,omitempty"`
}

// Pointer is the termination message: how the load tester ended and where its report is.
type Pointer struct {
	Version int `json:"ver"`
	// Error says why the load tester failed; empty on success. At most MaxPointerErrorBytes.
	Error string `json:"err,omitempty"`
	// Runs is the number of measured runs in the report.
	Runs int `json:"runs"`
	// Frame is the report's frame in the log; nil when none was written.
	Frame *Frame `json:"frame,omitempty"`
}

// Frame describes a report's frame: Lines chunk lines holding Bytes bytes of the gzipped
// report, whose SHA-256 is Digest ("sha256:<hex>").
type Frame struct {
	Lines  int    `json:"lines"`
	Bytes  int    `json:"bytes"`
	Digest string `json:"digest"`
}

const (
	// MaxPointerErrorBytes bounds the pointer's error, so the pointer fits the termination
	// message however long the error.
	MaxPointerErrorBytes = 2048
	// MaxReportBytes bounds a report's frame (gzipped): the operator reads no more of a log,
	// and a container log rotates at 10 MiB by default (the kubelet's containerLogMaxSize),
	// which must not split the frame. A report of the largest run the API admits takes
	// 1.3 MB (TestTheLargestAdmittedRunsReportAndDocumentFit).
	MaxReportBytes = 4 << 20
	// maxReportJSONBytes bounds the report once decompressed.
	maxReportJSONBytes = 64 << 20
	// chunkBytes of the gzipped report go on each line, 4 KiB once in base64: short enough
	// that no container runtime splits a line (containerd at 16 KiB, CRI-O's conmon at 8).
	chunkBytes = 3 << 10
	// FramePrefix starts every line of a frame.
	FramePrefix = "daprbench-report "
)

// ErrNoFrame says a log holds no frame of the pointer's digest.
var ErrNoFrame = errors.New("no report of the termination message's digest in the load tester's log")

// FrameTooLarge is a frame the operator does not read: its size and the limit.
type FrameTooLarge struct{ Bytes, Limit int }

func (e *FrameTooLarge) Error() string {
	return fmt.Sprintf("the load tester's report takes %d bytes (gzipped), more than the %d the operator reads from its log", e.Bytes, e.Limit)
}

// WriteFrame writes r to w as one frame and returns the pointer to it (with errMsg, the
// load tester's error, shortened to fit): a begin line with the frame's size and digest,
// the gzipped report in numbered base64 chunks, and an end line.
func WriteFrame(w io.Writer, r Report, errMsg string) (Pointer, error) {
	p := Pointer{Version: SchemaVersion, Error: truncate(errMsg, MaxPointerErrorBytes), Runs: len(r.Summary.Runs)}
	r.Summary.Version = SchemaVersion
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if err := json.NewEncoder(zw).Encode(r); err != nil {
		return p, fmt.Errorf("encoding the report: %w", err)
	}
	if err := zw.Close(); err != nil {
		return p, err
	}
	sum := sha256.Sum256(gz.Bytes())
	f := &Frame{Lines: (gz.Len() + chunkBytes - 1) / chunkBytes, Bytes: gz.Len(), Digest: "sha256:" + hex.EncodeToString(sum[:])}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%sbegin %d %d %s\n", FramePrefix, f.Lines, f.Bytes, f.Digest)
	for i, b := 0, gz.Bytes(); len(b) > 0; i++ {
		n := min(len(b), chunkBytes)
		fmt.Fprintf(bw, "%s%d %s\n", FramePrefix, i, base64.StdEncoding.EncodeToString(b[:n]))
		b = b[n:]
	}
	fmt.Fprintf(bw, "%send\n", FramePrefix)
	if err := bw.Flush(); err != nil {
		return p, fmt.Errorf("writing the report: %w", err)
	}
	p.Frame = f
	return p, nil
}

// EncodePointer is the termination message of p.
func EncodePointer(p Pointer) ([]byte, error) {
	p.Version = SchemaVersion
	p.Error = truncate(p.Error, MaxPointerErrorBytes)
	return json.Marshal(p)
}

// DecodePointer parses a termination message and checks its version.
func DecodePointer(b []byte) (Pointer, error) {
	var p Pointer
	if len(b) == 0 {
		return p, errors.New("empty termination message")
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("decoding the termination message: %w", err)
	}
	if p.Version != SchemaVersion {
		return p, fmt.Errorf("termination message of schema version %d, want %d", p.Version, SchemaVersion)
	}
	if f := p.Frame; f != nil && (f.Lines < 1 || f.Bytes < 1 || f.Lines != (f.Bytes+chunkBytes-1)/chunkBytes || !strings.HasPrefix(f.Digest, "sha256:")) {
		return p, fmt.Errorf("termination message names a frame of %d lines, %d bytes, digest %q: not one the load tester writes", f.Lines, f.Bytes, f.Digest)
	}
	return p, nil
}

const (
	// tailSlackLines are the lines read besides the frame's: whatever the load tester's
	// goroutines print on stderr between its chunks or after its end line.
	tailSlackLines = 128
	// maxLogLineBytes is the longest line a container's log holds: containerd stores a
	// longer one in pieces of 16 KiB (CRI-O in 8), and the kubelet counts each piece as a
	// line of the tail.
	maxLogLineBytes = 16 << 10
	// frameLineBytes is the longest line of a frame: the prefix, an index, a chunk.
	frameLineBytes = len(FramePrefix) + 8 + 4*chunkBytes/3 + 1
)

// TailLines is how many lines of the log's end hold frame f and the lines around it.
func (f *Frame) TailLines() int64 { return int64(f.Lines) + 2 + tailSlackLines }

// LimitBytes is how many bytes to read of the TailLines last lines. The kubelet counts
// LimitBytes from the first of those lines, not back from the log's end, so the budget
// holds every line of the tail at its longest: a few long lines before the frame (fortio's
// JSON results) must not push the frame's end past the limit.
func (f *Frame) LimitBytes() int64 {
	return int64(f.Lines+2)*int64(frameLineBytes) + tailSlackLines*maxLogLineBytes
}

// ReadFrame finds frame f in a log and returns its report: the last frame of f's digest,
// its chunks in order (other lines may fall between them: stderr shares the log), checked
// against f's size and digest before anything is decoded.
func ReadFrame(log []byte, f Frame) (Report, error) {
	if f.Bytes > MaxReportBytes {
		return Report{}, &FrameTooLarge{Bytes: f.Bytes, Limit: MaxReportBytes}
	}
	lines := strings.Split(string(log), "\n")
	begin := fmt.Sprintf("%sbegin %d %d %s", FramePrefix, f.Lines, f.Bytes, f.Digest)
	start := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) == begin {
			start = i
			break
		}
	}
	if start < 0 {
		return Report{}, ErrNoFrame
	}
	gz := make([]byte, 0, f.Bytes)
	next := 0
	for _, line := range lines[start+1:] {
		body, ok := strings.CutPrefix(strings.TrimSpace(line), FramePrefix)
		if !ok {
			continue
		}
		if body == "end" {
			break
		}
		index, chunk, _ := strings.Cut(body, " ")
		if i, err := strconv.Atoi(index); err != nil || i != next {
			return Report{}, fmt.Errorf("the report's frame in the log has chunk %q where chunk %d belongs", index, next)
		}
		b, err := base64.StdEncoding.DecodeString(chunk)
		if err != nil || len(gz)+len(b) > f.Bytes {
			return Report{}, fmt.Errorf("the report's chunk %d is not the frame's (%d bytes of %d so far)", next, len(gz)+len(b), f.Bytes)
		}
		gz = append(gz, b...)
		next++
	}
	if len(gz) != f.Bytes || next != f.Lines {
		return Report{}, fmt.Errorf("the report's frame in the log is cut short: %d of %d bytes in %d of %d lines", len(gz), f.Bytes, next, f.Lines)
	}
	if sum := sha256.Sum256(gz); "sha256:"+hex.EncodeToString(sum[:]) != f.Digest {
		return Report{}, fmt.Errorf("the report's frame in the log does not match the termination message's digest %s", f.Digest)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return Report{}, fmt.Errorf("the report does not decompress: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxReportJSONBytes+1))
	if err != nil || len(raw) > maxReportJSONBytes {
		return Report{}, fmt.Errorf("the report does not decompress within %d bytes: %v", maxReportJSONBytes, err)
	}
	var r Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return Report{}, fmt.Errorf("decoding the report: %w", err)
	}
	if r.Summary.Version != SchemaVersion {
		return Report{}, fmt.Errorf("a report of schema version %d, want %d", r.Summary.Version, SchemaVersion)
	}
	if err := r.Histograms.Check(); err != nil {
		return Report{}, fmt.Errorf("the report's histograms are not the load tester's: %w", err)
	}
	if err := checkProfiles(r.Profiles); err != nil {
		return Report{}, fmt.Errorf("the report's profiles are not the load tester's: %w", err)
	}
	if err := checkTimelines(r.Timelines); err != nil {
		return Report{}, fmt.Errorf("the report's timelines are not the load tester's: %w", err)
	}
	if err := checkLatencyWindows(r.LatencyWindows); err != nil {
		return Report{}, fmt.Errorf("the report's latency windows are not the load tester's: %w", err)
	}
	if err := checkFaults(r.Timelines, r.Faults); err != nil {
		return Report{}, fmt.Errorf("the report's faults are not the load tester's: %w", err)
	}
	return r, nil
}
