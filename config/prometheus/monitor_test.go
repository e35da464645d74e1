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

package promrules

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/daprbench/daprbench/internal/testenv"
)

// The Prometheus Operator gives every target a namespace label (the manager's). Without
// honorLabels, Prometheus renames the runs' own namespace label to exported_namespace, and
// the dashboard's namespace variable and the alerts' namespace all read daprbench-system.
// (The chart's ServiceMonitor is checked equal to this one by `make test-chart`.)
func TestServiceMonitorKeepsTheRunsNamespace(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "prometheus", "monitor.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var sm struct {
		Kind string
		Spec struct {
			Endpoints []struct {
				Port        string `json:"port"`
				HonorLabels bool   `json:"honorLabels"`
			} `json:"endpoints"`
		}
	}
	if err := yaml.Unmarshal(b, &sm); err != nil || sm.Kind != "ServiceMonitor" || len(sm.Spec.Endpoints) == 0 {
		t.Fatalf("monitor.yaml: %v (kind %q, %d endpoints)", err, sm.Kind, len(sm.Spec.Endpoints))
	}
	for _, e := range sm.Spec.Endpoints {
		if !e.HonorLabels {
			t.Errorf("endpoint %s: honorLabels is not true", e.Port)
		}
	}
}
