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

package diagnose

import (
	"strings"
	"testing"
)

func TestSidecarSkew(t *testing.T) {
	for _, tc := range []struct {
		controlPlane, image, want string
	}{
		{"1.16.0", "ghcr.io/dapr/daprd:1.16.0", ""},
		{"1.16.0", "ghcr.io/dapr/daprd:1.16.3-mariner", ""},
		{"1.16.0", "registry.local:5000/dapr/daprd:1.15.5", ""}, // one minor older: an upgrade in progress
		{"1.16.0", "ghcr.io/dapr/daprd:1.14.0", "more than one minor version behind"},
		{"1.16.0", "ghcr.io/dapr/daprd:v1.17.0-rc.1", "newer than control plane"},
		{"1.16.0", "ghcr.io/dapr/daprd:2.0.0", "newer than control plane"},
		{"1.16.0", "registry.local:5000/daprd", "has no version tag"},
		{"1.16.0", "ghcr.io/dapr/daprd@sha256:abc", "has no version tag"},
		{"dev", "ghcr.io/dapr/daprd:1.10.0", ""}, // an unversioned control plane: nothing to judge
	} {
		got := SidecarSkew(tc.controlPlane, tc.image)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("SidecarSkew(%s, %s) = %q, want %q", tc.controlPlane, tc.image, got, tc.want)
		}
	}
}

func TestQuoteKeepsAUsersTextToOnePrintableLine(t *testing.T) {
	got := Quote("by ci\x1b]52;c;ZXZpbA==\x07\nFailed: reason Forged\u202e é", 1024)
	for _, bad := range []string{"\x1b", "\x07", "\n", "\u202e"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q kept %q", got, bad)
		}
	}
	if !strings.HasPrefix(got, "by ci") || !strings.HasSuffix(got, "é") {
		t.Errorf("%q lost the text itself", got)
	}
	if cut := Quote(strings.Repeat("é", 10), 5); cut != "éé…" {
		t.Errorf("cut %q, want two whole characters and an ellipsis", cut)
	}
	if q := Quote("a\xffb", 10); q != "a\uFFFDb" {
		t.Errorf("invalid UTF-8 gave %q", q)
	}
}
