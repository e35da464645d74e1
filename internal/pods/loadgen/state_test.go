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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/alicebob/miniredis/v2"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The store in these tests is miniredis, a TEST-ONLY in-process Redis (the real one runs in
// the e2e suite). stateStandIn is a TEST-ONLY stand-in for daprd's state API over it, keeping
// keys as Dapr's state.redis does ("<app id>||<key>", a hash of data and version); it
// measures nothing of Dapr, and lets the load tester's state paths be tested for real.
type stateStandIn struct {
	runtimev1.UnimplementedDaprServer
	store   *miniredis.Miniredis
	appID   string
	refuse  string // when set, every write fails with this message, as a broken store would
	mu      sync.Mutex
	readKey map[string]int
	calls   map[string]map[int]int // each API's calls (get, save, bulk, transaction) by the keys they carried
}

func newStateStandIn(store *miniredis.Miniredis) *stateStandIn {
	return &stateStandIn{store: store, appID: "tester", readKey: map[string]int{}, calls: map[string]map[int]int{}}
}

// called counts one call of an API carrying n keys.
func (s *stateStandIn) called(api string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls[api] == nil {
		s.calls[api] = map[int]int{}
	}
	s.calls[api][n]++
}

func (s *stateStandIn) read(key string) string {
	s.mu.Lock()
	s.readKey[key]++
	s.mu.Unlock()
	return s.store.HGet(s.appID+"||"+key, "data")
}

func (s *stateStandIn) write(key string, value []byte) error {
	if s.refuse != "" {
		return errors.New(s.refuse)
	}
	s.store.HSet(s.appID+"||"+key, "data", string(value), "version", "1")
	return nil
}

func (s *stateStandIn) serveHTTP(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1.0/state/statestore/{key}", func(w http.ResponseWriter, r *http.Request) {
		s.called("get", 1)
		v := s.read(r.PathValue("key"))
		if v == "" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		_, _ = io.WriteString(w, v)
	})
	mux.HandleFunc("POST /v1.0/state/statestore", func(w http.ResponseWriter, r *http.Request) {
		var items []struct {
			Key   string          `json:"key"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.NewDecoder(r.Body).Decode(&items); err != nil || len(items) == 0 {
			http.Error(w, fmt.Sprintf("bad body: %v", err), http.StatusBadRequest)
			return
		}
		s.called("save", len(items))
		for _, it := range items {
			if err := s.write(it.Key, it.Value); err != nil {
				http.Error(w, `{"errorCode":"ERR_STATE_SAVE","message":"`+err.Error()+`"}`, http.StatusInternalServerError)
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /v1.0/state/statestore/bulk", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Keys []string `json:"keys"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.called("bulk", len(req.Keys))
		answer := make([]map[string]any, len(req.Keys))
		for i, k := range req.Keys {
			answer[i] = map[string]any{"key": k}
			if v := s.read(k); v != "" {
				answer[i]["data"] = json.RawMessage(v)
			}
		}
		_ = json.NewEncoder(w).Encode(answer)
	})
	mux.HandleFunc("POST /v1.0/state/statestore/transaction", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Operations []struct {
				Operation string `json:"operation"`
				Request   struct {
					Key   string          `json:"key"`
					Value json.RawMessage `json:"value"`
				} `json:"request"`
			} `json:"operations"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.called("transaction", len(req.Operations))
		for _, op := range req.Operations {
			if op.Operation != "upsert" {
				http.Error(w, "unknown operation "+op.Operation, http.StatusBadRequest)
				return
			}
			if err := s.write(op.Request.Key, op.Request.Value); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

func (s *stateStandIn) GetState(_ context.Context, req *runtimev1.GetStateRequest) (*runtimev1.GetStateResponse, error) {
	if req.GetStoreName() != "statestore" {
		return nil, status.Error(codes.InvalidArgument, "no such store")
	}
	s.called("get", 1)
	return &runtimev1.GetStateResponse{Data: []byte(s.read(req.GetKey()))}, nil
}

func (s *stateStandIn) GetBulkState(_ context.Context, req *runtimev1.GetBulkStateRequest) (*runtimev1.GetBulkStateResponse, error) {
	s.called("bulk", len(req.GetKeys()))
	resp := &runtimev1.GetBulkStateResponse{}
	for _, k := range req.GetKeys() {
		resp.Items = append(resp.Items, &runtimev1.BulkStateItem{Key: k, Data: []byte(s.read(k))})
	}
	return resp, nil
}

func (s *stateStandIn) ExecuteStateTransaction(_ context.Context, req *runtimev1.ExecuteStateTransactionRequest) (*emptypb.Empty, error) {
	s.called("transaction", len(req.GetOperations()))
	for _, op := range req.GetOperations() {
		if err := s.write(op.GetRequest().GetKey(), op.GetRequest().GetValue()); err != nil {
			return nil, status.Error(codes.Internal, err.Error())
		}
	}
	return &emptypb.Empty{}, nil
}

func (s *stateStandIn) SaveState(_ context.Context, req *runtimev1.SaveStateRequest) (*emptypb.Empty, error) {
	s.called("save", len(req.GetStates()))
	for _, it := range req.GetStates() {
		if err := s.write(it.GetKey(), it.GetValue()); err != nil {
			return nil, status.Error(codes.Internal, err.Error())
		}
	}
	return &emptypb.Empty{}, nil
}

func stateURLs(daprScheme, daprAddr, redisAddr, op string, keys int) []string {
	q := fmt.Sprintf("?op=%s&keys=%d", op, keys)
	if strings.HasPrefix(op, "Bulk") || op == stateTransaction {
		q += "&bulk=5"
	}
	return []string{"--baseline-url=redis://" + redisAddr + "/" + q, "--dapr-url=" + daprScheme + "://" + daprAddr + "/statestore" + q}
}

// A Get run writes every key once on each path, then reads keys spread over all of them, on
// both paths, interleaved, with an added latency; nothing is missing.
func TestAStateGetRunReadsEveryPathsOwnKeys(t *testing.T) {
	t.Parallel()
	store := miniredis.RunT(t)
	dapr := newStateStandIn(store)
	r := runCLI(t, append([]string{"--qps=200", "--connections=4", "--duration=1s", "--warmup=200ms", "--repetitions=2",
		"--payload-bytes=64", "--target-wait=5s"}, stateURLs("dapr-state+http", dapr.serveHTTP(t), store.Addr(), "Get", 50)...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	for _, run := range r.summary.Runs {
		if run.Errors != 0 || run.Requests < 150 || run.Codes["200"] != run.Requests {
			t.Errorf("%s rep %d: requests %d, codes %v", run.Variant, run.Rep, run.Requests, run.Codes)
		}
	}
	if r.summary.Added == nil {
		t.Error("no added latency for a State run with a baseline")
	}
	var direct, viaDapr int
	for _, k := range store.Keys() {
		switch {
		case strings.HasPrefix(k, directKeyPrefix):
			direct++
		case strings.HasPrefix(k, "tester||"):
			viaDapr++
		}
	}
	if direct != 50 || viaDapr != 50 {
		t.Errorf("keys written: %d by the baseline, %d through daprd; want 50 each", direct, viaDapr)
	}
	dapr.mu.Lock()
	defer dapr.mu.Unlock()
	if len(dapr.readKey) < 45 {
		t.Errorf("the Dapr path read %d distinct keys of 50: the keys are not spread", len(dapr.readKey))
	}
}

// A Save run over daprd's gRPC API writes the same bytes the baseline writes for a key.
func TestAStateSaveRunWritesTheSameValueOnBothPaths(t *testing.T) {
	t.Parallel()
	store := miniredis.RunT(t)
	dapr := newStateStandIn(store)
	s := grpc.NewServer()
	runtimev1.RegisterDaprServer(s, dapr)
	r := runCLI(t, append([]string{"--qps=100", "--connections=2", "--duration=500ms", "--warmup=0s", "--repetitions=1",
		"--payload-bytes=32", "--target-wait=5s"}, stateURLs("dapr-state+grpc", serveGRPC(t, s), store.Addr(), "Save", 3)...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	for _, run := range r.summary.Runs {
		if run.Errors != 0 || run.Requests < 40 {
			t.Errorf("%s: requests %d, codes %v", run.Variant, run.Requests, run.Codes)
		}
	}
	direct, viaDapr := store.HGet(directKeyPrefix+"k2", "data"), store.HGet("tester||k2", "data")
	if len(direct) != 32+2 || direct != viaDapr {
		t.Errorf("value of k2: %q by the baseline, %q through daprd; want the same 32 letters, quoted", direct, viaDapr)
	}
}

// Every operation calls its own API of daprd's (one call a request, bulk keys in a bulk
// call) and runs on the baseline without an error: a read finds what the seeding wrote.
func TestEveryStateOperationCallsItsOwnAPIOnBothPaths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ op, scheme, api string }{
		{stateSaveThenGet, "dapr-state+http", "get"},
		{stateBulkGet, "dapr-state+http", "bulk"},
		{stateBulkGet, "dapr-state+grpc", "bulk"},
		{stateBulkSave, "dapr-state+http", "save"},
		{stateTransaction, "dapr-state+http", "transaction"},
		{stateTransaction, "dapr-state+grpc", "transaction"},
	} {
		t.Run(tc.op+" over "+tc.scheme, func(t *testing.T) {
			store := miniredis.RunT(t)
			dapr := newStateStandIn(store)
			addr := ""
			if tc.scheme == "dapr-state+grpc" {
				s := grpc.NewServer()
				runtimev1.RegisterDaprServer(s, dapr)
				addr = serveGRPC(t, s)
			} else {
				addr = dapr.serveHTTP(t)
			}
			r := runCLI(t, append([]string{"--qps=100", "--connections=2", "--duration=400ms", "--warmup=0s", "--repetitions=1",
				"--payload-bytes=16", "--target-wait=5s"}, stateURLs(tc.scheme, addr, store.Addr(), tc.op, 20)...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
			}
			daprRequests := 0
			for _, run := range r.summary.Runs {
				if run.Errors != 0 || run.Requests < 30 {
					t.Errorf("%s: requests %d, codes %v", run.Variant, run.Requests, run.Codes)
				}
				if run.Variant == result.Dapr {
					daprRequests += int(run.Requests)
				}
			}
			dapr.mu.Lock()
			defer dapr.mu.Unlock()
			// The seeding writes every key once with single saves; the load's calls follow.
			want := map[string]int{tc.api: 5}
			if tc.op == stateSaveThenGet {
				want = map[string]int{"get": 1, "save": 1}
			}
			for api, keys := range want {
				if got := dapr.calls[api][keys]; got < daprRequests {
					t.Errorf("%d %s calls of %d keys for %d requests (every call by its keys: %v)", got, api, keys, daprRequests, dapr.calls)
				}
			}
			for api, byKeys := range dapr.calls {
				for keys := range byKeys {
					if keys != 1 && keys != 5 {
						t.Errorf("a %s call of %d keys: want 1 (the seeding's) or 5", api, keys)
					}
				}
			}
		})
	}
}

// A bulk request's keys are distinct, wrap past the last key, and over many requests every
// key is drawn about as often as any other.
func TestABulkRequestsKeysAreDistinctAndSpread(t *testing.T) {
	t.Parallel()
	c := &stateConn{keys: 7, run: make([]int, 5), rng: rand.New(rand.NewPCG(1, 2))}
	seen := make([]int, 7)
	for range 7000 {
		distinct := map[int]bool{}
		for _, k := range c.nextRun() {
			distinct[k] = true
			seen[k]++
		}
		if len(distinct) != 5 {
			t.Fatalf("keys %v: not distinct", c.run)
		}
	}
	for k, n := range seen {
		if n < 4500 || n > 5500 { // 5000 expected: 7000 requests × 5 keys / 7 keys
			t.Errorf("key %d drawn %d times of 35000, want about 5000", k, n)
		}
	}
}

// A store that refuses writes fails the run before any load, in the store's own words.
func TestAStoreThatRefusesFailsBeforeTheLoadInItsOwnWords(t *testing.T) {
	t.Parallel()
	store := miniredis.RunT(t)
	dapr := newStateStandIn(store)
	dapr.refuse = "NOAUTH Authentication required"
	r := runCLI(t, append([]string{"--qps=100", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=1",
		"--target-wait=1s"}, stateURLs("dapr-state+http", dapr.serveHTTP(t), store.Addr(), "Get", 5)...)...)
	if r.code == 0 || !strings.Contains(r.summary.Error, "NOAUTH Authentication required") || len(r.summary.Runs) != 0 {
		t.Errorf("exit %d, %d runs, error %q: want a failure before the load naming the store's refusal", r.code, len(r.summary.Runs), r.summary.Error)
	}
}

// A Get that finds no value is an error (404), on every path; daprd's and gRPC's refusals
// keep their own statuses.
func TestAMissingKeyAndARefusalAreCountedAsErrors(t *testing.T) {
	t.Parallel()
	store := miniredis.RunT(t)
	direct, _ := dialState(endpoint{kind: viaRedis, addr: store.Addr()})
	defer direct.close()
	for name, tc := range map[string]struct {
		err  error
		want int
	}{
		"a key the store lacks": {direct.get(context.Background(), 7), http.StatusNotFound},
		"daprd's own status":    {statusError{code: 500, body: "ERR_STATE_GET"}, 500},
		"a gRPC code":           {status.Error(codes.NotFound, "no store"), http.StatusNotFound},
		"the store's refusal":   {errors.Join(errors.New("x"), redisErr("WRONGTYPE")), http.StatusServiceUnavailable},
		"success":               {nil, http.StatusOK},
	} {
		if got := stateStatusOf(tc.err); got != tc.want {
			t.Errorf("%s: %v -> %d, want %d", name, tc.err, got, tc.want)
		}
	}
}

// State URLs that say too little are refused before any load.
func TestStateURLsAreCheckedBeforeAnyLoad(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"dapr-state+http://localhost:3500/statestore?keys=10",       // no op
		"dapr-state+http://localhost:3500/statestore?op=Get",        // no keys
		"dapr-state+http://localhost:3500/statestore?op=Get&keys=0", // no keys
		"dapr-state+http://localhost:3500/?op=Get&keys=10",          // no store
		"dapr-state+grpc://localhost/statestore?op=Get&keys=10",     // no port
		"redis://store:6379/?op=Delete&keys=10",                     // an unknown operation
		"redis://store:6379/?op=BulkGet&keys=10",                    // no bulk
		"redis://store:6379/?op=Transaction&keys=10&bulk=11",        // more keys a request than keys
		"redis://store:6379/?op=Get&keys=10&bulk=2",                 // bulk on a single-key operation
	} {
		if _, err := parseEndpoint(raw); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
	ep, err := parseEndpoint("redis://store:6379/?op=Save&keys=10")
	if err != nil || ep.kind != viaRedis || ep.addr != "store:6379" || ep.state.op != stateSave || ep.state.keys != 10 {
		t.Errorf("redis URL -> %+v, %v", ep, err)
	}
}

// redisErr is an error as go-redis reports the store's own refusal.
type redisErr string

func (e redisErr) Error() string { return string(e) }
func (e redisErr) RedisError()   {}

// The Redis a run deploys asks for a password (the run's token): the baseline's client
// presents --store-password, where a client without it is refused.
func TestTheBaselineAuthenticatesToTheRunsStore(t *testing.T) {
	t.Parallel()
	store := miniredis.RunT(t)
	store.RequireAuth("run-token")
	if err := redis.NewClient(&redis.Options{Addr: store.Addr(), Protocol: 2}).Ping(context.Background()).Err(); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Fatalf("a client without the password: %v, want NOAUTH", err)
	}
	dapr := newStateStandIn(store)
	s := grpc.NewServer()
	runtimev1.RegisterDaprServer(s, dapr)
	r := runCLI(t, append([]string{"--qps=100", "--connections=2", "--duration=500ms", "--warmup=0s", "--repetitions=1", "--payload-bytes=32",
		"--target-wait=5s", "--store-password=run-token"}, stateURLs("dapr-state+grpc", serveGRPC(t, s), store.Addr(), "Save", 3)...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
	}
	for _, run := range r.summary.Runs {
		if run.Errors != 0 || run.Requests < 40 {
			t.Errorf("%s: requests %d, errors %d: the baseline's client must authenticate", run.Variant, run.Requests, run.Errors)
		}
	}
}
