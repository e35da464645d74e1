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
	"fmt"
	"slices"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// At names where a point lies on the sweep's other swept dimensions (those with more than
// one value), e.g. "16 connections"; empty when the sweep varies only its settings.
func At(p sweep.MeasuredPoint, sp *perfv1alpha1.SweepPoints) string {
	if sp == nil {
		return ""
	}
	var parts []string
	if len(sp.Connections) > 1 {
		parts = append(parts, fmt.Sprintf("%d connections", p.Connections))
	}
	if len(sp.QPS) > 1 {
		parts = append(parts, fmt.Sprintf("%d qps", p.QPS))
	}
	if len(sp.PayloadBytes) > 1 && p.PayloadBytes != nil {
		parts = append(parts, fmt.Sprintf("%d B", *p.PayloadBytes))
	}
	return strings.Join(parts, ", ")
}

// settingCharts are the cost of each setting: its added p90 with the 95% interval as error
// bars, and the server sidecar's CPU per 1000 rps, one series per place on the other swept
// dimensions. None for a sweep without settings.
func settingCharts(sw sweep.Measured, points []sweep.MeasuredPoint) []Chart {
	sp := sw.Spec.Points
	if sp == nil || len(sp.Settings) == 0 {
		return nil
	}
	var names []string
	for _, s := range sp.Settings {
		names = append(names, s.Name)
	}
	// Points of a setting the spec no longer lists (a hand-edited status) have no place.
	points = slices.DeleteFunc(slices.Clone(points), func(p sweep.MeasuredPoint) bool { return !slices.Contains(names, p.Setting) })
	x := func(p sweep.MeasuredPoint) float64 { return float64(slices.Index(names, p.Setting)) }
	var groups []string
	for _, p := range points {
		if at := At(p, sp); !slices.Contains(groups, at) {
			groups = append(groups, at)
		}
	}
	var added, cpu []Series
	for _, at := range groups {
		in := slices.DeleteFunc(slices.Clone(points), func(p sweep.MeasuredPoint) bool { return At(p, sp) != at })
		suffix := ""
		if at != "" {
			suffix = " at " + at
		}
		added = append(added, addedFigureSeries("added p90"+suffix, in, x, perfv1alpha1.FigureP90))
		cpu = append(cpu, series("sidecar CPU"+suffix, in, x, func(p sweep.MeasuredPoint) (float64, bool) {
			if p.SidecarCPUPer1kQPS == nil {
				return 0, false
			}
			return float64(p.SidecarCPUPer1kQPS.MilliValue()), true
		}))
	}
	return []Chart{
		{Name: "added-by-setting", Title: sw.Name + ": latency Dapr adds, by setting", XLabel: "setting",
			YLabel: "added p90 (ms)", Series: nonEmpty(added...), Categories: names},
		{Name: "sidecar-cpu-by-setting", Title: sw.Name + ": server sidecar CPU per 1000 rps, by setting", XLabel: "setting",
			YLabel: "millicores per 1000 rps", Series: nonEmpty(cpu...), Categories: names},
	}
}
