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
// server sidecar only, and both (the Dapr path). Each part is a contrast of the paths, with
// its interval:
//
//	client      = client only − direct
//	server      = server only − direct
//	interaction = both − client only − server only + direct   (means only)
//
// Only means add up: client + server + interaction is exactly what Dapr adds (both −
// direct) at the mean. At a percentile a sum of delays has no such split (independent
// exponential delays of 1 ms and 0.8 ms give a p99 "interaction" of about −2 ms), so the
// interaction carries its mean alone, and client and server at a percentile are each
// one-sidecar path's own latency over direct, read on their own (no sum is claimed).
type Attribution struct {
	// Paths is each path's own latency with its interval, in the order b, c, s, d.
	Paths []PathEstimate `json:"p,omitempty"`
	// Client and Server are the one-sidecar paths over direct (mean and percentiles);
	// Interaction has a mean only (Percentiles empty).
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
