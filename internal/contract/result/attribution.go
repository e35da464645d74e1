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

package result

// Attribution splits the latency Dapr adds between the two sidecars, from the four paths
// measured in the same repetitions: direct (the baseline, no sidecar), client sidecar only,
// server sidecar only, and both (the Dapr path). Each part is a contrast of the paths'
// latencies at the same percentile, with its interval:
//
//	client      = client only − direct
//	server      = server only − direct
//	interaction = both − client only − server only + direct
//
// so that client + server + interaction is exactly what Dapr adds (both − direct). The
// interaction is what the two sidecars cost together beyond each alone: the hop between
// them (gRPC, with mTLS when the cluster has it on) in place of the plain HTTP hops the
// one-sidecar paths make, and any queueing one sidecar's delay causes in the other.
type Attribution struct {
	// Paths is each path's own latency with its interval, in the order b, c, s, d.
	Paths []PathEstimate `json:"p,omitempty"`
	// Client, Server and Interaction are the three parts.
	Client      Added `json:"c"`
	Server      Added `json:"s"`
	Interaction Added `json:"i"`
}

// PathEstimate is one path's latency per percentile with its interval.
type PathEstimate struct {
	Variant  Variant `json:"v"`
	Estimate Added   `json:"e"`
}

// AttributionPaths are the four paths an attribution contrasts, in the order its Paths list them.
var AttributionPaths = []Variant{Baseline, ClientOnly, ServerOnly, Dapr}
