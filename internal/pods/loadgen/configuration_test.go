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
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/alicebob/miniredis/v2"
	commonv1 "github.com/dapr/dapr/pkg/proto/common/v1"
	runtimev1 "github.com/dapr/dapr/pkg/proto/runtime/v1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"google.golang.org/grpc"
)

// configStandIn is a TEST-ONLY stand-in for daprd's configuration API over miniredis (a
// TEST-ONLY in-process Redis; the real daprd and Redis run in the e2e suite). It reads an
// item as Dapr's configuration.redis does: one GET, its value split at "||" from its version.
// It measures nothing of Dapr, and lets the load tester's configuration paths be tested for real.
type configStandIn struct {
	runtimev1.UnimplementedDaprServer
	store *miniredis.Miniredis
	mu    sync.Mutex
	read  map[string]int
}

func newConfigStandIn(store *miniredis.Miniredis) *configStandIn {
	return &configStandIn{store: store, read: map[string]int{}}
}

// item is key's value and version, and whether the store has it.
func (s *configStandIn) item(key string) (value, version string, ok bool) {
	s.mu.Lock()
	s.read[key]++
	s.mu.Unlock()
	raw, err := s.store.Get(key)
	if err != nil {
		return "", "", false
	}
	value, version, _ = strings.Cut(raw, "||")
	return value, version, true
}

func (s *configStandIn) serveHTTP(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1.0/configuration/configstore", func(w http.ResponseWriter, r *http.Request) {
		items := map[string]any{}
		for _, key := range r.URL.Query()["key"] {
			if value, version, ok := s.item(key); ok {
				items[key] = map[string]any{"value": value, "version": version, "metadata": map[string]string{}}
			}
		}
		if len(items) == 0 {
			w.WriteHeader(http.StatusNoContent) // as daprd answers when the store has none of the keys
			return
		}
		_ = json.NewEncoder(w).Encode(items)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

func (s *configStandIn) GetConfiguration(_ context.Context, req *runtimev1.GetConfigurationRequest) (*runtimev1.GetConfigurationResponse, error) {
	resp := &runtimev1.GetConfigurationResponse{Items: map[string]*commonv1.ConfigurationItem{}}
	for _, key := range req.GetKeys() {
		if value, version, ok := s.item(key); ok {
			resp.Items[key] = &commonv1.ConfigurationItem{Value: value, Version: version}
		}
	}
	return resp, nil
}

func configURLs(daprScheme, daprAddr, redisAddr string, daprKeys, baselineKeys int) []string {
	return []string{"--baseline-url=redis-configuration://" + redisAddr + "/?keys=" + strconv.Itoa(baselineKeys),
		"--dapr-url=" + daprScheme + "://" + daprAddr + "/configstore?keys=" + strconv.Itoa(daprKeys)}
}

// A Configuration run's baseline writes every item as configuration.redis keeps them; then
// both paths read items spread over all of them, interleaved, with an added latency, over
// daprd's HTTP or gRPC API; nothing is missing.
func TestAConfigurationRunReadsTheItemsTheBaselineWrote(t *testing.T) {
	t.Parallel()
	for _, scheme := range []string{"dapr-configuration+http", "dapr-configuration+grpc"} {
		t.Run(scheme, func(t *testing.T) {
			store := miniredis.RunT(t)
			store.RequireAuth("run-token")
			dapr := newConfigStandIn(store)
			addr := ""
			if strings.HasSuffix(scheme, "http") {
				addr = dapr.serveHTTP(t)
			} else {
				s := grpc.NewServer()
				runtimev1.RegisterDaprServer(s, dapr)
				addr = serveGRPC(t, s)
			}
			r := runCLI(t, append([]string{"--qps=200", "--connections=4", "--duration=1s", "--warmup=200ms", "--repetitions=2",
				"--payload-bytes=16", "--target-wait=5s", "--store-password=run-token"}, configURLs(scheme, addr, store.Addr(), 50, 50)...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s\n%s", r.code, r.summary.Error, r.stderr)
			}
			for _, run := range r.summary.Runs {
				if run.Errors != 0 || run.Requests < 150 || run.Codes["200"] != run.Requests {
					t.Errorf("%s rep %d: requests %d, codes %v", run.Variant, run.Rep, run.Requests, run.Codes)
				}
			}
			if r.summary.Added == nil {
				t.Error("no added latency for a Configuration run with a baseline")
			}
			if keys := store.Keys(); len(keys) != 50 {
				t.Errorf("the baseline wrote %d items, want 50", len(keys))
			}
			if v, _ := store.Get(configurationKey(7)); !strings.HasSuffix(v, "||1") || len(v) != 16+3 {
				t.Errorf("item 7 = %q, want the 16-byte payload as letters, then ||1", v)
			}
			dapr.mu.Lock()
			defer dapr.mu.Unlock()
			if len(dapr.read) < 45 {
				t.Errorf("the Dapr path read %d distinct items of 50: the reads are not spread", len(dapr.read))
			}
		})
	}
}

// An item daprd's answer lacks is an error, as State's missing key is: a Dapr path reading 60
// items of which the baseline wrote 50 misses about one read in six.
func TestAMissingConfigurationItemIsCountedAsAnError(t *testing.T) {
	t.Parallel()
	store := miniredis.RunT(t)
	dapr := newConfigStandIn(store)
	r := runCLI(t, append([]string{"--qps=200", "--connections=2", "--duration=1s", "--warmup=0s", "--repetitions=1",
		"--payload-bytes=8", "--target-wait=5s"}, configURLs("dapr-configuration+http", dapr.serveHTTP(t), store.Addr(), 60, 50)...)...)
	measured := false
	for _, run := range r.summary.Runs {
		if run.Variant != result.Dapr {
			continue
		}
		measured = true
		share := float64(run.Codes["404"]) / float64(run.Requests)
		if share < 0.08 || share > 0.27 || run.Errors != run.Codes["404"] {
			t.Errorf("dapr: %d of %d reads missed (codes %v), want about 1 in 6", run.Codes["404"], run.Requests, run.Codes)
		}
	}
	if !measured {
		t.Fatalf("no Dapr path measured (exit %d: %s)", r.code, r.summary.Error)
	}
}

func TestConfigurationURLsAreCheckedBeforeAnyLoad(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"dapr-configuration+http://localhost:3500/configstore",        // no keys
		"dapr-configuration+http://localhost:3500/configstore?keys=0", // no keys
		"dapr-configuration+http://localhost:3500/?keys=10",           // no store
		"dapr-configuration+grpc://localhost/configstore?keys=10",     // no port
		"redis-configuration://store/?keys=10",                        // no port
	} {
		if _, err := parseEndpoint(raw); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
	ep, err := parseEndpoint("redis-configuration://store:6379/?keys=10")
	if err != nil || ep.kind != viaRedisConfig || ep.addr != "store:6379" || ep.configuration.keys != 10 {
		t.Errorf("redis-configuration URL -> %+v, %v", ep, err)
	}
}
