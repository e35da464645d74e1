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

// Package samples holds the samples that are presets: Dapr's published settings, each with
// the figures Dapr published for it, so `kubectl daprbench run --preset NAME` measures a
// setting whose published row its report can show beside the result.
package samples

import (
	"embed"
	"fmt"
	"slices"
	"strings"
)

//go:embed perf_v1alpha1_perfrun_invocation.yaml perf_v1alpha1_perfrun_invocation_perfsuite.yaml perf_v1alpha1_perfrun_actors.yaml
//go:embed perf_v1alpha1_perfrun_state_perfsuite.yaml perf_v1alpha1_perfrun_pubsub_perfsuite.yaml perf_v1alpha1_perfrun_workflow_perfsuite.yaml
var files embed.FS

// Published is one figure Dapr published for a preset's setting. Figure names the result's
// figure as the plugin's tables do ("added p90", "latency p99", "completion p50", "sidecar
// CPU per 1000 rps").
type Published struct {
	Figure string
	Value  string
}

// Preset is a named sample and the row Dapr published for its setting.
type Preset struct {
	Name   string
	File   string
	Title  string
	Source string
	Rows   []Published
}

// Presets, by name.
var Presets = []Preset{
	{Name: "published-v1.0", File: "perf_v1alpha1_perfrun_invocation.yaml",
		Title:  "Dapr's published service-invocation setting: 1000 rps, 16 connections, 1 KiB, 0.5 vCPU sidecar limit, mTLS, sampling 0.1",
		Source: "Dapr v1.0 performance figures (3 nodes of 4 cores)",
		Rows:   []Published{{"added p90", "1.40ms"}, {"added p99", "2.10ms"}, {"sidecar CPU per 1000 rps", "480m"}}},
	{Name: "perf-suite", File: "perf_v1alpha1_perfrun_invocation_perfsuite.yaml",
		Title:  "Dapr's current perf-suite setting (dapr/dapr tests/perf, v1.17): 1000 qps, 16 connections, 1 KiB, 4 vCPU sidecar limit",
		Source: "Dapr v1.17 perf suite report",
		Rows:   []Published{{"added p50", "1.06ms"}, {"added p90", "1.48ms"}, {"added p99", "2.90ms"}, {"sidecar CPU per 1000 rps", "202m"}}},
	{Name: "actors-v1.0", File: "perf_v1alpha1_perfrun_actors.yaml",
		Title:  "Dapr's published actor-activation setting: 500 rps, a fresh actor id per call, mTLS, sampling 0.1",
		Source: "Dapr v1.0 performance figures (3 nodes of 4 cores)",
		Rows:   []Published{{"latency p90", "3ms"}, {"latency p99", "6.2ms"}}},
	{Name: "state-perf-suite", File: "perf_v1alpha1_perfrun_state_perfsuite.yaml",
		Title: "Dapr's perf-suite state get over HTTP (dapr/dapr tests/perf, v1.17): 1000 qps, 16 connections, 1 KiB, " +
			"4 vCPU sidecar limit, gate p90 <= 2 ms; Dapr's figure is the whole call (its baseline is a no-op target)",
		Source: "Dapr v1.17 perf suite report",
		Rows:   []Published{{"latency p50", "0.73ms"}}},
	{Name: "pubsub-perf-suite", File: "perf_v1alpha1_perfrun_pubsub_perfsuite.yaml",
		Title: "Dapr's perf-suite publish over gRPC (dapr/dapr tests/perf pubsub_publish_grpc, v1.17): 1000 qps, 16 connections, 1 KiB, " +
			"4 vCPU sidecar limit, gate p90 <= 2 ms; Dapr's figure is the publish call alone (no baseline, no delivery)",
		Source: "Dapr v1.17 perf suite report",
		Rows:   []Published{{"latency p50", "0.60ms"}, {"latency p90", "0.94ms"}, {"latency p99", "1.87ms"}}},
	{Name: "workflow-perf-suite", File: "perf_v1alpha1_perfrun_workflow_perfsuite.yaml",
		Title: "Dapr's perf-suite parallel workflow (dapr/dapr tests/perf/workflows, v1.17): a FanOut of 5 activities, 3-byte input, gRPC, " +
			"4 vCPU sidecar limit, started open loop at 98 a second; Dapr's is closed loop (110 VUs, each waiting for its workflow) " +
			"and completed 97.91 a second at that concurrency, and its duration also holds its app's get, terminate and purge of each instance",
		Source: "Dapr v1.17 perf suite report (closed loop, 110 VUs: 97.91 workflows/s; this run: open loop at 98/s)",
		Rows:   []Published{{"completion p50", "1.06s"}, {"completion p90", "1.27s"}}},
}

// Lookup is the preset of name.
func Lookup(name string) (Preset, error) {
	i := slices.IndexFunc(Presets, func(p Preset) bool { return p.Name == name })
	if i < 0 {
		return Preset{}, fmt.Errorf("no preset %q: use one of %s", name, strings.Join(Names(), ", "))
	}
	return Presets[i], nil
}

// Names lists the presets' names.
func Names() []string {
	var out []string
	for _, p := range Presets {
		out = append(out, p.Name)
	}
	return out
}

// YAML is the preset's sample.
func (p Preset) YAML() ([]byte, error) { return files.ReadFile(p.File) }
