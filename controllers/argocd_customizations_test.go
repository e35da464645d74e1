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
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/testenv"
)

// config/argocd/<group>/<Kind> is laid out as argo-cd's resource_customizations/<group>/<Kind>
// (health.lua, health_test.yaml, testdata/, actions/), so the folder can be contributed
// upstream as it is. The tests here (and in argocd_actions_test.go) run every case of its
// health_test.yaml and actions/action_test.yaml as argo-cd's own tests (util/lua) read them,
// with the scripts run as Argo CD runs a script from argocd-cm (argocd_lua_test.go); they
// need no cluster.

// healthTestFile is argo-cd's health_test.yaml.
type healthTestFile struct {
	Tests []healthCase `json:"tests"`
}

type healthCase struct {
	HealthStatus struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"healthStatus"`
	InputPath string `json:"inputPath"`
}

// kindDirs are config/argocd/<group>/<Kind>, each with a health.lua.
func kindDirs(t *testing.T) []string {
	t.Helper()
	scripts, err := filepath.Glob(filepath.Join(testenv.RepoRoot(), "config", "argocd", "*", "*", "health.lua"))
	if err != nil || len(scripts) != 3 {
		t.Fatalf("want the health scripts of PerfRun, PerfSchedule and PerfSweep, found %v (%v)", scripts, err)
	}
	var dirs []string
	for _, s := range scripts {
		dirs = append(dirs, filepath.Dir(s))
	}
	return dirs
}

// readStrict decodes a YAML file, refusing fields the target does not have (a misspelt
// healthStatus would otherwise expect an empty status).
func readStrict(path string, into any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.UnmarshalStrict(b, into); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readObject reads a testdata object as argo-cd's tests do (YAML through JSON: numbers are
// float64) and checks it is of the folder's group and kind, which is how argo-cd finds the
// script for it.
func readObject(dir, path string) (map[string]any, error) {
	var obj map[string]any
	if err := readStrict(path, &obj); err != nil {
		return nil, err
	}
	group, kind := filepath.Base(filepath.Dir(dir)), filepath.Base(dir)
	if av, _ := obj["apiVersion"].(string); !strings.HasPrefix(av, group+"/") || obj["kind"] != kind {
		return nil, fmt.Errorf("%s: a %v %v, not a %s of %s (argo-cd would not run this folder's script on it)", path, av, obj["kind"], kind, group)
	}
	return obj, nil
}

// checkHealthCase runs the folder's health.lua on the case's input and compares what Argo
// CD would show with the expected status and message, exactly (as argo-cd's test does).
func checkHealthCase(dir string, tc healthCase) error {
	script, err := os.ReadFile(filepath.Join(dir, "health.lua"))
	if err != nil {
		return err
	}
	obj, err := readObject(dir, filepath.Join(dir, tc.InputPath))
	if err != nil {
		return err
	}
	status, message, err := argoHealth(string(script), obj)
	if err != nil {
		return fmt.Errorf("%s: the script fails: %w", tc.InputPath, err)
	}
	if status != tc.HealthStatus.Status || message != tc.HealthStatus.Message {
		return fmt.Errorf("%s: Argo CD shows %s %q, health_test.yaml expects %s %q", tc.InputPath, status, message, tc.HealthStatus.Status, tc.HealthStatus.Message)
	}
	return nil
}

// statusesOf lists the statuses a health script can return (its hs.status = "..." lines).
func statusesOf(script string) []string {
	var statuses []string
	for _, m := range regexp.MustCompile(`hs\.status\s*=\s*"(\w+)"`).FindAllStringSubmatch(script, -1) {
		if !slices.Contains(statuses, m[1]) {
			statuses = append(statuses, m[1])
		}
	}
	slices.Sort(statuses)
	return statuses
}

// testdataUsed fails t for a file in testdata/ no case reads: a case left out is a file left over.
func testdataUsed(t *testing.T, dir string, used map[string]bool) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "testdata", "*.yaml"))
	for _, f := range files {
		if rel, _ := filepath.Rel(dir, f); !used[filepath.ToSlash(rel)] {
			t.Errorf("%s: no case reads it", f)
		}
	}
}

func TestArgoCDHealthTestsInUpstreamFormat(t *testing.T) {
	for _, dir := range kindDirs(t) {
		kind := filepath.Base(dir)
		var file healthTestFile
		if err := readStrict(filepath.Join(dir, "health_test.yaml"), &file); err != nil {
			t.Fatal(err)
		}
		script, err := os.ReadFile(filepath.Join(dir, "health.lua"))
		if err != nil {
			t.Fatal(err)
		}
		covered, used := map[string]bool{}, map[string]bool{}
		for _, tc := range file.Tests {
			covered[tc.HealthStatus.Status], used[tc.InputPath] = true, true
			t.Run(kind+"/"+tc.InputPath, func(t *testing.T) {
				if err := checkHealthCase(dir, tc); err != nil {
					t.Error(err)
				}
			})
		}
		for _, s := range statusesOf(string(script)) {
			if !covered[s] {
				t.Errorf("%s/health_test.yaml: no case expects %s, which health.lua can return", kind, s)
			}
		}
		testdataUsed(t, dir, used)
	}
}

// A wrong expectation fails: each case again with another status, and with another message.
func TestArgoCDHealthTestsFailOnAWrongExpectation(t *testing.T) {
	for _, dir := range kindDirs(t) {
		var file healthTestFile
		if err := readStrict(filepath.Join(dir, "health_test.yaml"), &file); err != nil {
			t.Fatal(err)
		}
		for _, tc := range file.Tests {
			wrongStatus, wrongMessage := tc, tc
			wrongStatus.HealthStatus.Status = map[string]string{"Healthy": "Degraded"}[tc.HealthStatus.Status]
			if wrongStatus.HealthStatus.Status == "" {
				wrongStatus.HealthStatus.Status = "Healthy"
			}
			wrongMessage.HealthStatus.Message += "."
			for _, wrong := range []healthCase{wrongStatus, wrongMessage} {
				if err := checkHealthCase(dir, wrong); err == nil || !strings.Contains(err.Error(), "health_test.yaml expects") {
					t.Errorf("%s %s: expecting %s %q: %v, want a mismatch", filepath.Base(dir), tc.InputPath, wrong.HealthStatus.Status, wrong.HealthStatus.Message, err)
				}
			}
		}
	}
}

// The PostSync example (docs/gitops.md) is a PerfRun hook Argo CD runs after every sync: its
// fields decode strictly, it carries the hook annotations, its name fits what Argo CD makes
// of it, and its spec is the smoke sample's, which api/v1alpha1's admission test shows the API
// server accepts (as it accepts every sample).
func TestArgoCDPostSyncExample(t *testing.T) {
	var run, smoke perfv1alpha1.PerfRun
	if err := readStrict(filepath.Join(testenv.RepoRoot(), "config", "argocd", "examples", "postsync-perfrun.yaml"), &run); err != nil {
		t.Fatal(err)
	}
	if err := readStrict(filepath.Join(testenv.RepoRoot(), "config", "samples", "perf_v1alpha1_perfrun_smoke.yaml"), &smoke); err != nil {
		t.Fatal(err)
	}
	if run.APIVersion != perfv1alpha1.GroupVersion.String() || run.Kind != "PerfRun" {
		t.Errorf("a %s %s, want a PerfRun", run.APIVersion, run.Kind)
	}
	if got := run.Annotations["argocd.argoproj.io/hook"]; got != "PostSync" {
		t.Errorf("argocd.argoproj.io/hook %q, want PostSync", got)
	}
	if got := run.Annotations["argocd.argoproj.io/hook-delete-policy"]; !slices.Contains(strings.Split(got, ","), "BeforeHookCreation") {
		t.Errorf("argocd.argoproj.io/hook-delete-policy %q, want BeforeHookCreation", got)
	}
	// Argo CD names a hook with generateName <generateName><7 of the commit>-postsync-<unix time>.
	name := run.Name
	if name == "" {
		name = run.GenerateName + "0123abc-postsync-1767225600"
	}
	if len(name) > 40 || !regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`).MatchString(name) {
		t.Errorf("the hook's name %q is not a PerfRun name (a DNS-1035 label of at most 40 characters)", name)
	}
	if !reflect.DeepEqual(run.Spec, smoke.Spec) {
		t.Errorf("the spec is not the smoke sample's:\n%+v\n%+v", run.Spec, smoke.Spec)
	}
}
