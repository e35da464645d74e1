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

import "fmt"

// ActorHost is the runtime the app hosts its actor type with: the operator passes a run's
// spec.actors.host (api ActorHost, spelled out here: the app does not link the API).
type ActorHost string

const (
	// ActorHostMinimal answers daprd's actor protocol by hand (app.go): any method, an
	// empty answer, activation a map entry.
	ActorHostMinimal ActorHost = "Minimal"
	// ActorHostGoSDK serves the app's HTTP port through Dapr's Go SDK, whose actor runtime
	// hosts SDKActor (sdk_actor.go).
	ActorHostGoSDK ActorHost = "GoSDK"
)

// String and Set make an ActorHost a flag.
func (h *ActorHost) String() string { return string(*h) }

func (h *ActorHost) Set(s string) error {
	switch v := ActorHost(s); v {
	case ActorHostMinimal, ActorHostGoSDK:
		*h = v
		return nil
	}
	return fmt.Errorf("%q is no actor host: %s or %s", s, ActorHostMinimal, ActorHostGoSDK)
}
