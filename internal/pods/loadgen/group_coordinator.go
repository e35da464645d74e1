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

// podMeasurements is what a pod sends the leader: a part (one run, its recording keyed
// "variant/rep"), sent as the run ends so that a pod killed later loses only the phase it
// was in; or, last, the end of its deliveries, with why it failed.
type podMeasurements struct {
	Pod        int                      `json:"pod"`
	Part       bool                     `json:"part,omitempty"`
	Runs       []result.Run             `json:"runs,omitempty"`
	Recordings map[string]wireRecording `json:"recordings,omitempty"`
	Error      string                   `json:"error,omitempty"`
}

// coordinator is the leader's side of the group: the barrier every pod meets at before a
// phase, and the mailbox of the pods' measurements. A pod's failure aborts the group, so
// nobody waits for a pod that will not come. A pod the run's fault killed is replaced by
// its Job: the replacement joins at the next phase (join), and delivers the rest.
type coordinator struct {
	size  int
	token string
	plan  map[latency.Key]bool // the phases a pod may report

	mu       sync.Mutex
	phases   map[int]*phaseBarrier
	pods     map[int]*podDeliveries
	joins    map[int]map[string]int // each pod's incarnations: their id → the phase each starts at
	received chan struct{}          // signalled on every new delivery
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
		phases:   map[int]*phaseBarrier{},
		pods:     map[int]*podDeliveries{},
		joins:    map[int]map[string]int{},
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
	if pod > 0 && len(c.joins[pod]) == 0 {
		c.mu.Unlock()
		return errNotJoined(pod)
	}
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

// handler serves the peers: POST /v1/join?pod=I&id=X, /v1/arrive?phase=N&pod=I and /v1/result.
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
	mux.HandleFunc("POST "+pathJoin, func(w http.ResponseWriter, r *http.Request) {
		pod, err := queryInt(r, "pod")
		id := r.URL.Query().Get("id")
		if err == nil && (id == "" || len(id) > 64) {
			err = errors.New("query parameter id: want 1 to 64 characters")
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		from, err := c.join(pod, id)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(joinAnswer{From: from})
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
