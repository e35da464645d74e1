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
	"fmt"
	"math"
	"strconv"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/plots"
)

// faultSecondCharts draw each fault's path second by second through its phases (the
// result's timeline, the phases pooled by second): one chart of the successes' p50 and p99
// from their scheduled sends, one of the share of requests failed, each with the fault's
// span (its start and its mean end over the phases, as faultEnd reads it) drawn as a box.
func faultSecondCharts(spec *perfv1alpha1.PerfRunSpec, res *perfv1alpha1.Result) []plots.Chart {
	if res == nil {
		return nil
	}
	var charts []plots.Chart
	named := map[string]int{}
	for _, o := range res.Faults {
		t := o.Timeline
		if t == nil || len(t.Requests) == 0 || len(t.Errors) != len(t.Requests) || len(t.P50Micros) != len(t.Requests) || len(t.P99Micros) != len(t.Requests) {
			continue
		}
		p50 := plots.Series{Name: "p50 of the second's successes"}
		p99 := plots.Series{Name: "p99 of the second's successes"}
		failed := plots.Series{Name: "requests failed in the second"}
		top, topShare := 0.0, 0.0
		for k := range t.Requests {
			x := float64(k) + 0.5 // the second's middle
			if t.P99Micros[k] > 0 {
				p50.X, p50.Y = append(p50.X, x), append(p50.Y, float64(t.P50Micros[k])/1000)
				p99.X, p99.Y = append(p99.X, x), append(p99.Y, float64(t.P99Micros[k])/1000)
				top = math.Max(top, float64(t.P99Micros[k])/1000)
			}
			if t.Requests[k] > 0 {
				share := 100 * float64(t.Errors[k]) / float64(t.Requests[k])
				failed.X, failed.Y = append(failed.X, x), append(failed.Y, share)
				topShare = math.Max(topShare, share)
			}
		}
		base := "fault-" + strconv.Itoa(int(o.Fault)) + "-" + fileSafe(o.Path)
		what := fmt.Sprintf("Fault %d (%s), %s, by second over %d phases", o.Fault, o.Kind, o.Path, o.Applied)
		charts = append(charts,
			plots.Chart{Name: uniqueName(named, base+"-latency"), Title: what + ": latency",
				XLabel: "seconds into the phase", YLabel: "latency (ms)", Series: withFaultBox(spec, o, []plots.Series{p99, p50}, top)},
			plots.Chart{Name: uniqueName(named, base+"-errors"), Title: what + ": errors",
				XLabel: "seconds into the phase", YLabel: "requests failed (%)", Series: withFaultBox(spec, o, []plots.Series{failed}, math.Max(topShare, 1))})
	}
	return charts
}

// withFaultBox adds the fault's span to series as a box from 0 to top: from its start in
// the phase to its mean end. None when the spec does not say when it began.
func withFaultBox(spec *perfv1alpha1.PerfRunSpec, o perfv1alpha1.FaultOutcome, series []plots.Series, top float64) []plots.Series {
	start := faultAt(spec, o)
	if start < 0 {
		return series
	}
	end := faultEnd(spec, o)
	return append(series, plots.Series{Name: "the fault (its mean span over the phases)",
		X: []float64{start, start, end, end}, Y: []float64{0, top, top, 0}})
}

// faultAt is the fault's start in its phase, from the spec; -1 when the spec does not hold it.
func faultAt(spec *perfv1alpha1.PerfRunSpec, o perfv1alpha1.FaultOutcome) float64 {
	f, ok := specFault(spec, o)
	if !ok {
		return -1
	}
	return f.At.Seconds()
}

// specFault is the spec's fault an outcome is of; false when the spec no longer holds it
// (none at its index, or one of another kind).
func specFault(spec *perfv1alpha1.PerfRunSpec, o perfv1alpha1.FaultOutcome) (perfv1alpha1.Fault, bool) {
	if spec == nil || o.Fault < 0 || int(o.Fault) >= len(spec.Faults) || spec.Faults[o.Fault].Kind != o.Kind {
		return perfv1alpha1.Fault{}, false
	}
	return spec.Faults[o.Fault], true
}
