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
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// podMeasurements is what a pod sends the leader after its last phase: its runs, the exact
// recording of each (keyed "variant/rep"), or why it failed.
type podMeasurements struct {
	Pod        int                      `json:"pod"`
	Runs       []result.Run             `json:"runs,omitempty"`
	Recordings map[string]wireRecording `json:"recordings,omitempty"`
	Error      string                   `json:"error,omitempty"`
}

// coordinator is the leader's side of the group: the barrier every pod meets at before a
// phase, and the mailbox of the pods' measurements. A pod's failure aborts the group, so
// nobody waits for a pod that will not come.
type coordinator struct {
	size  int
	token string
	plan  map[latency.Key]bool // the phases a pod may report

	mu       sync.Mutex
	phases   map[int]*phaseBarrier
	results  map[int]podMeasurements
	digests  map[int][sha256.Size]byte // of each pod's delivery: a retry of it is no second one
	received chan struct{}             // signalled on every new result
	aborted  chan struct{}
	abortErr error
}

type phaseBarrier struct {
	arrived map[int]bool
	open    chan struct{}
}

func newCoordinator(size int, token string, plan map[latency.Key]bool) *coordinator {
	return &coordinator{
		size:     size,
		token:    token,
		plan:     plan,
		digests:  map[int][sha256.Size]byte{},
		phases:   map[int]*phaseBarrier{},
		results:  map[int]podMeasurements{},
		received: make(chan struct{}, 1),
		aborted:  make(chan struct{}),
	}
}

// arrive records pod at phase (arriving twice is harmless: a peer may retry) and blocks
// until every pod has arrived, the group is aborted or ctx ends.
func (c *coordinator) arrive(ctx context.Context, phase, pod int) error {
	if pod < 0 || pod >= c.size {
		return fmt.Errorf("pod %d is not in a group of %d", pod, c.size)
	}
	c.mu.Lock()
	b := c.phases[phase]
	if b == nil {
		b = &phaseBarrier{arrived: map[int]bool{}, open: make(chan struct{})}
		c.phases[phase] = b
	}
	if !b.arrived[pod] {
		b.arrived[pod] = true
		if len(b.arrived) == c.size {
			close(b.open)
		}
	}
	c.mu.Unlock()
	select {
	case <-b.open:
		return nil
	case <-c.aborted:
		return c.abortErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// abort releases every waiter with err; the first abort wins.
func (c *coordinator) abort(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.aborted:
	default:
		c.abortErr = err
		close(c.aborted)
	}
}

// deliver files a pod's measurements, once (a retry of the same body is accepted again);
// a pod's failure aborts the group.
func (c *coordinator) deliver(m podMeasurements, digest [sha256.Size]byte) error {
	if m.Pod <= 0 || m.Pod >= c.size {
		return fmt.Errorf("pod %d is not a peer in a group of %d", m.Pod, c.size)
	}
	if m.Error == "" {
		if err := checkMeasurements(m, c.plan); err != nil {
			return &refusal{fmt.Errorf("pod %d: %w", m.Pod, err)}
		}
	}
	c.mu.Lock()
	if first, ok := c.digests[m.Pod]; ok {
		c.mu.Unlock()
		if first == digest {
			return nil
		}
		return &refusal{fmt.Errorf("pod %d has delivered its measurements already", m.Pod)}
	}
	c.results[m.Pod], c.digests[m.Pod] = m, digest
	c.mu.Unlock()
	if m.Error != "" {
		c.abort(fmt.Errorf("load-tester pod %d failed: %s", m.Pod, m.Error))
	}
	select {
	case c.received <- struct{}{}:
	default:
	}
	return nil
}

// gather waits until every peer has delivered, for at most wait, and returns their
// measurements in pod order.
func (c *coordinator) gather(ctx context.Context, wait time.Duration) ([]podMeasurements, error) {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		var missing []int
		for pod := 1; pod < c.size; pod++ {
			if _, ok := c.results[pod]; !ok {
				missing = append(missing, pod)
			}
		}
		c.mu.Unlock()
		if len(missing) == 0 {
			out := make([]podMeasurements, 0, c.size-1)
			for pod := 1; pod < c.size; pod++ {
				out = append(out, c.results[pod])
			}
			return out, nil
		}
		select {
		case <-c.received:
		case <-c.aborted:
			return nil, c.abortErr
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timeout.C:
			return nil, fmt.Errorf("load-tester pods %v sent no measurements within %v", missing, wait)
		}
	}
}

// handler serves the peers: POST /v1/arrive?phase=N&pod=I and POST /v1/result.
func (c *coordinator) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+pathArrive, func(w http.ResponseWriter, r *http.Request) {
		phase, err := queryInt(r, "phase")
		pod, err2 := queryInt(r, "pod")
		if err = errors.Join(err, err2); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if err := c.arrive(r.Context(), phase, pod); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+pathResult, func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMeasurementsBytes))
		var m podMeasurements
		if err == nil {
			err = json.Unmarshal(body, &m)
		}
		if err != nil {
			http.Error(w, "decoding measurements: "+err.Error(), http.StatusBadRequest)
			return
		}
		var refused *refusal
		switch err := c.deliver(m, sha256.Sum256(body)); {
		case errors.As(err, &refused):
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		case err != nil:
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return requireToken(c.token, mux)
}

// serve listens on addr until ctx ends; the returned func stops it (in-flight waits are
// released first so peers learn of an abort rather than of a closed connection).
func (c *coordinator) serve(addr string) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("leader pod listening on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: c.handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

func queryInt(r *http.Request, name string) (int, error) {
	v, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil {
		return 0, fmt.Errorf("query parameter %s: %w", name, err)
	}
	return v, nil
}

// refusal is a delivery the leader will not take: it changes nothing, and the group goes on
// (a forgery must not abort the run it targets).
type refusal struct{ error }

func (r *refusal) Unwrap() error { return r.error }
