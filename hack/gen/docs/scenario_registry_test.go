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

package docs

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Every program that builds a run's workloads links every scenario: a scenario registers its
// operator side from its folder's init (internal/scenario/<name>), and a program without
// internal/scenario/all would panic on a run of it.
func TestEveryProgramThatBuildsWorkloadsLinksEveryScenario(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{.Name}}:{{join .Deps \" \"}}", "./...")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	programs := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, rest, _ := strings.Cut(line, ":")
		name, deps, _ := strings.Cut(rest, ":")
		linked := strings.Fields(deps)
		if name != "main" || !slices.Contains(linked, module+"internal/operator/workload") {
			continue
		}
		programs++
		if !slices.Contains(linked, module+"internal/scenario/all") {
			t.Errorf("%s builds workloads but does not import internal/scenario/all: its runs of a scenario would find no operator side", pkg)
		}
	}
	if programs < 2 {
		t.Errorf("%d programs build workloads: the manager and the CLI do, so the listing is wrong", programs)
	}
}
