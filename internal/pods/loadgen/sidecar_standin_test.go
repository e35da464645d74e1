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
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
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
}

func newSidecarStandIn(appURL string, healthy bool) *sidecarStandIn {
	s := &sidecarStandIn{appURL: appURL, actorIDs: map[string]bool{}}
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
	s.Server = httptest.NewServer(mux)
	return s
}

func (s *sidecarStandIn) forwardActor(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.actorIDs[r.PathValue("id")] = true
	s.mu.Unlock()
	path := "/actors/" + r.PathValue("type") + "/" + r.PathValue("id") + "/method/" + r.PathValue("method")
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPut, s.appURL+path, r.Body)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
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
