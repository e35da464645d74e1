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
	"strings"
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

// The ServiceMonitor authenticates with a token the component itself provides, not with
// Prometheus's own mounted token (the deprecated bearerTokenFile, which needed Prometheus's
// ServiceAccount bound by hand): its authorization names the token Secret of the
// metrics-scraper ServiceAccount, which is bound to the metrics-reader ClusterRole.
func TestServiceMonitorAuthenticatesWithTheScrapersToken(t *testing.T) {
	dir := filepath.Join(testenv.RepoRoot(), "config", "prometheus")
	b, err := os.ReadFile(filepath.Join(dir, "monitor.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var sm struct {
		Spec struct {
			Endpoints []map[string]any `json:"endpoints"`
		}
	}
	if err := yaml.Unmarshal(b, &sm); err != nil || len(sm.Spec.Endpoints) == 0 {
		t.Fatalf("monitor.yaml: %v (%d endpoints)", err, len(sm.Spec.Endpoints))
	}
	b, err = os.ReadFile(filepath.Join(dir, "scraper.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	objects := map[string]map[string]any{}
	for _, doc := range strings.Split(string(b), "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		objects[obj["kind"].(string)] = obj
	}
	secret, account, binding := objects["Secret"], objects["ServiceAccount"], objects["ClusterRoleBinding"]
	if secret == nil || account == nil || binding == nil {
		t.Fatalf("scraper.yaml: Secret %v, ServiceAccount %v, ClusterRoleBinding %v", secret != nil, account != nil, binding != nil)
	}
	name := func(obj map[string]any) any { return obj["metadata"].(map[string]any)["name"] }
	for _, e := range sm.Spec.Endpoints {
		if _, ok := e["bearerTokenFile"]; ok {
			t.Errorf("endpoint %v uses the deprecated bearerTokenFile", e["port"])
		}
		auth, _ := e["authorization"].(map[string]any)
		credentials, _ := auth["credentials"].(map[string]any)
		if auth["type"] != "Bearer" || credentials["name"] != name(secret) || credentials["key"] != "token" {
			t.Errorf("endpoint %v: authorization %v, want Bearer from Secret %v's token", e["port"], auth, name(secret))
		}
	}
	annotations, _ := secret["metadata"].(map[string]any)["annotations"].(map[string]any)
	if secret["type"] != "kubernetes.io/service-account-token" || annotations["kubernetes.io/service-account.name"] != name(account) {
		t.Errorf("Secret %v: type %v, annotations %v: want the token of ServiceAccount %v", name(secret), secret["type"], annotations, name(account))
	}
	subjects, _ := binding["subjects"].([]any)
	if ref := binding["roleRef"].(map[string]any); ref["name"] != "metrics-reader" || len(subjects) != 1 || subjects[0].(map[string]any)["name"] != name(account) {
		t.Errorf("the binding gives %v to %v, want metrics-reader to %v", ref["name"], subjects, name(account))
	}
}
