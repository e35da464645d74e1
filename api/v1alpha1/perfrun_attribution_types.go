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

package v1alpha1

// Attribution splits the latency Dapr adds between the two sidecars, from the four paths
// of a spec.serviceInvocation.paths FourPaths run measured in the same repetitions, with intervals:
//
//	clientSidecar = client sidecar only − direct
//	serverSidecar = server sidecar only − direct
//	interaction   = both − client sidecar only − server sidecar only + direct   (mean only)
//
// Only means add up: the three means make result.added's mean. At a percentile the parts
// of a sum of delays do not add (independent delays give a nonzero percentile
// "interaction"), so clientSidecar and serverSidecar are there each one-sidecar path's own
// latency over direct, and interaction has no percentiles. The interaction's mean is what
// the sidecars cost together beyond each alone: the sidecar-to-sidecar hop (gRPC, mTLS when
// the cluster has it on) in place of the one-sidecar paths' plain HTTP hops, and any
// queueing one sidecar's delay causes in the other.
type Attribution struct {
	// paths is each path's latency with its interval: direct, clientSidecarOnly,
	// serverSidecarOnly and bothSidecars. The intervals are absent when the load tester's
	// summary had no room for them (the latencies then come from the merged histograms).
	// +listType=map
	// +listMapKey=path
	// +kubebuilder:validation:MaxItems=4
	// +optional
	Paths []AttributedPath `json:"paths,omitempty"`
	// clientSidecar is the client-sidecar-only path over direct: the calling sidecar's part
	// at the mean, that path's added latency at each percentile.
	// +optional
	ClientSidecar *AttributedLatency `json:"clientSidecar,omitempty"`
	// serverSidecar is the server-sidecar-only path over direct: the called sidecar's part
	// at the mean, that path's added latency at each percentile.
	// +optional
	ServerSidecar *AttributedLatency `json:"serverSidecar,omitempty"`
	// interaction is what the two cost together beyond each alone, at the mean only
	// (negative when they overlap).
	// +optional
	Interaction *AttributedLatency `json:"interaction,omitempty"`
}

// Path names of an attribution.
const (
	PathDirect            = "direct"
	PathClientSidecarOnly = "clientSidecarOnly"
	PathServerSidecarOnly = "serverSidecarOnly"
	PathBothSidecars      = "bothSidecars"
)

// AttributedPath is one path's latency with its interval.
type AttributedPath struct {
	// path is direct, clientSidecarOnly, serverSidecarOnly or bothSidecars.
	// +kubebuilder:validation:Enum=direct;clientSidecarOnly;serverSidecarOnly;bothSidecars
	Path string `json:"path"`
	// latency over every request of the path (its merged histogram).
	// +optional
	Latency *LatencySummary `json:"latency,omitempty"`
	// interval of each figure, between repetitions.
	// +optional
	Interval *LatencyInterval `json:"interval,omitempty"`
}

// AttributedLatency is one part of the added latency with its interval.
type AttributedLatency struct {
	// +optional
	Latency *LatencySummary `json:"latency,omitempty"`
	// +optional
	Interval *LatencyInterval `json:"interval,omitempty"`
}
