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
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc/status"

	"fortio.org/fortio/periodic"
)

// A State run's paths (the operator writes their URLs, see workload's stateSide):
//
//	dapr-state+http://localhost:3500/STORE?op=Get&keys=N   daprd's HTTP state API
//	dapr-state+grpc://localhost:50001/STORE?op=Get&keys=N  daprd's gRPC state API
//	redis://HOST:PORT/?op=Get&keys=N                        the store itself (the baseline)
//
// Every request reads or writes one of N keys drawn uniformly at random (a bulk operation,
// bulk=B of them: a run of B distinct keys from a uniformly random start). Before the
// warm-up every path writes each of its keys once, so a read always finds its key; a read
// that finds none counts as an error (404).
const (
	stateGet         = "Get"
	stateSave        = "Save"
	stateSaveThenGet = "SaveThenGet"
	stateBulkGet     = "BulkGet"
	stateBulkSave    = "BulkSave"
	stateTransaction = "Transaction"
	// directKeyPrefix is the baseline's keys' prefix: Dapr's state.redis keeps a key as
	// "<app id>||<key>" in a hash of data and version; the baseline keeps its own keys the
	// same way under a prefix no app id has.
	directKeyPrefix = "daprbench-direct||"
)

// errKeyMissing is a Get that found no value: the key was never written, or was lost.
var errKeyMissing = errors.New("the key has no value")

// statusError is daprd's HTTP answer other than success, with what it said.
type statusError struct {
	code int
	body string
}

func (e statusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.code, e.body) }

// statePaths are a State run's paths: daprd's state API over HTTP or gRPC, or the store
// itself with its Go client (the baseline).
type statePaths struct{}

func (statePaths) schemes() map[string]endpointKind {
	return map[string]endpointKind{"dapr-state+http": viaDaprStateHTTP, "dapr-state+grpc": viaDaprStateGRPC, "redis": viaRedis}
}

func (statePaths) host(*appServer, endpoint, time.Duration, time.Duration) {}

// ready writes the path's keys before any load, whatever the bound (at least 10 s).
func (statePaths) ready(ctx context.Context, p path, bound time.Duration, conns int) error {
	bound = max(bound, 10*time.Second)
	if last, err := waitForState(ctx, p.ep, p.body, conns, bound); err != nil {
		return fmt.Errorf("%s path %s: not ready within %v (last: %s)", p.target.Variant, p.target.URL, bound, last)
	}
	return nil
}

func (statePaths) run(opts *periodic.RunnerOptions, p path, timeout time.Duration, _ string) (outcome, any, error) {
	out, err := runState(opts, p.ep, p.body, timeout)
	return out, out, err
}

func (f statePaths) parse(raw string, u *url.URL) (endpoint, error) {
	ep := endpoint{kind: f.schemes()[u.Scheme], addr: u.Host, method: strings.Trim(u.Path, "/"), state: &stateEndpoint{op: u.Query().Get("op")}}
	keys, err := strconv.Atoi(u.Query().Get("keys"))
	bulk, bulkErr := strconv.Atoi(u.Query().Get("bulk"))
	bulkOp := ep.state.op == stateBulkGet || ep.state.op == stateBulkSave || ep.state.op == stateTransaction
	switch {
	case u.Port() == "":
		return endpoint{}, fmt.Errorf("%q: the address needs a port", raw)
	case ep.kind != viaRedis && (ep.method == "" || strings.Contains(ep.method, "/")):
		return endpoint{}, fmt.Errorf("%q: want the state store's name as the path", raw)
	case !bulkOp && ep.state.op != stateGet && ep.state.op != stateSave && ep.state.op != stateSaveThenGet:
		return endpoint{}, fmt.Errorf("%q: op must be one of %s, %s, %s, %s, %s, %s", raw,
			stateGet, stateSave, stateSaveThenGet, stateBulkGet, stateBulkSave, stateTransaction)
	case err != nil || keys < 1:
		return endpoint{}, fmt.Errorf("%q: keys must be a positive number", raw)
	case bulkOp && (bulkErr != nil || bulk < 1 || bulk > keys):
		return endpoint{}, fmt.Errorf("%q: %s needs bulk, from 1 to keys", raw, ep.state.op)
	case !bulkOp && u.Query().Has("bulk"):
		return endpoint{}, fmt.Errorf("%q: bulk is for %s, %s and %s only", raw, stateBulkGet, stateBulkSave, stateTransaction)
	}
	ep.state.keys, ep.state.bulk = keys, bulk
	return ep, nil
}

// stateClient is one connection to a state path: each operation one call (see
// state_bulk.go for the bulk ones).
type stateClient interface {
	get(ctx context.Context, key int) error
	save(ctx context.Context, key int, value []byte) error
	bulkGet(ctx context.Context, keys []int) error
	bulkSave(ctx context.Context, keys []int, value []byte) error
	transact(ctx context.Context, keys []int, value []byte) error
	close()
}

// stateConn is a fortio thread's connection: each call reads or writes random keys.
type stateConn struct {
	client stateClient
	op     string
	keys   int
	value  []byte
	rng    *rand.Rand
	run    []int // a bulk request's keys, reused
}

func (c *stateConn) call(ctx context.Context) error {
	switch c.op {
	case stateSave:
		return c.client.save(ctx, c.rng.IntN(c.keys), c.value)
	case stateSaveThenGet:
		key := c.rng.IntN(c.keys)
		if err := c.client.save(ctx, key, c.value); err != nil {
			return err
		}
		return c.client.get(ctx, key)
	case stateBulkGet:
		return c.client.bulkGet(ctx, c.nextRun())
	case stateBulkSave:
		return c.client.bulkSave(ctx, c.nextRun(), c.value)
	case stateTransaction:
		return c.client.transact(ctx, c.nextRun(), c.value)
	}
	return c.client.get(ctx, c.rng.IntN(c.keys))
}

// nextRun is a bulk request's distinct keys: a run of them from a uniformly random start,
// wrapping past the last key, so every key is as likely as any other.
func (c *stateConn) nextRun() []int {
	start := c.rng.IntN(c.keys)
	for i := range c.run {
		c.run[i] = (start + i) % c.keys
	}
	return c.run
}

func (c *stateConn) close() { c.client.close() }

// stateValue is the value every path writes: the payload's bytes as letters, JSON-quoted,
// so daprd's HTTP API (which takes JSON), its gRPC API and the store itself all hold the
// same bytes.
func stateValue(body []byte) []byte {
	v, _ := json.Marshal(lettersOf(body))
	return v
}

// lettersOf is the payload's bytes as letters: JSON-safe, the same bytes on every path.
func lettersOf(body []byte) string {
	letters := make([]byte, len(body))
	for i, b := range body {
		letters[i] = 'a' + b%26
	}
	return string(letters)
}

func stateKey(i int) string { return "k" + strconv.Itoa(i) }

// runState makes one fortio run of a state path.
func runState(opts *periodic.RunnerOptions, ep endpoint, body []byte, timeout time.Duration) (outcome, error) {
	value := stateValue(body)
	return runThreads(opts, timeout, stateStatusOf, func() (threadConn, error) {
		c, err := dialState(ep)
		if err != nil {
			return nil, err
		}
		return &stateConn{client: c, op: ep.state.op, keys: ep.state.keys, value: value, run: make([]int, ep.state.bulk),
			rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}, nil
	})
}

func dialState(ep endpoint) (stateClient, error) {
	switch ep.kind {
	case viaDaprStateHTTP:
		return &daprHTTPState{base: fmt.Sprintf("http://%s/v1.0/state/%s", ep.addr, url.PathEscape(ep.method)),
			client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}}}, nil
	case viaDaprStateGRPC:
		conn, err := dialGRPC(ep.addr)
		if err != nil {
			return nil, fmt.Errorf("dialling %s: %w", ep.addr, err)
		}
		return &daprGRPCState{conn: conn, client: runtimev1.NewDaprClient(conn), store: ep.method}, nil
	default:
		return &redisState{client: newRedisClient(ep, 1)}, nil
	}
}

// seedState writes every key of a path once, over conns connections at once, so that a Get
// finds its key; the first failure stops it, in the store's or daprd's own words.
func seedState(ctx context.Context, ep endpoint, body []byte, conns int) error {
	value := stateValue(body)
	workers := max(1, min(conns, ep.state.keys))
	next := make(chan int)
	errs := make(chan error, workers) // a worker sends at most one, then ends
	var wg sync.WaitGroup
	err := func() error {
		defer func() { close(next); wg.Wait() }() // every started worker ends, its connection closed
		for range workers {
			c, err := dialState(ep)
			if err != nil {
				return err
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.close()
				for key := range next {
					cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
					err := c.save(cctx, key, value)
					cancel()
					if err != nil {
						errs <- fmt.Errorf("writing key %s: %w", stateKey(key), err)
						return
					}
				}
			}()
		}
		for key := range ep.state.keys {
			select {
			case next <- key:
			case err := <-errs:
				return err
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}()
	if err == nil && len(errs) > 0 {
		err = <-errs
	}
	return err
}

// waitForState writes key 0 until the path takes it (daprd up, its Component loaded, the
// store reachable), for at most bound, then writes every key.
func waitForState(ctx context.Context, ep endpoint, body []byte, conns int, bound time.Duration) (last string, err error) {
	wctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	c, err := dialState(ep)
	if err != nil {
		return err.Error(), err
	}
	defer c.close()
	value := stateValue(body)
	if last, err := poll(wctx, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return c.save(ctx, 0, value)
	}); err != nil {
		return last, err
	}
	if err := seedState(ctx, ep, body, conns); err != nil {
		return err.Error(), err
	}
	return "", nil
}

// stateStatusOf maps a state call's outcome to the HTTP status an HTTP caller would have
// seen (200 is success, whatever the operation): daprd's own status, gRPC's code through
// the invocation table, 404 for a missing key, 503 for the store's refusal, -1 for a socket
// error.
func stateStatusOf(err error) int {
	var se statusError
	var re redis.Error
	switch {
	case err == nil:
		return http.StatusOK
	case errors.As(err, &se):
		return se.code
	case errors.Is(err, errKeyMissing):
		return http.StatusNotFound
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return http.StatusGatewayTimeout
	case errors.As(err, &re):
		return http.StatusServiceUnavailable
	}
	if _, ok := status.FromError(err); ok {
		return httpStatusOf(err)
	}
	return -1
}

// isTimeout reports a network timeout (go-redis reports its read deadline so), counted as
// the HTTP paths count theirs.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// daprHTTPState is daprd's HTTP state API on one keep-alive connection.
type daprHTTPState struct {
	base   string
	client *http.Client
	one    [1]int // a single save's key, as a bulk of one
}

func (d *daprHTTPState) get(ctx context.Context, key int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+"/"+stateKey(key), nil)
	if err != nil {
		return err
	}
	body, code, err := d.do(req)
	switch {
	case err != nil:
		return err
	case code == http.StatusNoContent || (code == http.StatusOK && len(body) == 0):
		return errKeyMissing
	case code != http.StatusOK:
		return statusError{code, string(body)}
	}
	return nil
}

func (d *daprHTTPState) save(ctx context.Context, key int, value []byte) error {
	d.one[0] = key
	return d.bulkSave(ctx, d.one[:], value)
}

// post sends a JSON body to base+suffix and reads the answer; any status but want is
// daprd's refusal, in its words.
func (d *daprHTTPState) post(ctx context.Context, suffix string, payload []byte, want int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.base+suffix, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	body, code, err := d.do(req)
	switch {
	case err != nil:
		return nil, err
	case code != want && !(want == http.StatusNoContent && code == http.StatusOK):
		return nil, statusError{code, string(body)}
	}
	return body, nil
}

// do sends req and reads the whole answer, so the connection is reused.
func (d *daprHTTPState) do(req *http.Request) ([]byte, int, error) { return readAnswer(d.client, req) }

// readAnswer sends req on client and reads the whole answer (at most 1 MiB), so the
// keep-alive connection is reused.
func readAnswer(client *http.Client, req *http.Request) ([]byte, int, error) {
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return body, resp.StatusCode, err
}

func (d *daprHTTPState) close() { d.client.CloseIdleConnections() }

// daprGRPCState is daprd's gRPC state API on one connection.
type daprGRPCState struct {
	conn   interface{ Close() error }
	client runtimev1.DaprClient
	store  string
}

func (d *daprGRPCState) get(ctx context.Context, key int) error {
	resp, err := d.client.GetState(ctx, &runtimev1.GetStateRequest{StoreName: d.store, Key: stateKey(key)})
	if err == nil && len(resp.GetData()) == 0 {
		return errKeyMissing
	}
	return err
}

func (d *daprGRPCState) save(ctx context.Context, key int, value []byte) error {
	_, err := d.client.SaveState(ctx, &runtimev1.SaveStateRequest{StoreName: d.store,
		States: []*commonv1.StateItem{{Key: stateKey(key), Value: value}}})
	return err
}

func (d *daprGRPCState) close() { _ = d.conn.Close() }

// redisState is the baseline: the store itself with go-redis, one connection, doing what
// Dapr's state.redis does for the same call minus Dapr (a hash read; a hash write without
// the ETag check Dapr runs as a script — that check is part of what Dapr adds).
type redisState struct{ client *redis.Client }

func (r *redisState) get(ctx context.Context, key int) error {
	fields, err := r.client.HGetAll(ctx, directKeyPrefix+stateKey(key)).Result()
	if err == nil && fields["data"] == "" {
		return errKeyMissing
	}
	return err
}

func (r *redisState) save(ctx context.Context, key int, value []byte) error {
	return r.client.HSet(ctx, directKeyPrefix+stateKey(key), "data", value, "version", 1).Err()
}

func (r *redisState) close() { _ = r.client.Close() }
