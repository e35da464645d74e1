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

// Histograms are every path's merged histograms, in microseconds: the report carries them
// whole, and the result document keeps them for `kubectl daprbench export --format fortio`
// and the report's latency distribution.
type Histograms struct {
	Paths []PathHistograms `json:"paths,omitempty"`
}

// PathHistograms are one path's latency (from each request's scheduled send) and service
// time (from its actual send), each as EncodeHistogram writes it (HDR V2 compressed, base64).
type PathHistograms struct {
	Variant Variant `json:"variant"`
	Latency string  `json:"latency"`
	Service string  `json:"service"`
}
