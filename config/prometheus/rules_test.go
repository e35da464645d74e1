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
