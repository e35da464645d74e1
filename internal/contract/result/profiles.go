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

import "fmt"

// A daprd CPU profile (spec.profiling) travels in the report beside the histograms, and the
// operator keeps it in a ConfigMap owned by the run.

// MaxProfileBytes bounds one profile (gzipped pprof, as daprd serves it): two of them, the
// server's and the client's, must fit one ConfigMap's 1 MiB with room for its metadata.
const MaxProfileBytes = 480 << 10

// Profile roles, as the load tester names them (the API's ProfileRole values).
const (
	ProfileServerSidecar = "serverSidecar"
	ProfileClientSidecar = "clientSidecar"
)

// Profile is one daprd's CPU profile over the window, or why there is none.
type Profile struct {
	Role string `json:"role"`
	// StartUnix is when the profile was asked for (the window's start), in Unix seconds.
	StartUnix int64 `json:"startUnix,omitempty"`
	Seconds   int   `json:"seconds,omitempty"`
	// Pprof is the profile as daprd's /debug/pprof/profile served it (gzipped protobuf).
	Pprof []byte `json:"pprof,omitempty"`
	// Error says why there is no profile.
	Error string `json:"error,omitempty"`
}

// checkProfiles refuses profiles the load tester would not write: a role it does not
// profile, a role twice, or a profile over MaxProfileBytes.
func checkProfiles(profiles []Profile) error {
	seen := map[string]bool{}
	for _, p := range profiles {
		if p.Role != ProfileServerSidecar && p.Role != ProfileClientSidecar || seen[p.Role] {
			return fmt.Errorf("a profile of role %q: not one the load tester takes, or taken twice", p.Role)
		}
		if len(p.Pprof) > MaxProfileBytes {
			return fmt.Errorf("the %s profile takes %d bytes, more than %d", p.Role, len(p.Pprof), MaxProfileBytes)
		}
		seen[p.Role] = true
	}
	return nil
}
