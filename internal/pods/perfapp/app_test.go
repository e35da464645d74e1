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
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// daprdCall makes the request daprd would make to the app at base.
func daprdCall(t *testing.T, base, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// checkActorConfig reads the app's /dapr/config as daprd does at start: it must name the
// one actor type, the idle timeout and drainRebalancedActors.
func checkActorConfig(t *testing.T, base, actorType, idle string) {
	t.Helper()
	code, body := daprdCall(t, base, http.MethodGet, "/dapr/config", "")
	var cfg struct {
		Entities              []string `json:"entities"`
		ActorIdleTimeout      string   `json:"actorIdleTimeout"`
		DrainRebalancedActors bool     `json:"drainRebalancedActors"`
	}
	if err := json.Unmarshal([]byte(body), &cfg); code != 200 || err != nil {
		t.Fatalf("/dapr/config = %d %q (%v)", code, body, err)
	}
	if len(cfg.Entities) != 1 || cfg.Entities[0] != actorType || cfg.ActorIdleTimeout != idle || !cfg.DrainRebalancedActors {
		t.Errorf("config = %+v, want %s, %s, drainRebalancedActors", cfg, actorType, idle)
	}
}

func TestActorHostProtocolAsDaprdDrivesIt(t *testing.T) {
	app := New(Config{ActorType: "PerfActor", ActorIdleTimeout: 30 * time.Minute})
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()

	checkActorConfig(t, srv.URL, "PerfActor", "30m0s")

	steps := []struct {
		method, path string
		want         int
	}{
		{http.MethodPut, "/actors/PerfActor/a1/method/activate", 200},
		{http.MethodPut, "/actors/PerfActor/a2/method/activate", 200},
		{http.MethodPut, "/actors/PerfActor/a1/method/timer/tick", 200},
		{http.MethodPut, "/actors/PerfActor/a1/method/remind/nudge", 200},
		{http.MethodPut, "/actors/PerfActor/a2/method/activate", 200}, // a2 is active: no activation
		{http.MethodDelete, "/actors/PerfActor/a1", 200},
		{http.MethodPut, "/actors/PerfActor/a1/method/activate", 200}, // deactivated: activated again
		{http.MethodPut, "/actors/OtherActor/a1/method/activate", 404},
		{http.MethodPost, "/actors/PerfActor/a1/method/activate", 405}, // daprd always uses PUT
		{http.MethodGet, "/healthz", 200},
	}
	for _, s := range steps {
		if code, body := daprdCall(t, srv.URL, s.method, s.path, "{}"); code != s.want {
			t.Errorf("%s %s = %d %q, want %d", s.method, s.path, code, body, s.want)
		}
	}
	if got := app.Stats.ActorCalls.Load(); got != 4 {
		t.Errorf("actor calls = %d, want 4", got)
	}
	if got := app.Stats.ActorsActivated.Load(); got != 3 {
		t.Errorf("actors activated = %d, want 3 (a1, a2, a1 again after its deactivation)", got)
	}
	if app.Stats.Timers.Load() != 1 || app.Stats.Reminders.Load() != 1 || app.Stats.Deactivations.Load() != 1 {
		t.Errorf("timer/reminder/deactivation counts = %d/%d/%d", app.Stats.Timers.Load(), app.Stats.Reminders.Load(), app.Stats.Deactivations.Load())
	}
}

func TestInvokeReturnsConfiguredBodyAndNoActors(t *testing.T) {
	app := New(Config{ResponseBytes: 128})
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	code, body := daprdCall(t, srv.URL, http.MethodPost, "/test", strings.Repeat("p", 1024))
	if code != 200 || len(body) != 128 {
		t.Errorf("POST /test = %d, %d bytes", code, len(body))
	}
	if code, _ := daprdCall(t, srv.URL, http.MethodPut, "/actors/PerfActor/a/method/m", ""); code != 404 {
		t.Errorf("actor call on an app hosting no actors = %d, want 404", code)
	}
	_, cfg := daprdCall(t, srv.URL, http.MethodGet, "/dapr/config", "")
	if !strings.Contains(cfg, `"entities":[]`) {
		t.Errorf("config of an app with no actors = %s", cfg)
	}
}

func TestServeShutsDownGracefullyOnCancel(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		close(started)
		<-release
		w.WriteHeader(http.StatusOK)
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, l, h, 5*time.Second) }()

	got := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://" + l.Addr().String() + "/")
		if err != nil {
			got <- -1
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	<-started
	cancel() // SIGTERM while a request is in flight
	time.Sleep(50 * time.Millisecond)
	close(release)
	if code := <-got; code != 200 {
		t.Errorf("in-flight request got %d, want 200 (graceful shutdown lets it finish)", code)
	}
	waitServed(t, served, "Serve")
	if _, err := net.DialTimeout("tcp", l.Addr().String(), time.Second); err == nil {
		t.Error("listener still accepts after shutdown")
	}
}

// waitServed waits for a cancelled server's return, which must be nil.
func waitServed(t *testing.T, served <-chan error, what string) {
	t.Helper()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("%s = %v", what, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return after cancel", what)
	}
}

func TestMainRejectsBadFlags(t *testing.T) {
	var stderr strings.Builder
	if code := Main(context.Background(), nil, []string{"DAPRBENCH_RESPONSE_BYTES=lots"}, &stderr); code != 2 {
		t.Errorf("exit = %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "DAPRBENCH_RESPONSE_BYTES") {
		t.Errorf("error does not name the variable: %s", stderr.String())
	}
}

// The known-answer delay holds only what arrived through a Dapr sidecar, never less than
// asked, and counts what it held; a direct call (the baseline's) is not held.
func TestDaprDelayHoldsOnlyWhatDaprForwarded(t *testing.T) {
	app := New(Config{ResponseBytes: 2, DaprDelay: 2 * time.Millisecond})
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	call := func(header string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/test", strings.NewReader("x"))
		if header != "" {
			req.Header.Set(header, "perf-client")
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	call("")
	if n := app.Stats.Delayed.Load(); n != 0 {
		t.Fatalf("a direct call was held (%d)", n)
	}
	for _, h := range KnownAnswerHeaders {
		call(h)
	}
	n, held := app.Stats.Delayed.Load(), app.Stats.DelayedMicros.Load()
	if n != int64(len(KnownAnswerHeaders)) {
		t.Fatalf("held %d calls, want the %d Dapr forwarded", n, len(KnownAnswerHeaders))
	}
	if held < n*2000 {
		t.Errorf("held %d µs over %d calls: less than the 2 ms asked each", held, n)
	}
	if app.Stats.Invocations.Load() != n+1 {
		t.Errorf("invocations %d, want %d", app.Stats.Invocations.Load(), n+1)
	}
}
