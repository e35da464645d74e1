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
	"context"
	"net/http"
	"sync"
	"time"

	"fortio.org/fortio/periodic"
)

// threadConn is one connection of a target fortio's HTTP runner does not drive (gRPC, a
// state store): each fortio thread makes its calls on a connection of its own, as fortio's
// HTTP runner keeps one per thread.
type threadConn interface {
	// call makes one request; nil is success.
	call(ctx context.Context) error
	close()
}

// connThread is one fortio thread over one connection, with its own return-code counts
// (threads never share a map).
type connThread struct {
	conn     threadConn
	timeout  time.Duration
	statusOf func(error) int
	codes    map[int]int64
}

// Run is fortio's Runnable: one request, its outcome as an HTTP status code.
func (t *connThread) Run(ctx context.Context, _ periodic.ThreadID) (bool, string) {
	if t.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
		defer cancel()
	}
	code := t.statusOf(t.conn.call(ctx))
	t.codes[code]++
	return code == http.StatusOK, ""
}

// runThreads makes one fortio run over a connection per thread (dial makes each) with
// fortio's periodic runner: fortio paces the calls and keeps the histograms, as for HTTP;
// statusOf maps a call's outcome to the HTTP status an HTTP caller would have seen.
func runThreads(opts *periodic.RunnerOptions, timeout time.Duration, statusOf func(error) int, dial func() (threadConn, error)) (outcome, error) {
	r := periodic.NewPeriodicRunner(opts)
	defer r.Options().Abort()
	threads := make([]*connThread, r.Options().NumThreads)
	for i := range threads {
		conn, err := dial()
		if err != nil {
			closeAll(threads)
			return outcome{}, err
		}
		threads[i] = &connThread{conn: conn, timeout: timeout, statusOf: statusOf, codes: map[int]int64{}}
		r.Options().Runners[i] = threads[i]
	}
	defer closeAll(threads)
	warmConnections(threads, timeout)
	res := r.Run()
	codes := map[int]int64{}
	for _, t := range threads[:r.Options().NumThreads] {
		for c, n := range t.codes {
			codes[c] += n
		}
	}
	return outcome{RunnerResults: res, RetCodes: codes}, nil
}

// warmConnections makes one call on every connection, in parallel, before the measured run
// starts: gRPC and the stores' clients connect lazily, and without it the first request of
// every connection would pay for the handshakes (fortio's HTTP runner warms its connections
// alike). A failing call is left for the run to count.
func warmConnections(threads []*connThread, timeout time.Duration) {
	var wg sync.WaitGroup
	for _, t := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), warmKey{}, true), max(timeout, time.Second))
			defer cancel()
			_ = t.conn.call(ctx)
		}()
	}
	wg.Wait()
}

// warmKey marks a connection's warm-up call: a call that counts toward nothing (a pub/sub
// path publishes it outside the phase).
type warmKey struct{}

func warming(ctx context.Context) bool { return ctx.Value(warmKey{}) != nil }

func closeAll(threads []*connThread) {
	for _, t := range threads {
		if t != nil {
			t.conn.close()
		}
	}
}
