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

package export

import (
	"fmt"

	"github.com/daprbench/daprbench/internal/contract/result"
)

// The histograms ConfigMap is anyone's who may edit ConfigMaps in the run's namespace, and
// the controller copies the load tester's log into it: its paths are checked here before
// the plugin decodes one or names a file or a chart series after it.

// CheckedPaths are the paths of h the plugin uses. More than result.MaxPaths is refused
// before any is decoded (each decodes to a few hundred KiB); a path whose variant is not
// a variant code, or that repeats one, is left out, and skipped says so.
func CheckedPaths(h result.Histograms) (paths []result.PathHistograms, skipped []string, err error) {
	if len(h.Paths) > result.MaxPaths {
		return nil, nil, fmt.Errorf("the histograms hold %d paths, more than the %d a run measures: refusing to decode them", len(h.Paths), result.MaxPaths)
	}
	seen := map[result.Variant]bool{}
	for _, p := range h.Paths {
		switch {
		case !p.Variant.Valid():
			skipped = append(skipped, fmt.Sprintf("skipped a path whose variant %q is not a variant code", string(p.Variant)))
		case seen[p.Variant]:
			skipped = append(skipped, fmt.Sprintf("skipped a second %s path", p.Variant))
		default:
			seen[p.Variant] = true
			paths = append(paths, p)
		}
	}
	return paths, skipped, nil
}

// FortioFileName is the file of one path's fortio result: the run's name (an API object's
// name: no slash) and the variant's readable name, for variant codes only.
func FortioFileName(runName string, v result.Variant) (string, error) {
	if !v.Valid() {
		return "", fmt.Errorf("variant %q is not a variant code", string(v))
	}
	return runName + "-" + v.String() + ".json", nil
}
