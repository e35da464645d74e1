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
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sidecarStandIn is a TEST-ONLY stand-in for daprd (the real one needs a cluster, which the
// e2e suite brings): it answers
// the health and shutdown endpoints the load tester uses and forwards actor calls to the
// app as daprd would (POST /v1.0/actors/T/ID/method/M -> PUT app /actors/T/ID/method/M).
// It measures nothing of Dapr; it lets the load tester's own protocol be tested for real.
type sidecarStandIn struct {
	*httptest.Server
	appURL    string
	healthy   atomic.Bool
	shutdowns atomic.Int32
	mu        sync.Mutex
	actorIDs  map[string]bool
	// invoked counts the invocations it forwarded; its CPU counter (GET /metrics) is a
	// known answer: cpuPerRequest for each of them plus idleCPU per second since it started.
	invoked atomic.Int64
	started time.Time
	// inFlight counts the calls on their way to each app address (under mu).
	inFlight map[string]int
}

// The stand-in's known CPU: what its process_cpu_seconds_total advances by.
const (
	standInCPUPerRequest = 200 * time.Microsecond
	standInIdleCPU       = 0.020 // CPU-seconds per second
)

func newSidecarStandIn(appURL string, healthy bool) *sidecarStandIn {
	s := &sidecarStandIn{appURL: appURL, actorIDs: map[string]bool{}, started: time.Now(), inFlight: map[string]int{}}
	s.healthy.Store(healthy)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1.0/healthz/outbound", func(w http.ResponseWriter, _ *http.Request) {
		if !s.healthy.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /v1.0/shutdown", func(w http.ResponseWriter, _ *http.Request) {
		s.shutdowns.Add(1)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/v1.0/actors/{type}/{id}/method/{method}", s.forwardActor)
	mux.HandleFunc("/v1.0/invoke/{app}/method/{method}", func(w http.ResponseWriter, r *http.Request) {
		s.invoked.Add(1)
		s.forward(w, r, r.Method, "/"+r.PathValue("method"))
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		cpu := 3.5 + standInIdleCPU*time.Since(s.started).Seconds() + float64(s.invoked.Load())*standInCPUPerRequest.Seconds()
		fmt.Fprintf(w, "# HELP go_goroutines x\ngo_goroutines 12\n# HELP %[1]s x\n# TYPE %[1]s counter\n%[1]s %[2]g\nprocess_cpu_seconds_total_extra 99\n", processCPU, cpu)
	})
	s.Server = httptest.NewServer(mux)
	return s
}

func (s *sidecarStandIn) forwardActor(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.actorIDs[r.PathValue("id")] = true
	s.mu.Unlock()
	s.forward(w, r, http.MethodPut, "/actors/"+r.PathValue("type")+"/"+r.PathValue("id")+"/method/"+r.PathValue("method"))
}

// forward makes r's call to the app's path, as daprd would, and copies its answer back.
func (s *sidecarStandIn) forward(w http.ResponseWriter, r *http.Request, method, path string) {
	s.mu.Lock()
	app := s.appURL
	s.inFlight[app]++
	s.mu.Unlock()
	req, _ := http.NewRequestWithContext(r.Context(), method, app+path, r.Body)
	resp, err := http.DefaultClient.Do(req)
	s.mu.Lock()
	s.inFlight[app]--
	s.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// moveTo forwards every later call to the app at appURL, as daprd does once its name
// resolution gives a killed target's replacement, and returns once the old app has answered
// every call still on its way to it (at most 5 s).
func (s *sidecarStandIn) moveTo(appURL string) {
	s.mu.Lock()
	old := s.appURL
	s.appURL = appURL
	s.mu.Unlock()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		n := s.inFlight[old]
		s.mu.Unlock()
		if n == 0 {
			return
		}
	}
}

func (s *sidecarStandIn) distinctActors() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id := range s.actorIDs {
		if !strings.Contains(id, "{") {
			n++
		}
	}
	return n
}

// After the shutdown the load tester waits while daprd still answers (an actor host's app
// server must outlive daprd's deactivations) and stops waiting once it is gone.
func TestWaitDownWaitsWhileTheSidecarAnswersAndNoLonger(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	done := make(chan struct{})
	go func() {
		(&Sidecar{BaseURL: srv.URL}).WaitDown(context.Background(), 5*time.Second)
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("stopped waiting while the sidecar still answered")
	case <-time.After(300 * time.Millisecond):
	}
	srv.Close()
	select {
	case <-done:
	case <-time.After(4 * time.Second):
		t.Fatal("still waiting for a sidecar that is gone")
	}
}
