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
	"net/http"
	"sync/atomic"

	"github.com/dapr/go-sdk/actor"
	"github.com/dapr/go-sdk/service/common"
	daprhttp "github.com/dapr/go-sdk/service/http"
	"github.com/go-chi/chi/v5"
)

// SDKActorMethod is the one method of the GoSDK host's actor (api GoSDKActorMethod): the
// SDK calls an actor's exported Go methods by name.
const SDKActorMethod = "Activate"

// SDKActor is the GoSDK host's actor, as a Go user writes one: the SDK's base embedded, its
// Type and one method. Exported, as the SDK refuses an unexported actor type. The SDK makes
// one per activation (its factory is called for an id it holds no actor of) and keeps it
// until daprd deactivates the id.
type SDKActor struct {
	actor.ServerImplBaseCtx
	app    *App
	called atomic.Bool
}

// Type is the actor type the app hosts.
func (p *SDKActor) Type() string { return p.app.cfg.ActorType }

// Activate does nothing but count: every call, and the instance's first as its activation.
func (p *SDKActor) Activate(context.Context) error {
	p.app.Stats.ActorCalls.Add(1)
	if p.called.CompareAndSwap(false, true) {
		p.app.Stats.ActorsActivated.Add(1)
	}
	return nil
}

// sdkService is the GoSDK host: Dapr's Go SDK HTTP service listening on addr, over a chi
// mux carrying the app's own routes. The SDK adds /healthz (the readiness probe's),
// /dapr/config and the actor routes when it starts; the actor's calls are the SDK's from
// the socket to Activate.
//
// The SDK's actor runtime is a process global: one GoSDK host, of one type, per process.
func (a *App) sdkService(addr string) common.Service {
	mux := chi.NewRouter()
	mux.Use(a.sameActorConfig) // chi takes middleware before any route
	for _, r := range a.appRoutes() {
		if r.method == "" {
			mux.Handle(r.path, r.h)
		} else {
			mux.Method(r.method, r.path, r.h)
		}
	}
	s := daprhttp.NewServiceWithMux(addr, mux)
	if a.cfg.ActorType != "" {
		s.RegisterActorImplFactoryContext(func() actor.ServerContext { return &SDKActor{app: a} })
	}
	return s
}

// sameActorConfig answers daprd's GET /dapr/config with the minimal host's document. The
// Go SDK v1.13.0 has no option for actorIdleTimeout, drainOngoingCallTimeout or
// drainRebalancedActors (its document leaves them empty: daprd's defaults), so without this
// the two hosts' actors would live under different settings and a comparison of the two
// would hold more than the SDK's share. A middleware, as the SDK registers its own route
// when it starts; only this one request is answered here.
func (a *App) sameActorConfig(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/dapr/config" {
			a.daprConfig(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
