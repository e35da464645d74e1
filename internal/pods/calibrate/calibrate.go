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

// Package calibrate measures how fast a node does a sidecar's kind of work: a fixed,
// deterministic bundle of what daprd does per request — a TLS record sealed and opened
// (AES-128-GCM, mTLS), a protobuf message marshalled and parsed (Dapr's gRPC between
// sidecars), and an HTTP/2 HEADERS and DATA frame written and read with HPACK — repeated
// for a few seconds, on one goroutine and on as many as the CPU limit allows. Two clusters'
// figures divided by their scores compare Dapr, not CPUs. It runs in the run's own image, in
// an init container limited like the sidecar.
package calibrate

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// recordBytes is the payload of one unit: Dapr's published scenario sends 1 KiB.
const recordBytes = 1024

// worker holds one goroutine's state: every unit does the same work on the same bytes, in
// buffers the worker keeps where it can (the protobuf's maps and values and the frames read
// back still allocate), so the collector's share of a unit stays small.
type worker struct {
	aead    cipher.AEAD
	nonce   []byte
	record  []byte
	sealed  []byte
	opened  []byte
	msg     *structpb.Struct
	wire    []byte
	back    structpb.Struct
	frames  bytes.Buffer
	framer  *http2.Framer
	hpack   bytes.Buffer
	enc     *hpack.Encoder
	headers []hpack.HeaderField
	sum     [8]byte
}

func newWorker() *worker {
	key := bytes.Repeat([]byte{0x5a}, 16)
	block, _ := aes.NewCipher(key) // a 16-byte key is always valid
	aead, _ := cipher.NewGCM(block)
	w := &worker{aead: aead, nonce: make([]byte, aead.NonceSize()), record: make([]byte, recordBytes)}
	for i := range w.record {
		w.record[i] = byte(i * 31)
	}
	w.msg, _ = structpb.NewStruct(map[string]any{ // literal values: always valid
		"id": "5f0c2b6e-8d4e-4a3b-9c1d-2e7f6a5b4c3d", "method": "test", "app": "perf-target",
		"qps": 1000.0, "ok": true, "tags": []any{"dapr", "bench", "mtls"},
		"meta": map[string]any{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "size": 1024.0},
	})
	w.enc = hpack.NewEncoder(&w.hpack)
	w.framer = http2.NewFramer(&w.frames, &w.frames)
	w.headers = []hpack.HeaderField{{Name: ":method", Value: "POST"}, {Name: ":path", Value: "/v1.0/invoke/perf-target/method/test"},
		{Name: ":scheme", Value: "http"}, {Name: ":authority", Value: "localhost:3500"}, {Name: "content-type", Value: "application/json"},
		{Name: "dapr-app-id", Value: "perf-target"}, {Name: "traceparent", Value: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}
	return w
}

// unit does one bundle of work and returns a checksum of what it produced, so the work can
// neither be skipped by the compiler nor differ between runs.
func (w *worker) unit() uint64 {
	h := fnv.New64a()
	// TLS record: seal and open.
	w.sealed = w.aead.Seal(w.sealed[:0], w.nonce, w.record, nil)
	w.opened, _ = w.aead.Open(w.opened[:0], w.nonce, w.sealed, nil)
	_, _ = h.Write(w.sealed[len(w.sealed)-16:])
	// Protobuf: marshal and parse.
	w.wire, _ = proto.MarshalOptions{Deterministic: true}.MarshalAppend(w.wire[:0], w.msg)
	proto.Reset(&w.back)
	_ = proto.Unmarshal(w.wire, &w.back)
	binary.LittleEndian.PutUint64(w.sum[:], uint64(len(w.wire))+uint64(len(w.back.GetFields())))
	_, _ = h.Write(w.sum[:])
	// HTTP/2: a HEADERS frame (HPACK from an emptied dynamic table, so every unit encodes the
	// same fields the same way) and a DATA frame, written and read.
	w.hpack.Reset()
	w.enc.SetMaxDynamicTableSize(0)
	w.enc.SetMaxDynamicTableSize(4096)
	for _, f := range w.headers {
		_ = w.enc.WriteField(f)
	}
	w.frames.Reset()
	_ = w.framer.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: w.hpack.Bytes(), EndHeaders: true})
	_ = w.framer.WriteData(1, true, w.opened)
	for {
		f, err := w.framer.ReadFrame()
		if err != nil {
			break
		}
		switch f := f.(type) {
		case *http2.HeadersFrame:
			_, _ = h.Write(f.HeaderBlockFragment())
		case *http2.DataFrame:
			_, _ = h.Write(f.Data()[:8])
		}
	}
	return h.Sum64()
}

// Checksum is the checksum of n units on a fresh worker: the same on every run and every
// machine (the tests hold it to that).
func Checksum(n int) uint64 {
	w := newWorker()
	h := fnv.New64a()
	for range n {
		_ = binary.Write(h, binary.LittleEndian, w.unit())
	}
	return h.Sum64()
}

// window is the piece Measure cuts the single-goroutine run into. A node's speed is its
// upper decile of pieces: on shared machines the host now and then halves a core's speed for
// seconds (another tenant on its sibling thread, the guest sees no steal), and a score taken
// at the median of such a moment would say "slow node" about a normal one.
const window = 100 * time.Millisecond

// slowWindow is a piece slower than this share of the score: counted in SlowShare.
const slowWindow = 0.8

// Measure runs the workload for d on one goroutine, in 100-ms windows, then for d on
// parallelism goroutines (GOMAXPROCS when 0 or less: the CPU limit's whole cores, at least one).
func Measure(d time.Duration, parallelism int) result.Calibration {
	if parallelism <= 0 {
		parallelism = runtime.GOMAXPROCS(0)
	}
	s := result.Calibration{Parallelism: parallelism, Seconds: d.Seconds(), Workload: WorkloadVersion}
	var single, perCPU []float64
	for range max(int(d/window), 5) {
		cpu0, ok0 := processCPU()
		r, units := rate(min(d, window), 1)
		single = append(single, r)
		if cpu1, ok1 := processCPU(); ok0 && ok1 && cpu1 > cpu0 {
			perCPU = append(perCPU, float64(units)/(cpu1-cpu0).Seconds())
		}
	}
	s.Single = upperDecile(single)
	speed := single
	if len(perCPU) == len(single) {
		s.PerCPUSecond = upperDecile(perCPU)
		speed = perCPU
	}
	s.SlowShare = float64(countBelow(speed, slowWindow*upperDecile(speed))) / float64(len(speed))
	s.Parallel, _ = rate(d, parallelism)
	return s
}

// upperDecile is the value nine tenths of vals are at or below (the nearest rank).
func upperDecile(vals []float64) float64 {
	s := slices.Clone(vals)
	slices.Sort(s)
	return s[(len(s)*9+9)/10-1]
}

func countBelow(vals []float64, bound float64) int {
	n := 0
	for _, v := range vals {
		if v < bound {
			n++
		}
	}
	return n
}

// rate is units per second over d on n goroutines, and the units done.
func rate(d time.Duration, n int) (float64, int64) {
	var units atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker()
			for time.Now().Before(deadline) {
				for range 16 { // check the clock every 16 units
					w.unit()
				}
				units.Add(16)
			}
		}()
	}
	wg.Wait()
	return float64(units.Load()) / time.Since(start).Seconds(), units.Load()
}

// workloadChecksum is Checksum(64) of this version of the workload.
const workloadChecksum = 0x72fd566eafe054a5

// WorkloadVersion names this version of the workload in every score.
var WorkloadVersion = fmt.Sprintf("%016x", uint64(workloadChecksum))
