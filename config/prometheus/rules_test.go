//go:build rules

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
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/daprbench/daprbench/internal/testenv"
)

// Run by `make test-rules`, which builds promtool from Go modules and passes PROMTOOL.
func TestAlertingRules(t *testing.T) {
	promtool := os.Getenv("PROMTOOL")
	if _, err := os.Stat(promtool); promtool == "" || err != nil {
		t.Fatalf("PROMTOOL=%q: run the test with `make test-rules`, which builds promtool", promtool)
	}
	dir := t.TempDir()
	src := filepath.Join(testenv.RepoRoot(), "config", "prometheus")
	b, err := os.ReadFile(filepath.Join(src, "prometheusrule.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rule struct {
		Kind string
		Spec struct {
			Groups []any `json:"groups"`
		}
	}
	if err := yaml.Unmarshal(b, &rule); err != nil || rule.Kind != "PrometheusRule" || len(rule.Spec.Groups) == 0 {
		t.Fatalf("prometheusrule.yaml: %v (kind %q, %d groups)", err, rule.Kind, len(rule.Spec.Groups))
	}
	rules, err := yaml.Marshal(map[string]any{"groups": rule.Spec.Groups})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "daprbench.rules.yaml"), rules, 0o644); err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile(filepath.Join(src, "prometheusrule_test.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests.yaml"), tests, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"check", "rules", "daprbench.rules.yaml"}, {"test", "rules", "tests.yaml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("promtool %v: %v\n%s", args, err, out)
		}
	}
}

// Every alert links its runbook, a heading of docs/observability.md that exists.
func TestEveryAlertHasARunbook(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "prometheus", "prometheusrule.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rule struct {
		Spec struct {
			Groups []struct {
				Rules []struct {
					Alert       string            `json:"alert"`
					Annotations map[string]string `json:"annotations"`
				} `json:"rules"`
			} `json:"groups"`
		}
	}
	if err := yaml.Unmarshal(b, &rule); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "observability.md"))
	if err != nil {
		t.Fatal(err)
	}
	const page = "https://github.com/daprbench/daprbench/blob/main/docs/observability.md#"
	alerts := 0
	for _, g := range rule.Spec.Groups {
		for _, r := range g.Rules {
			alerts++
			url := r.Annotations["runbook_url"]
			if url != page+strings.ToLower(r.Alert) || !strings.Contains(string(doc), "\n#### "+r.Alert+"\n") {
				t.Errorf("%s: runbook_url %q: want %s%s and a heading #### %s in docs/observability.md", r.Alert, url, page, strings.ToLower(r.Alert), r.Alert)
			}
		}
	}
	if alerts == 0 {
		t.Fatal("no alert read")
	}
}
