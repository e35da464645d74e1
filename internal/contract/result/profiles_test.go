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
	"bytes"
	"strings"
	"testing"
)

func TestProfileLinesRoundTripTheLastOfEachRole(t *testing.T) {
	first, _ := Profile{Role: ProfileServerSidecar, StartUnix: 1, Seconds: 5, Pprof: []byte{0x1f, 0x8b, 1}}.Line()
	client, _ := Profile{Role: ProfileClientSidecar, Error: "connection refused"}.Line()
	last, _ := Profile{Role: ProfileServerSidecar, StartUnix: 2, Seconds: 5, Pprof: []byte{0x1f, 0x8b, 2}}.Line()
	log := strings.Join([]string{`{"fortio":"json"}`, first, client, last, ProfilePrefix + "{not json", ProfilePrefix + `{"role":"../x"}`, "done"}, "\n")
	got, bad := FindProfiles([]byte(log))
	if bad != 2 {
		t.Errorf("bad = %d, want 2 (the broken line and the unknown role)", bad)
	}
	if len(got) != 2 || got[0].Role != ProfileServerSidecar || got[0].StartUnix != 2 || !bytes.Equal(got[0].Pprof, []byte{0x1f, 0x8b, 2}) ||
		got[1].Role != ProfileClientSidecar || got[1].Error != "connection refused" {
		t.Errorf("FindProfiles = %+v", got)
	}
}

func TestProfileLineIsBounded(t *testing.T) {
	if _, err := (Profile{Role: ProfileServerSidecar, Pprof: make([]byte, MaxProfileBytes+1)}).Line(); err == nil {
		t.Error("an oversize profile made a line")
	}
	line, err := Profile{Role: ProfileServerSidecar, StartUnix: 1 << 40, Seconds: 60, Pprof: make([]byte, MaxProfileBytes)}.Line()
	if err != nil || len(line) > MaxProfileLineBytes {
		t.Errorf("the largest profile's line: %d bytes (bound %d), %v", len(line), MaxProfileLineBytes, err)
	}
	if got, bad := FindProfiles([]byte(line)); len(got) != 1 || bad != 0 {
		t.Errorf("the largest line does not read back: %d profiles, %d bad", len(got), bad)
	}
}
