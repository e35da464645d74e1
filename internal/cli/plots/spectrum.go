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

package plots

import (
	"math"
	"strconv"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// SpectrumPercentiles are where the latency distribution is drawn: the body and the tail
// out to one request in ten thousand.
var SpectrumPercentiles = []float64{0, 50, 75, 90, 99, 99.9, 99.99}

// Path is one measured path's latency histogram (microseconds), as the report draws it.
type Path struct {
	Name      string
	Histogram *hdrhistogram.Histogram
}

// LatencySpectrum is a run's latency distribution, every path on one chart: latency at
// each percentile, the percentiles spread on a log scale of 1/(1−p) so the tail (99.9%,
// 99.99%) gets as much room as the body, as HdrHistogram's own plots do.
func LatencySpectrum(paths []Path) Chart {
	c := Chart{Name: "latency-distribution", Title: "Latency distribution, from each request's scheduled send",
		XLabel: "percentile", YLabel: "latency (ms)", LogX: true, XTickLabel: percentileOf}
	for _, p := range paths {
		s := Series{Name: p.Name}
		for _, pc := range SpectrumPercentiles {
			s.X = append(s.X, 1/(1-pc/100))
			s.Y = append(s.Y, float64(p.Histogram.ValueAtPercentile(pc))/1000)
		}
		c.Series = append(c.Series, s)
	}
	return c
}

// percentileOf names the tick at x = 1/(1−p): "99.9%".
func percentileOf(x float64) string {
	p := 100 * (1 - 1/x)
	return strconv.FormatFloat(math.Round(p*100)/100, 'f', -1, 64) + "%"
}
