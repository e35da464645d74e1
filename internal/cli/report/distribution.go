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

package report

import (
	"strings"

	"github.com/daprbench/daprbench/internal/cli/export"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
)

// distributionChart is a run's latency distribution (every path, from its histograms);
// ok is false for a run without histograms. note says why histograms the run has were
// not drawn, or which of their paths were left out.
func distributionChart(run document.Run) (chart plots.Chart, ok bool, note string) {
	h := export.Histograms(run)
	if len(h.Paths) == 0 {
		return plots.Chart{}, false, ""
	}
	checked, skipped, err := export.CheckedPaths(h)
	if err != nil {
		return plots.Chart{}, false, "latency distribution not drawn: " + err.Error()
	}
	var paths []plots.Path
	for _, p := range checked {
		if hist, err := result.DecodeHistogram(p.Latency); err == nil {
			paths = append(paths, plots.Path{Name: p.Variant.String(), Histogram: hist})
		}
	}
	if len(skipped) > 0 {
		note = "latency distribution: " + strings.Join(skipped, "; ")
	}
	return plots.LatencySpectrum(paths), len(paths) > 0, note
}
