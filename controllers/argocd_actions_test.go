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

package controllers

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// actionTestFile is argo-cd's actions/action_test.yaml.
type actionTestFile struct {
	DiscoveryTests []discoveryCase `json:"discoveryTests"`
	ActionTests    []actionCase    `json:"actionTests"`
}

type discoveryCase struct {
	InputPath string       `json:"inputPath"`
	Result    []argoAction `json:"result"`
}

type actionCase struct {
	Action             string `json:"action"`
	InputPath          string `json:"inputPath"`
	ExpectedOutputPath string `json:"expectedOutputPath"`
}

// expectedImpacted reads an action's expected output as argo-cd's test does: a list of
// {k8sOperation, unstructuredObj} (a new-style action), or the patched object itself.
func expectedImpacted(path string) ([]impacted, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var list []struct {
		K8SOperation    string         `json:"k8sOperation"`
		UnstructuredObj map[string]any `json:"unstructuredObj"`
	}
	if err := yaml.UnmarshalStrict(b, &list); err == nil {
		if !strings.HasPrefix(string(b), "-") {
			return nil, fmt.Errorf("%s: argo-cd's test reads a list only when the file's first character is '-' (no comment before it)", path)
		}
		var out []impacted
		for _, e := range list {
			out = append(out, impacted{Operation: e.K8SOperation, Resource: e.UnstructuredObj})
		}
		return out, nil
	}
	var obj map[string]any
	if err := yaml.UnmarshalStrict(b, &obj); err != nil {
		return nil, fmt.Errorf("%s: neither a list of impacted resources nor an object: %w", path, err)
	}
	return []impacted{{Operation: "patch", Resource: obj}}, nil
}

// checkActionCase runs actions/<action>/action.lua on the input and compares what Argo CD
// would create or patch with the expected output, exactly (argo-cd's test diffs them).
func checkActionCase(dir string, tc actionCase) error {
	actions := filepath.Join(dir, "actions")
	script, err := os.ReadFile(filepath.Join(actions, tc.Action, "action.lua"))
	if err != nil {
		return err
	}
	obj, err := readObject(dir, filepath.Join(actions, tc.InputPath))
	if err != nil {
		return err
	}
	got, err := argoRunAction(string(script), obj)
	if err != nil {
		return fmt.Errorf("%s on %s: the script fails: %w", tc.Action, tc.InputPath, err)
	}
	want, err := expectedImpacted(filepath.Join(actions, tc.ExpectedOutputPath))
	if err != nil {
		return err
	}
	for _, r := range got {
		if r.Operation == "patch" && (r.Resource["kind"] != obj["kind"] || !reflect.DeepEqual(r.Resource["metadata"].(map[string]any)["name"], obj["metadata"].(map[string]any)["name"])) {
			return fmt.Errorf("%s: patches another object than its own (Argo CD patches only the resource the action ran on)", tc.Action)
		}
	}
	gotJSON, _ := json.MarshalIndent(got, "", "  ")
	wantJSON, _ := json.MarshalIndent(want, "", "  ")
	if string(gotJSON) != string(wantJSON) {
		return fmt.Errorf("%s on %s: Argo CD would get\n%s\n%s expects\n%s", tc.Action, tc.InputPath, gotJSON, tc.ExpectedOutputPath, wantJSON)
	}
	return nil
}

// checkDiscoveryCase runs actions/discovery.lua on the input and compares the actions Argo CD
// would offer with the expected list, both ways (argo-cd's test checks only that each offered
// action is expected).
func checkDiscoveryCase(dir string, tc discoveryCase) error {
	script, err := os.ReadFile(filepath.Join(dir, "actions", "discovery.lua"))
	if err != nil {
		return err
	}
	obj, err := readObject(dir, filepath.Join(dir, "actions", tc.InputPath))
	if err != nil {
		return err
	}
	got, err := argoDiscovery(string(script), obj)
	if err != nil {
		return fmt.Errorf("discovery on %s: the script fails: %w", tc.InputPath, err)
	}
	byName := func(a, b argoAction) int { return strings.Compare(a.Name, b.Name) }
	want := slices.Clone(tc.Result)
	slices.SortFunc(got, byName)
	slices.SortFunc(want, byName)
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("discovery on %s: Argo CD would offer %+v, action_test.yaml expects %+v", tc.InputPath, got, want)
	}
	return nil
}

// kindsWithActions are the folders with an actions/ directory, and their action test files.
func kindsWithActions(t *testing.T) map[string]actionTestFile {
	t.Helper()
	files := map[string]actionTestFile{}
	for _, dir := range kindDirs(t) {
		if _, err := os.Stat(filepath.Join(dir, "actions")); os.IsNotExist(err) {
			continue
		}
		var file actionTestFile
		if err := readStrict(filepath.Join(dir, "actions", "action_test.yaml"), &file); err != nil {
			t.Fatal(err)
		}
		files[dir] = file
	}
	if len(files) == 0 {
		t.Fatal("no config/argocd/<group>/<Kind>/actions")
	}
	return files
}

func TestArgoCDActionTestsInUpstreamFormat(t *testing.T) {
	for dir, file := range kindsWithActions(t) {
		kind := filepath.Base(dir)
		used, tested := map[string]bool{}, map[string]bool{}
		for _, tc := range file.DiscoveryTests {
			used[tc.InputPath] = true
			t.Run(kind+"/discovery/"+tc.InputPath, func(t *testing.T) {
				if err := checkDiscoveryCase(dir, tc); err != nil {
					t.Error(err)
				}
			})
			for _, a := range tc.Result {
				if _, err := os.Stat(filepath.Join(dir, "actions", a.Name, "action.lua")); err != nil {
					t.Errorf("%s: discovery offers %s, which has no actions/%s/action.lua", kind, a.Name, a.Name)
				}
			}
		}
		for _, tc := range file.ActionTests {
			used[tc.InputPath], used[tc.ExpectedOutputPath], tested[tc.Action] = true, true, true
			t.Run(kind+"/actions/"+tc.Action+"/"+tc.InputPath, func(t *testing.T) {
				if err := checkActionCase(dir, tc); err != nil {
					t.Error(err)
				}
				if err := createdRunsDecode(filepath.Join(dir, "actions", tc.ExpectedOutputPath)); err != nil {
					t.Error(err)
				}
			})
		}
		scripts, _ := filepath.Glob(filepath.Join(dir, "actions", "*", "action.lua"))
		for _, s := range scripts {
			if name := filepath.Base(filepath.Dir(s)); !tested[name] {
				t.Errorf("%s: action %s has no case in actions/action_test.yaml", kind, name)
			}
		}
		testdataUsed(t, filepath.Join(dir, "actions"), used)
	}
}

// A wrong expectation fails: an action's expected output with one field changed, and a
// discovery expecting an action enabled that is disabled (or the reverse).
func TestArgoCDActionTestsFailOnAWrongExpectation(t *testing.T) {
	for dir, file := range kindsWithActions(t) {
		for _, tc := range file.DiscoveryTests {
			wrong := tc
			wrong.Result = slices.Clone(tc.Result)
			wrong.Result[0].Disabled = !wrong.Result[0].Disabled
			if err := checkDiscoveryCase(dir, wrong); err == nil || !strings.Contains(err.Error(), "Argo CD would offer") {
				t.Errorf("discovery on %s: expecting %s disabled=%v: %v, want a mismatch", tc.InputPath, wrong.Result[0].Name, wrong.Result[0].Disabled, err)
			}
		}
		for _, tc := range file.ActionTests {
			want, err := expectedImpacted(filepath.Join(dir, "actions", tc.ExpectedOutputPath))
			if err != nil {
				t.Fatal(err)
			}
			want[0].Resource["metadata"].(map[string]any)["namespace"] = "elsewhere"
			var out any = want[0].Resource
			if want[0].Operation == "create" {
				out = []map[string]any{{"k8sOperation": "create", "unstructuredObj": want[0].Resource}}
			}
			b, err := yaml.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			wrongFile := filepath.Join(t.TempDir(), "wrong.yaml")
			if err := os.WriteFile(wrongFile, b, 0o644); err != nil {
				t.Fatal(err)
			}
			wrong := tc
			wrong.ExpectedOutputPath, _ = filepath.Rel(filepath.Join(dir, "actions"), wrongFile)
			if err := checkActionCase(dir, wrong); err == nil || !strings.Contains(err.Error(), "Argo CD would get") {
				t.Errorf("%s on %s: expecting another namespace: %v, want a mismatch", tc.Action, tc.InputPath, err)
			}
		}
	}
}

// createdRunsDecode checks each PerfRun an expected output creates is one: its fields decode
// strictly into the Go type, and a name made from its generateName fits a PerfRun's 40
// characters (the API server appends 5).
func createdRunsDecode(path string) error {
	want, err := expectedImpacted(path)
	if err != nil {
		return err
	}
	for _, r := range want {
		if r.Operation != "create" || r.Resource["kind"] != "PerfRun" {
			continue
		}
		b, err := json.Marshal(r.Resource)
		if err != nil {
			return err
		}
		var run perfv1alpha1.PerfRun
		if err := yaml.UnmarshalStrict(b, &run); err != nil {
			return fmt.Errorf("%s: the PerfRun it creates: %w", path, err)
		}
		if run.Name == "" && len(run.GenerateName)+5 > 40 {
			return fmt.Errorf("%s: generateName %q makes names longer than a PerfRun's 40 characters", path, run.GenerateName)
		}
	}
	return nil
}
