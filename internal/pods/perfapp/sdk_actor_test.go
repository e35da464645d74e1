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
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
)

// fakeDaprdGRPC stands in for daprd's gRPC API: the SDK dials it (DAPR_GRPC_ENDPOINT) when
// it activates its first actor, blocking up to five seconds on a dial that fails.
func fakeDaprdGRPC(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	go func() { _ = s.Serve(l) }()
	t.Cleanup(s.Stop)
	t.Setenv("DAPR_GRPC_ENDPOINT", l.Addr().String())
}

// freeAddr is a loopback address no one listens on: the SDK's service listens itself.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// The GoSDK host as daprd drives it, over real HTTP through the SDK's own server: the
// config names the type and the minimal host's settings, Activate activates an actor once
// per id (again after its deactivation), an unknown method is the SDK's 500, and the app's
// own routes (invocation, counters, profile capture) and the readiness probe's /healthz
// still answer; then a graceful stop.
func TestGoSDKHostAsDaprdDrivesIt(t *testing.T) {
	fakeDaprdGRPC(t)
	app := New(Config{ActorType: "SDKPerfActor", ActorHost: ActorHostGoSDK, ActorIdleTimeout: 30 * time.Minute,
		DaprdProfiler: "http://127.0.0.1:1", ProfileToken: "t0ken"})
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveHTTP(ctx, app, addr, time.Second, io.Discard) }()
	base := "http://" + addr
	deadline := time.Now().Add(5 * time.Second)
	for {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("/healthz = %d, want 200 (the readiness probe's)", resp.StatusCode)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the SDK's service never answered")
		}
		time.Sleep(20 * time.Millisecond)
	}

	checkActorConfig(t, base, "SDKPerfActor", "30m0s") // the minimal host's settings, not the SDK's empty ones

	actor := "/actors/SDKPerfActor/"
	steps := []struct {
		method, path string
		want         int
	}{
		{http.MethodPut, actor + "a1/method/" + SDKActorMethod, 200},
		{http.MethodPut, actor + "a2/method/" + SDKActorMethod, 200},
		{http.MethodPut, actor + "a1/method/" + SDKActorMethod, 200}, // a1 is active: no activation
		{http.MethodPut, actor + "a1/method/activate", 500},          // the SDK's answer to a method the actor has not
		{http.MethodDelete, actor + "a1", 200},
		{http.MethodDelete, actor + "a9", 404},                       // never activated
		{http.MethodPut, actor + "a1/method/" + SDKActorMethod, 200}, // deactivated: activated again
		{http.MethodPut, "/actors/OtherActor/a1/method/" + SDKActorMethod, 404},
		{http.MethodPost, "/test", 200},
		{http.MethodGet, "/stats", 200},
		{http.MethodGet, ProfileCapturePath, 401}, // the capture route is there, for the run's token only
	}
	for _, s := range steps {
		if code, body := daprdCall(t, base, s.method, s.path, "{}"); code != s.want {
			t.Errorf("%s %s = %d %q, want %d", s.method, s.path, code, body, s.want)
		}
	}
	if got := app.Stats.ActorCalls.Load(); got != 4 {
		t.Errorf("actor calls = %d, want 4 (Activate's)", got)
	}
	if got := app.Stats.ActorsActivated.Load(); got != 3 {
		t.Errorf("actors activated = %d, want 3 (a1, a2, a1 again after its deactivation)", got)
	}
	if got := app.Stats.Invocations.Load(); got != 1 {
		t.Errorf("invocations = %d, want 1", got)
	}

	cancel()
	waitServed(t, served, "the SDK's service")
}

func TestMainRejectsAnUnknownActorHost(t *testing.T) {
	var stderr strings.Builder
	if code := Main(context.Background(), nil, []string{"DAPRBENCH_ACTOR_HOST=JavaSDK"}, &stderr); code != 2 {
		t.Errorf("exit = %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), `"JavaSDK" is no actor host: Minimal or GoSDK`) {
		t.Errorf("error: %s", stderr.String())
	}
}
