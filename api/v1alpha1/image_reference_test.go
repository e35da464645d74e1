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

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/distribution/reference"
)

// The CRD's image Pattern admits what the kubelet's parser admits and refuses what it
// refuses, on names of the kinds earlier reviews found admitted.
func TestImageReferencePatternIsTheKubeletsGrammar(t *testing.T) {
	for _, file := range []string{"perfrun_types.go", "perfrun_variant_types.go", "perfsweep_setting_types.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "// +kubebuilder:validation:Pattern=`"+ImageReferencePattern+"`") {
			t.Errorf("%s: an image field's Pattern is not ImageReferencePattern", file)
		}
	}
	pattern := regexp.MustCompile(ImageReferencePattern)
	digest := "sha256:" + strings.Repeat("ab", 32)
	for _, name := range []string{
		"daprbench", "daprbench:dev", "ghcr.io/dapr/daprd:1.16.0", "ghcr.io/dapr/daprd@" + digest,
		"ghcr.io/dapr/daprd:1.16.0@" + digest, "localhost:5000/bench/app_v2:latest", "Registry.Example.com/a/b", "a__b/c-d.e:T_1",
		"my-registry:443/x", "docker.io/library/busybox", "a/b/c/d/e/f:1",
		// Refused by the kubelet; some passed the old character check.
		"ghcr.io/dapr/../daprd", "ghcr.io/Dapr/daprd", "ghcr.io//daprd", "daprd:", "daprd@sha256:abc", "daprd@md5:" + strings.Repeat("ab", 16),
		"daprd:" + strings.Repeat("t", 129), "-daprd", "daprd-", "daprd:.tag", "ghcr.io/dapr/daprd:1.16.0 --privileged",
		"ghcr.io/dapr/daprd@SHA256:" + strings.Repeat("AB", 32), "UPPER", "a/b:c:d", "a..b/c", "ghcr.io:port/x",
	} {
		_, err := reference.ParseNormalizedNamed(name)
		if kubelet, ours := err == nil, pattern.MatchString(name); kubelet != ours {
			t.Errorf("%q: the kubelet's parser admits it: %v (%v), the Pattern: %v", name, kubelet, err, ours)
		}
	}
}
