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

package accounting

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/kit/stats"
)

// daprdGauges are the gauges a daprd trend is fitted to, as the result names them.
var daprdGauges = []struct {
	name  string
	value func(result.Gauges) int64
}{
	{"goroutines", func(g result.Gauges) int64 { return g.Goroutines }},
	{"openFDs", func(g result.Gauges) int64 { return g.OpenFDs }},
}

// DaprdTrends fits each daprd's goroutines and open files against time over the measured
// load: the readings inside the phases of the measured variant (the Dapr path's, where
// both daprds carry the load; a baseline phase idles them), trim inside each, over a load
// from the first such phase's start to the last one's end. A daprd restarted mid-run
// starts its counts over: only its last process's readings count. None for a load shorter
// than MinTrendSpan or a daprd with fewer than minTrendWindows readings; clientSidecar,
// then serverSidecar.
func DaprdTrends(readings []result.DaprdGauges, phases []Phase, measured string, trim time.Duration) []perfv1alpha1.DaprdTrend {
	own, ok := phasesOf(phases, measured, trim)
	if !ok {
		return nil
	}
	inLoad := func(at time.Time) bool {
		for _, p := range own {
			if !at.Before(p.Start.Add(trim)) && !at.After(p.End.Add(-trim)) {
				return true
			}
		}
		return false
	}
	var out []perfv1alpha1.DaprdTrend
	for _, sidecar := range []struct {
		role  roles.Role
		gauge func(result.DaprdGauges) *result.Gauges
	}{
		{roles.ClientSidecar, func(r result.DaprdGauges) *result.Gauges { return r.Client }},
		{roles.ServerSidecar, func(r result.DaprdGauges) *result.Gauges { return r.Server }},
	} {
		var read []result.Gauges
		for _, r := range readings {
			if g := sidecar.gauge(r); g != nil && inLoad(g.At) {
				read = append(read, *g)
			}
		}
		read = lastProcess(read)
		if len(read) < minTrendWindows {
			continue
		}
		from := own[0].Start
		x := make([]float64, len(read))
		for i, g := range read {
			x[i] = g.At.Sub(from).Hours()
		}
		for _, gauge := range daprdGauges {
			y := make([]float64, len(read))
			for i, g := range read {
				y[i] = float64(gauge.value(g))
			}
			s, ok := stats.SlopeInterval(x, y)
			if !ok {
				continue
			}
			out = append(out, perfv1alpha1.DaprdTrend{Sidecar: string(sidecar.role), Gauge: gauge.name,
				PerHour: decimal(s.Slope), Low: decimal(s.Low), High: decimal(s.High), Lag1: decimal(s.Lag1),
				Readings: int32(len(x)), Span: metav1.Duration{Duration: read[len(read)-1].At.Sub(read[0].At).Round(time.Second)},
				Start: decimal(s.Intercept + s.Slope*x[0]), End: decimal(s.Intercept + s.Slope*x[len(x)-1])})
		}
	}
	return out
}

// lastProcess is the readings of the process the last one read: those after its start.
func lastProcess(read []result.Gauges) []result.Gauges {
	if len(read) == 0 {
		return nil
	}
	last := read[len(read)-1].Started
	for i := len(read) - 1; i >= 0; i-- {
		if read[i].Started != last {
			return read[i+1:]
		}
	}
	return read
}
