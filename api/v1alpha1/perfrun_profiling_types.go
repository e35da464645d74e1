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

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ProfilingSpec asks for a CPU profile of both daprd sidecars (the target's, which serves
// the calls, and the load tester's, which makes them), taken by the load tester over a
// window centred in a measured phase of the Dapr path. Set, it is on.
type ProfilingSpec struct {
	// seconds is the length of the profiling window, between 1 and 60. The window is
	// centred in the first whole measured phase of the Dapr path with 2s of the phase clear
	// on each side (where the load ramps): at most load.duration − 4s, or half of it less 4s
	// with one repetition of 60s or more (measured in two halves).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=60
	// +kubebuilder:default=10
	// +optional
	Seconds int32 `json:"seconds,omitempty"`
}

// EffectiveSeconds is the window's length (10 when unset).
func (p *ProfilingSpec) EffectiveSeconds() int32 {
	if p == nil || p.Seconds == 0 {
		return 10
	}
	return p.Seconds
}

// ProfileRole names a profiled sidecar.
// +kubebuilder:validation:Enum=serverSidecar;clientSidecar
type ProfileRole string

const (
	// ProfileServerSidecar is the target's daprd, which receives the calls.
	ProfileServerSidecar ProfileRole = "serverSidecar"
	// ProfileClientSidecar is the load tester's daprd (group pod 0's), which makes them.
	ProfileClientSidecar ProfileRole = "clientSidecar"
)

// ProfilesStatus says where a run's CPU profiles are kept and what each holds.
type ProfilesStatus struct {
	// configMap holds each stored profile (binaryData <role>.pprof, gzipped pprof as daprd
	// served it): `kubectl daprbench report` writes them out for `go tool pprof`.
	// +optional
	ConfigMap string `json:"configMap,omitempty"`
	// generation is the generation whose load the profiles are of.
	// +optional
	Generation int64 `json:"generation,omitempty"`
	// sidecars are the profiled sidecars, stored or not.
	// +listType=map
	// +listMapKey=role
	// +optional
	Sidecars []SidecarProfile `json:"sidecars,omitempty"`
}

// SidecarProfile is one sidecar's profile: its window and size, or why there is none.
type SidecarProfile struct {
	// role is the sidecar: serverSidecar or clientSidecar.
	Role ProfileRole `json:"role"`
	// start is when the load tester asked daprd for the profile (the window's start).
	// +optional
	Start *metav1.Time `json:"start,omitempty"`
	// seconds is the window's length.
	// +optional
	Seconds int32 `json:"seconds,omitempty"`
	// bytes is the size of the stored profile (gzipped pprof); 0 when none is stored.
	// +optional
	Bytes int64 `json:"bytes,omitempty"`
	// key is the profile's key in the ConfigMap's binaryData; empty when none is stored.
	// +optional
	Key string `json:"key,omitempty"`
	// digest is the stored profile's SHA-256 ("sha256:<hex>"): the ConfigMap is rewritten by
	// each measured generation and writable by the namespace, so a reader shows the profile
	// under key only when it is this one.
	// +optional
	Digest string `json:"digest,omitempty"`
	// failure says why no profile is stored: the capture failed, or the profile was not
	// a valid pprof profile or too large.
	// +optional
	Failure string `json:"failure,omitempty"`
}
