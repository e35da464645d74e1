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

package faults

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// BenchmarkJudgeATenMinutePhase judges one fault in a 10-minute phase at 1000 rps (the
// longest timeline a fault keeps) and reports the highest live heap a GC found while it ran
// (peak-live-MB), above the heap before it: what Judge adds to the manager's memory. The
// live heap is known only at each GC's end, so GOGC is set to 10 meanwhile for frequent
// ones: the figure is a lower bound on the peak, close to it when GCs are frequent.
//
//	go test ./internal/assess/faults/ -run '^$' -bench JudgeATenMinutePhase -benchtime 3x
func BenchmarkJudgeATenMinutePhase(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	tl := result.Timeline{Variant: result.Dapr, StartUnixNano: t0.UnixNano()}
	for range 600 {
		h := result.NewHistogram()
		for range 1000 {
			_ = h.RecordValue(int64(800 + rng.ExpFloat64()*400))
		}
		enc, err := result.EncodeHistogram(h)
		if err != nil {
			b.Fatal(err)
		}
		tl.Seconds = append(tl.Seconds, result.Second{Latency: enc})
	}
	applied := []result.AppliedFault{{Variant: result.Dapr, StartUnixNano: t0.Add(300 * time.Second).UnixNano(),
		EndUnixNano: t0.Add(320 * time.Second).UnixNano(), AppSeen: -1}}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	liveNow := func() uint64 { metrics.Read(live); return live[0].Value.Uint64() }
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	var peak uint64
	for b.Loop() {
		runtime.GC()
		base := liveNow()
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			high := base
			for {
				high = max(high, liveNow())
				select {
				case <-done:
					peak = max(peak, high-base)
					return
				case <-time.After(time.Millisecond):
				}
			}
		})
		out, err := Judge([]result.Timeline{tl}, applied)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC() // one more GC while the outcome is still held
		runtime.KeepAlive(out)
		close(done)
		wg.Wait()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-live-MB")
}
