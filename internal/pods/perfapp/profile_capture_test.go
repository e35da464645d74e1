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
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// The capture route hands out the daprd's profile to the run's token only, for a bounded
// window; without a token configured there is no route at all.
func TestTheProfileCaptureAnswersTheRunsTokenOnly(t *testing.T) {
	var asked atomic.Int32
	daprd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.URL.Path != "/debug/pprof/profile" || r.URL.Query().Get("seconds") != "3" {
			http.Error(w, "unexpected "+r.URL.String(), http.StatusTeapot)
			return
		}
		_, _ = w.Write([]byte("pprof bytes"))
	}))
	defer daprd.Close()
	app := httptest.NewServer(New(Config{DaprdProfiler: daprd.URL + "/", ProfileToken: "t0ken"}).Handler())
	defer app.Close()

	get := func(token, query string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, app.URL+ProfileCapturePath+query, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct {
		name, token, query string
		want               int
	}{
		{"no token", "", "?seconds=3", http.StatusUnauthorized},
		{"another token", "t0ken2", "?seconds=3", http.StatusUnauthorized},
		{"no window", "t0ken", "", http.StatusBadRequest},
		{"a window past the bound", "t0ken", "?seconds=601", http.StatusBadRequest},
	} {
		if code, body := get(c.token, c.query); code != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, code, body, c.want)
		}
	}
	if asked.Load() != 0 {
		t.Fatalf("daprd was asked %d times for refused requests", asked.Load())
	}
	if code, body := get("t0ken", "?seconds=3"); code != http.StatusOK || body != "pprof bytes" {
		t.Errorf("the run's token: %d %q, want daprd's profile", code, body)
	}

	bare := httptest.NewServer(New(Config{DaprdProfiler: daprd.URL}).Handler())
	defer bare.Close()
	resp, err := http.Get(bare.URL + ProfileCapturePath + "?seconds=3")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("an app without a token serves the capture: %d", resp.StatusCode)
	}
}
