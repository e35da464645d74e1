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

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A daprd CPU profile (spec.profiling) is far larger than the 4 KiB termination message:
// like the histograms, each leaves the load tester as one line of its log, printed just
// before the histograms line, and the controller keeps it in a ConfigMap owned by the run.

// ProfilePrefix starts a profile line; the rest is the JSON of Profile.
const ProfilePrefix = "daprbench-profile "

// MaxProfileBytes bounds one profile (gzipped pprof, as daprd serves it): two of them, the
// server's and the client's, must fit one ConfigMap's 1 MiB with room for its metadata.
const MaxProfileBytes = 480 << 10

// MaxProfileLineBytes bounds a profile line: the prefix, the profile in base64 and the
// window's few fields.
const MaxProfileLineBytes = len(ProfilePrefix) + (MaxProfileBytes+2)/3*4 + 4<<10

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

// Line is p as the load tester prints it.
func (p Profile) Line() (string, error) {
	if len(p.Pprof) > MaxProfileBytes {
		return "", fmt.Errorf("the %s profile takes %d bytes, more than %d", p.Role, len(p.Pprof), MaxProfileBytes)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return ProfilePrefix + string(b), nil
}

// FindProfiles reads the profile lines of a log, the last one of each role, in the order
// they first appear. A line that is too long or not a profile is skipped and counted in
// bad.
func FindProfiles(log []byte) (profiles []Profile, bad int) {
	byRole := map[string]int{}
	for _, line := range strings.Split(string(log), "\n") {
		body, found := strings.CutPrefix(strings.TrimSpace(line), ProfilePrefix)
		if !found {
			continue
		}
		var p Profile
		if len(body) > MaxProfileLineBytes || json.Unmarshal([]byte(body), &p) != nil || len(p.Pprof) > MaxProfileBytes ||
			(p.Role != ProfileServerSidecar && p.Role != ProfileClientSidecar) {
			bad++
			continue
		}
		if i, seen := byRole[p.Role]; seen {
			profiles[i] = p
			continue
		}
		byRole[p.Role] = len(profiles)
		profiles = append(profiles, p)
	}
	return profiles, bad
}
