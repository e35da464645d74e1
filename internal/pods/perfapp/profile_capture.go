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

package perfapp

import (
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
)

// ProfileCapturePath is the route under which the app takes its own daprd's CPU profile
// (Config.DaprdProfiler), for the bearer of Config.ProfileToken.
const ProfileCapturePath = loadsettings.ProfileCaptureRoot + "/debug/pprof/profile"

// maxCaptureSeconds bounds one capture: admission allows profiling.seconds up to a
// phase's length, and no phase needs more than this.
const maxCaptureSeconds = 600

// profileCapture takes the sidecar's profile on localhost, where daprd's profiler (which
// asks for no token) is bound, so that neither it nor daprd's API listens on the pod's
// address: the run's load tester asks the app, with the run's token. One capture at a
// time — daprd's own profiler serves one too.
type profileCapture struct {
	daprd  string // e.g. http://localhost:7777
	token  []byte
	client *http.Client
	busy   sync.Mutex
}

func (c *profileCapture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), c.token) != 1 {
		http.Error(w, "a profile is taken for the run's token only", http.StatusUnauthorized)
		return
	}
	seconds, err := strconv.Atoi(r.URL.Query().Get("seconds"))
	if err != nil || seconds < 1 || seconds > maxCaptureSeconds {
		http.Error(w, fmt.Sprintf("seconds must be a whole number from 1 to %d", maxCaptureSeconds), http.StatusBadRequest)
		return
	}
	if !c.busy.TryLock() {
		http.Error(w, "a profile is being taken", http.StatusConflict)
		return
	}
	defer c.busy.Unlock()
	u := fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", c.daprd, seconds)
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, u, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := c.client.Do(req)
	if err != nil {
		http.Error(w, "daprd's profiler: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// newProfileCapture is the capture route for cfg, nil when the app takes no profile.
func newProfileCapture(cfg Config) *profileCapture {
	if cfg.DaprdProfiler == "" || cfg.ProfileToken == "" {
		return nil
	}
	return &profileCapture{daprd: strings.TrimSuffix(cfg.DaprdProfiler, "/"), token: []byte(cfg.ProfileToken),
		client: &http.Client{Timeout: (maxCaptureSeconds + 30) * time.Second}}
}
