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
	"fmt"
	"strconv"
	"strings"
)

// ImageTag is an image reference's tag ("" when it has none, or only a digest).
func ImageTag(ref string) string {
	if i := strings.LastIndex(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		return ref[i+1:]
	}
	return ""
}

// SidecarSkew says why a daprd image may not work with the control plane, "" when the pair
// is one Dapr supports: a sidecar of the control plane's minor version, or one minor
// version older (the state of every pod during an upgrade, before its restart). A tag that
// is not a version (dev, latest, a digest) cannot be judged and is named as such.
func SidecarSkew(controlPlaneVersion, sidecarImage string) string {
	tag := ImageTag(sidecarImage)
	cpMajor, cpMinor, okCP := majorMinor(controlPlaneVersion)
	major, minor, ok := majorMinor(tag)
	switch {
	case !okCP:
		return ""
	case !ok:
		return fmt.Sprintf("sidecar image %s has no version tag: its compatibility with control plane %s cannot be checked", sidecarImage, controlPlaneVersion)
	case major != cpMajor || minor > cpMinor:
		return fmt.Sprintf("sidecar %s is newer than control plane %s: Dapr supports sidecars of the control plane's version or one minor older", tag, controlPlaneVersion)
	case minor < cpMinor-1:
		return fmt.Sprintf("sidecar %s is more than one minor version behind control plane %s: Dapr supports sidecars of the control plane's version or one minor older", tag, controlPlaneVersion)
	}
	return ""
}

// AtLeast reports whether version (as majorMinor reads it) is major.minor or later; known
// is false when the version cannot be read.
func AtLeast(version string, major, minor int) (atLeast, known bool) {
	ma, mi, ok := majorMinor(version)
	if !ok {
		return false, false
	}
	return ma > major || (ma == major && mi >= minor), true
}

// majorMinor reads "1.16.0", "v1.16.0-rc.1" or "1.16.0-mariner".
func majorMinor(v string) (major, minor int, ok bool) {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.SplitN(parts[1], "-", 2)[0])
	return major, minor, err1 == nil && err2 == nil
}
