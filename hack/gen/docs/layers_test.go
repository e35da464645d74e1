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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/daprbench/daprbench/"

// layer is a row of docs/architecture.md's layers block: packages by prefix, and the
// prefixes of this module's packages their non-test code may import.
type layer struct {
	from  string
	allow []string
}

func matches(pkg, prefix string) bool {
	return pkg == strings.TrimSuffix(prefix, "/") || strings.HasSuffix(prefix, "/") && strings.HasPrefix(pkg, prefix)
}

// The layers docs/architecture.md draws are the code's: every import of this module's
// packages by the packages a row names is one the row allows, and every package under
// internal/, api/ and controllers/ is in a row.
func TestTheArchitectureLayersAreTheCodes(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), "```layers\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/architecture.md has no ```layers block")
	}
	var layers []layer
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		from, allow, found := strings.Cut(line, ":")
		if !found {
			t.Fatalf("layers: %q is not 'package : imports'", line)
		}
		layers = append(layers, layer{from: strings.TrimSpace(from), allow: strings.Fields(allow)})
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkgPath, imports, _ := strings.Cut(line, ":")
		pkg := strings.TrimPrefix(pkgPath, module)
		var row *layer
		for i := range layers {
			if matches(pkg, layers[i].from) {
				row = &layers[i]
				break
			}
		}
		if row == nil {
			if strings.HasPrefix(pkg, "internal/") || strings.HasPrefix(pkg, "api/") || strings.HasPrefix(pkg, "controllers") {
				t.Errorf("%s is in no row of docs/architecture.md's layers", pkg)
			}
			continue
		}
		for _, imp := range strings.Fields(imports) {
			own, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if !hasAllowed(own, row.allow) {
				t.Errorf("%s imports %s, which docs/architecture.md's layers do not allow %s", pkg, own, row.from)
			}
		}
	}
}

func hasAllowed(pkg string, allow []string) bool {
	for _, a := range allow {
		if matches(pkg, a) {
			return true
		}
	}
	return false
}
