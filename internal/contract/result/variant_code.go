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
	"fmt"
	"strconv"
)

// MaxPaths bounds the paths one run's histograms may hold. A run measures at most the
// baseline, the direct path and one Dapr path per sidecar variant (spec.variants holds at
// most 4); the rest is headroom. Each path decodes to a few hundred KiB, so the bound is
// what keeps a crafted ConfigMap of thousands of tiny histograms from costing gigabytes.
const MaxPaths = 16

// maxDaprVariant is the highest sidecar variant index a code may carry (d1 … d99): far
// above what spec.variants admits, low enough that a code stays a short token.
const maxDaprVariant = 99

// Valid reports whether v is a code the load tester writes: b, d, x, c, s, or d1 … d99 as
// DaprVariant makes them, without sign or leading zero. A variant read from a log or a
// ConfigMap can be any text, and readers build file names and labels from it.
func (v Variant) Valid() bool {
	switch v {
	case Baseline, Dapr, Direct, ClientOnly, ServerOnly:
		return true
	}
	s := string(v)
	if len(s) < 2 || len(s) > 3 || s[0] != 'd' || s[1] == '0' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	n, err := strconv.Atoi(s[1:])
	return err == nil && n >= 1 && n <= maxDaprVariant
}

// Check refuses histograms the load tester cannot have written: more than MaxPaths paths,
// a variant that is not a code (Valid), or a path twice. Whoever copies histograms from a
// log, or reads them from a ConfigMap, calls it before trusting them.
func (h Histograms) Check() error {
	if len(h.Paths) > MaxPaths {
		return fmt.Errorf("histograms of %d paths, more than the %d a run measures", len(h.Paths), MaxPaths)
	}
	seen := map[Variant]bool{}
	for _, p := range h.Paths {
		if !p.Variant.Valid() {
			return fmt.Errorf("histograms of a path whose variant %q is not a variant code (b, d, x, c, s, d1 … d%d)", string(p.Variant), maxDaprVariant)
		}
		if seen[p.Variant] {
			return fmt.Errorf("histograms of the %s path twice", p.Variant)
		}
		seen[p.Variant] = true
	}
	return nil
}
