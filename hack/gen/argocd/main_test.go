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

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The checked-in patch and values are what the scripts generate now (make verify also
// regenerates them; this fails in make test alone).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "config", "argocd")
	scripts, err := Scripts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) != 3 {
		t.Fatalf("want the three kinds' scripts, found %d", len(scripts))
	}
	actions, err := Actions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 || actions[0].Key != "resource.customizations.actions.perf.daprbench.io_PerfSchedule" {
		t.Fatalf("want PerfSchedule's actions, found %v", actions)
	}
	var decoded ResourceActions
	if err := yaml.UnmarshalStrict([]byte(actions[0].Value), &decoded); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range decoded.Definitions {
		names = append(names, d.Name)
	}
	if want := []string{"resume", "run-now", "suspend"}; !slices.Equal(names, want) || !strings.Contains(decoded.DiscoveryLua, `actions["run-now"]`) {
		t.Errorf("PerfSchedule's actions decode to definitions %v, want %v, and its discovery script", names, want)
	}
	patch, values, err := Render(append(scripts, actions...))
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string][]byte{PatchFile: patch, ValuesFile: values} {
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("config/argocd/%s is stale: run make argocd-health", file)
		}
	}
	for _, s := range append(scripts, actions...) {
		if !strings.HasPrefix(s.Key, "resource.customizations.health.perf.daprbench.io_Perf") && !strings.HasPrefix(s.Key, "resource.customizations.actions.perf.daprbench.io_Perf") {
			t.Errorf("unexpected key %s", s.Key)
		}
	}
}

// A script a literal block cannot hold verbatim is refused, not silently changed.
func TestRenderRefusesWhatALiteralBlockChanges(t *testing.T) {
	for _, lua := range []string{"return {}", "return {}\n\n", " return {}\n", "\nreturn {}\n"} {
		if _, _, err := Render([]Entry{{Key: "k", Path: "p", Value: lua}}); err == nil {
			t.Errorf("%q: rendered, want an error", lua)
		}
	}
	if _, _, err := Render([]Entry{{Key: "k", Path: "p", Value: "a\n\n\tb  \n  c\n"}}); err != nil {
		t.Errorf("blank lines, tabs and trailing spaces inside: %v", err)
	}
}
