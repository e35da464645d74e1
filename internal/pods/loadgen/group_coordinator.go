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
	"maps"
	"net"
	"net/http"
	"slices"
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

// podDeliveries are one pod's measurements as they came: its runs and their recordings,
// the digest of each part (a retry of it is no second one) and of its last delivery.
type podDeliveries struct {
	runs       []result.Run
	recordings map[string]wireRecording
	parts      map[string][sha256.Size]byte
	last       *[sha256.Size]byte
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

// join is the phase the incarnation id of pod starts at: 0 for the pod's first, and for a
// replacement the phase after the last one its predecessor started (the phase it met at, if
// that barrier has not opened). Asking again with the same id gives the same answer.
func (c *coordinator) join(pod int, id string) (int, error) {
	if pod <= 0 || pod >= c.size {
		return 0, fmt.Errorf("pod %d is not a peer in a group of %d", pod, c.size)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := c.joins[pod]
	if from, ok := seen[id]; ok {
		return from, nil
	}
	from := 0
	if len(seen) > 0 {
		from = c.resumeAt(pod)
	}
	if seen == nil {
		seen = map[string]int{}
		c.joins[pod] = seen
	}
	seen[id] = from
	return from, nil
}

// resumeAt is where a replacement of pod takes over: after the last phase pod started.
func (c *coordinator) resumeAt(pod int) int {
	last := -1
	for phase, b := range c.phases {
		if b.arrived[pod] && phase > last {
			last = phase
		}
	}
	if last < 0 {
		return 0
	}
	select {
	case <-c.phases[last].open:
		return last + 1
	default:
		return last
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

// deliver files a pod's measurements: each run once (a retry of the same body is accepted
// again), and the pod's last delivery once; a pod's failure aborts the group.
func (c *coordinator) deliver(m podMeasurements, digest [sha256.Size]byte) error {
	if m.Pod <= 0 || m.Pod >= c.size {
		return fmt.Errorf("pod %d is not a peer in a group of %d", m.Pod, c.size)
	}
	if m.Error == "" {
		if err := checkMeasurements(m, c.plan); err != nil {
			return &refusal{fmt.Errorf("pod %d: %w", m.Pod, err)}
		}
	}
	if m.Part && (len(m.Runs) != 1 || m.Error != "") {
		return &refusal{fmt.Errorf("pod %d: a part holds one run, and no error", m.Pod)}
	}
	c.mu.Lock()
	d := c.pods[m.Pod]
	if d == nil {
		d = &podDeliveries{recordings: map[string]wireRecording{}, parts: map[string][sha256.Size]byte{}}
		c.pods[m.Pod] = d
	}
	if err := d.add(m, digest); err != nil {
		c.mu.Unlock()
		if errors.Is(err, errRetried) {
			return nil
		}
		return &refusal{fmt.Errorf("pod %d %w", m.Pod, err)}
	}
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

// errRetried is a delivery taken already: the same body again.
var errRetried = errors.New("delivered this already")

// add files m, unless it repeats what the pod delivered.
func (d *podDeliveries) add(m podMeasurements, digest [sha256.Size]byte) error {
	if m.Part {
		if first, ok := d.parts[recordingKey(keyOf(m.Runs[0]))]; ok && first == digest {
			return errRetried
		}
	} else if d.last != nil {
		if *d.last == digest {
			return errRetried
		}
		return errors.New("has delivered its measurements already")
	}
	for _, r := range m.Runs {
		if slices.ContainsFunc(d.runs, func(o result.Run) bool { return keyOf(o) == keyOf(r) }) {
			return fmt.Errorf("has delivered its measurements of %s, repetition %d, already", r.Variant, r.Rep)
		}
	}
	d.runs = append(d.runs, m.Runs...)
	maps.Copy(d.recordings, m.Recordings)
	if m.Part {
		d.parts[recordingKey(keyOf(m.Runs[0]))] = digest
	} else {
		d.last = &digest
	}
	return nil
}

func keyOf(r result.Run) latency.Key { return latency.Key{Variant: r.Variant, Rep: r.Rep} }

// gather waits until every peer has made its last delivery, for at most wait, and returns
// each peer's measurements, in pod order.
func (c *coordinator) gather(ctx context.Context, wait time.Duration) ([]podMeasurements, error) {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		var missing []int
		for pod := 1; pod < c.size; pod++ {
			if d := c.pods[pod]; d == nil || d.last == nil {
				missing = append(missing, pod)
			}
		}
		if len(missing) == 0 {
			out := make([]podMeasurements, 0, c.size-1)
			for pod := 1; pod < c.size; pod++ {
				d := c.pods[pod]
				out = append(out, podMeasurements{Pod: pod, Runs: d.runs, Recordings: d.recordings})
			}
			c.mu.Unlock()
			return out, nil
		}
		c.mu.Unlock()
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
