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

// Package perfapp is the target app of a run: an invocation endpoint and a Dapr actor host.
// It does next to nothing per request so that it never dominates what is measured.
package perfapp

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/pods/fineclock"
)

// InvokeMethod is the one invocation method the app serves, over HTTP (POST /test) and gRPC.
const InvokeMethod = "test"

// maxTrackedActors bounds the memory spent remembering actor ids (~100 bytes each): a
// one-minute run at Dapr's published 500 rps calls 30,000.
const maxTrackedActors = 1 << 20

// Config of the app.
type Config struct {
	// ResponseBytes is the size of the invocation method's response body.
	ResponseBytes int
	// ActorType is the actor type this app hosts; empty hosts none.
	ActorType string
	// ActorHost is the runtime that hosts it: Minimal (empty too) or GoSDK.
	ActorHost ActorHost
	// ActorIdleTimeout is reported to daprd in /dapr/config.
	ActorIdleTimeout time.Duration
	// DaprDelay is added to the service time of every HTTP invocation that arrived through
	// a Dapr sidecar (KnownAnswerHeaders), on a fine clock: a known answer for the added
	// latency, which must rise by it. The baseline calls the app directly and is not delayed.
	// A test knob, not a workload model.
	DaprDelay time.Duration
	// FaultToken, when set, lets the bearer of the run's token switch a fault on at
	// loadsettings.FaultPath (spec.faults).
	FaultToken string
	// DaprdProfiler is the app's own daprd's profiling server on localhost; with
	// ProfileToken the app serves its profile at ProfileCapturePath to that token's bearer.
	DaprdProfiler, ProfileToken string
}

// KnownAnswerHeaders mark an invocation that daprd forwarded from another app's sidecar
// (Dapr's service invocation sets both; a direct call carries neither).
var KnownAnswerHeaders = []string{"dapr-caller-app-id", "dapr-callee-app-id"}

// Stats counts what the app has served, for tests and /stats.
type Stats struct {
	Invocations atomic.Int64
	// ActorCalls counts actor method calls: any method on the minimal host, Activate with
	// the GoSDK host (the SDK refuses any other before the actor sees it).
	ActorCalls atomic.Int64
	// ActorsActivated counts distinct actor ids called: in Dapr an actor is activated by its
	// first call, so with a fresh id per request it equals ActorCalls. With the GoSDK host,
	// the SDK's actor instances whose Activate was called (it makes one per activation).
	ActorsActivated atomic.Int64
	// Deactivations, Timers and Reminders are the minimal host's: the Go SDK answers those
	// calls itself (v1.13.0 tells its actors of none of them).
	Deactivations atomic.Int64
	Timers        atomic.Int64
	Reminders     atomic.Int64
	// Delayed counts the invocations DaprDelay held, and DelayedMicros the time they were
	// held in all, as measured (the truth a known-answer test compares with).
	Delayed       atomic.Int64
	DelayedMicros atomic.Int64
	// Faulted counts the invocations a fault in force met (spec.faults).
	Faulted atomic.Int64
}

// App serves the target's HTTP API.
type App struct {
	cfg      Config
	response []byte
	config   []byte
	Stats    Stats

	mu     sync.Mutex
	actors map[string]struct{} // ids seen, up to maxTrackedActors

	fault atomic.Pointer[activeFault]
}

// New builds an App; its responses are computed once here, not per request.
func New(cfg Config) *App {
	a := &App{cfg: cfg, response: make([]byte, cfg.ResponseBytes), actors: map[string]struct{}{}}
	for i := range a.response {
		a.response[i] = 'x'
	}
	entities := []string{}
	if cfg.ActorType != "" {
		entities = append(entities, cfg.ActorType)
	}
	idle := cfg.ActorIdleTimeout
	if idle == 0 {
		idle = time.Hour
	}
	a.config, _ = json.Marshal(map[string]any{
		"entities":                entities,
		"actorIdleTimeout":        idle.String(),
		"drainOngoingCallTimeout": "30s",
		"drainRebalancedActors":   true,
	})
	return a
}

// Handler routes the invocation method, the minimal host's actor protocol and health.
func (a *App) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, r := range a.appRoutes() {
		mux.Handle(strings.TrimSpace(r.method+" "+r.path), r.h)
	}
	mux.HandleFunc("GET /healthz", ok)
	mux.HandleFunc("GET /dapr/config", a.daprConfig)
	mux.HandleFunc("PUT /actors/{type}/{id}/method/{method}", a.actor(&a.Stats.ActorCalls, a.activated))
	mux.HandleFunc("PUT /actors/{type}/{id}/method/timer/{name}", a.actor(&a.Stats.Timers, nil))
	mux.HandleFunc("PUT /actors/{type}/{id}/method/remind/{name}", a.actor(&a.Stats.Reminders, nil))
	mux.HandleFunc("DELETE /actors/{type}/{id}", a.actor(&a.Stats.Deactivations, a.deactivated))
	return mux
}

// appRoute is one of the app's own routes, which either actor host serves; an empty method
// is any.
type appRoute struct {
	method, path string
	h            http.Handler
}

// appRoutes are the invocation method, the counters and the profile capture.
func (a *App) appRoutes() []appRoute {
	routes := []appRoute{{"", "/" + InvokeMethod, http.HandlerFunc(a.invoke)}, {http.MethodGet, "/stats", http.HandlerFunc(a.stats)}}
	if c := newProfileCapture(a.cfg); c != nil {
		routes = append(routes, appRoute{http.MethodGet, ProfileCapturePath, c})
	}
	if a.cfg.FaultToken != "" {
		routes = append(routes, appRoute{http.MethodPost, loadsettings.FaultPath, faultRoute{app: a, token: []byte(a.cfg.FaultToken)}})
	}
	return routes
}

func (a *App) invoke(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	a.Stats.Invocations.Add(1)
	if !a.passesFault() {
		http.Error(w, "daprbench: a fault of the run (spec.faults)", http.StatusInternalServerError)
		return
	}
	if a.cfg.DaprDelay > 0 && throughDapr(r.Header) {
		start := time.Now()
		fineclock.Sleep(a.cfg.DaprDelay)
		a.Stats.Delayed.Add(1)
		a.Stats.DelayedMicros.Add(time.Since(start).Microseconds())
	}
	_, _ = w.Write(a.response)
}

// throughDapr reports whether a request was forwarded by a Dapr sidecar.
func throughDapr(h http.Header) bool {
	for _, k := range KnownAnswerHeaders {
		if h.Get(k) != "" {
			return true
		}
	}
	return false
}

func (a *App) daprConfig(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(a.config)
}

// actor answers daprd's calls for the hosted type: 200 with an empty body (activation is
// implicit and stateless here), 404 for a type the app does not host. track, when set, is
// told the actor id.
func (a *App) actor(counter *atomic.Int64, track func(id string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if a.cfg.ActorType == "" || r.PathValue("type") != a.cfg.ActorType {
			http.Error(w, "actor type not hosted: "+r.PathValue("type"), http.StatusNotFound)
			return
		}
		counter.Add(1)
		if track != nil {
			track(r.PathValue("id"))
		}
		w.WriteHeader(http.StatusOK)
	}
}

// activated counts an actor id's first call (its activation).
func (a *App) activated(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, seen := a.actors[id]; seen || len(a.actors) >= maxTrackedActors {
		return
	}
	a.actors[id] = struct{}{}
	a.Stats.ActorsActivated.Add(1)
}

// deactivated forgets an id, so a later call activates the actor again, as in Dapr.
func (a *App) deactivated(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.actors, id)
}

func (a *App) stats(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]int64{
		"invocations":     a.Stats.Invocations.Load(),
		"actorCalls":      a.Stats.ActorCalls.Load(),
		"actorsActivated": a.Stats.ActorsActivated.Load(),
		"deactivations":   a.Stats.Deactivations.Load(),
		"timers":          a.Stats.Timers.Load(),
		"reminders":       a.Stats.Reminders.Load(),
		"delayed":         a.Stats.Delayed.Load(),
		"delayedMicros":   a.Stats.DelayedMicros.Load(),
		"faulted":         a.Stats.Faulted.Load(),
	})
}

func ok(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }
