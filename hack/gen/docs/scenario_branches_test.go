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
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// scenarioBranchesLeft are the non-test files allowed to branch on a scenario, and how many
// branches each holds. A new branch anywhere fails; an exception is listed here with its
// count and why.
var scenarioBranchesLeft = map[string]int{
	// compare's assumed rerun spreads: the project's own measured reruns of some scenarios
	// (docs/results.md), data of the CLI's judgement rather than something a scenario
	// declares; a scenario with none falls back to invocation's.
	"internal/cli/compare/rerun.go": 1,
}

// registry is where a scenario is declared: it alone may name scenarios one by one.
func inRegistry(rel string) bool {
	return rel == "api/v1alpha1/scenario_capabilities.go" || strings.HasPrefix(rel, "internal/scenario/")
}

// A branch on a scenario is a switch whose tag is a scenario, a case or a comparison naming
// one of the Scenario constants, a scenario compared with a string, or a map literal keyed
// by Scenario constants (a switch by another name). Only the scenario registry may branch so: everywhere else
// asks a scenario's definition (docs/architecture.md, "A scenario, and how to add one").
// Run with -v for the census: the branches per file, and each scenario's files and packages.
func TestNoScenarioBranchOutsideTheRegistry(t *testing.T) {
	root := repoRoot(t)
	constants := scenarioConstants(t, root)
	found := map[string][]string{}
	spans := map[string]map[string]bool{} // scenario → its non-test files
	walkGo(t, root, func(rel string, file *ast.File, fset *token.FileSet) {
		for _, c := range constants {
			if namesScenario(file, c) || strings.HasPrefix(rel, "internal/scenario/"+scenarioNames[c].folder+"/") {
				if spans[c] == nil {
					spans[c] = map[string]bool{}
				}
				spans[c][rel] = true
			}
		}
		if inRegistry(rel) {
			return
		}
		for _, pos := range scenarioBranches(file, constants) {
			found[rel] = append(found[rel], fset.Position(pos).String())
		}
	})
	for _, rel := range slices.Sorted(maps.Keys(found)) {
		t.Logf("%s: %d", rel, len(found[rel]))
		want, listed := scenarioBranchesLeft[rel]
		switch {
		case !listed:
			t.Errorf("%s branches on a scenario (%s): ask the scenario's definition instead", rel, strings.Join(found[rel], ", "))
		case len(found[rel]) > want:
			t.Errorf("%s: %d branches on a scenario, %d allowed (%s): ask the scenario's definition instead", rel, len(found[rel]), want, strings.Join(found[rel], ", "))
		case len(found[rel]) < want:
			t.Errorf("%s: %d branches on a scenario, the list says %d: lower scenarioBranchesLeft", rel, len(found[rel]), want)
		}
	}
	for rel := range scenarioBranchesLeft {
		if _, ok := found[rel]; !ok {
			t.Errorf("%s no longer branches on a scenario: take it off scenarioBranchesLeft", rel)
		}
	}
	for _, c := range constants {
		pkgs := map[string]bool{}
		for f := range spans[c] {
			pkgs[filepath.Dir(f)] = true
		}
		t.Logf("census: %s in %d non-test files, %d packages", c, len(spans[c]), len(pkgs))
	}
}

// scenarioNames are what names one scenario's code, by its constant: the census counts a
// non-test file as the scenario's when it is in its folder (internal/scenario/<folder>),
// names one of its identifiers, or its spec field (run.Spec.PubSub).
var scenarioNames = map[string]struct {
	folder, field string
	names         []string
}{
	"ScenarioServiceInvocation": {"invocation", "ServiceInvocation", []string{"InvocationSettings", "ServiceInvocationSpec"}},
	"ScenarioActorActivation":   {"actors", "Actors", []string{"ActorSettings", "ActorsSpec"}},
	"ScenarioState":             {"state", "State", []string{"StateSettings", "StateSpec", "StateOperation"}},
	"ScenarioPubSub":            {"pubsub", "PubSub", []string{"PubSubSettings", "PubSubSpec", "DeliveryResult"}},
	"ScenarioWorkflow":          {"workflow", "Workflow", []string{"WorkflowSettings", "WorkflowSpec", "CompletionResult"}},
	"ScenarioScheduler":         {"scheduler", "Scheduler", []string{"SchedulerSettings", "SchedulerSpec", "TriggerResult"}},
	"ScenarioConfiguration":     {"configuration", "Configuration", []string{"ConfigurationSettings", "ConfigurationSpec"}},
}

// namesScenario: f names constant's scenario (see scenarioNames).
func namesScenario(f *ast.File, constant string) bool {
	own := scenarioNames[constant]
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			found = found || x.Name == constant || slices.Contains(own.names, x.Name)
		case *ast.SelectorExpr:
			if spec, ok := x.X.(*ast.SelectorExpr); ok && spec.Sel.Name == "Spec" && x.Sel.Name == own.field {
				found = true
			}
		}
		return !found
	})
	return found
}

// scenarioConstants are the names of api/v1alpha1's constants of type Scenario.
func scenarioConstants(t *testing.T, root string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, "api", "v1alpha1", "perfrun_scenario_types.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if spec, ok := n.(*ast.ValueSpec); ok {
			if id, ok := spec.Type.(*ast.Ident); ok && id.Name == "Scenario" {
				for _, name := range spec.Names {
					out = append(out, name.Name)
				}
			}
		}
		return true
	})
	if len(out) < 6 {
		t.Fatalf("found %d Scenario constants (%v): the parse is wrong", len(out), out)
	}
	return out
}

// walkGo parses every non-test, non-generated Go file of the module but hack/ and test/.
func walkGo(t *testing.T, root string, visit func(rel string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || rel == "hack" || rel == "test" || rel == "bin" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(d.Name(), "zz_generated") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		visit(filepath.ToSlash(rel), f, fset)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// isScenarioConstant: perfv1alpha1.ScenarioX, or ScenarioX inside api/v1alpha1.
func isScenarioConstant(e ast.Expr, constants []string) bool {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		return slices.Contains(constants, x.Sel.Name)
	case *ast.Ident:
		return slices.Contains(constants, x.Name)
	}
	return false
}

// isScenarioValue: an expression whose last name is Scenario or scenario (run.Spec.Scenario).
func isScenarioValue(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == "Scenario" || x.Sel.Name == "scenario"
	case *ast.Ident:
		return x.Name == "Scenario" || x.Name == "scenario"
	}
	return false
}

// scenarioBranches are the positions of f's switches on a scenario, and of its cases and
// comparisons naming a scenario outside such a switch.
func scenarioBranches(f *ast.File, constants []string) []token.Pos {
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SwitchStmt:
			if x.Tag != nil && isScenarioValue(x.Tag) {
				out = append(out, x.Pos()) // its cases are this one branch; comparisons in their bodies count too
				return true
			}
			if x.Tag == nil {
				break // a tagless switch's cases are comparisons, counted below
			}
			for _, stmt := range x.Body.List {
				for _, e := range stmt.(*ast.CaseClause).List {
					if isScenarioConstant(e, constants) {
						out = append(out, x.Pos())
						return true
					}
				}
			}
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				break
			}
			if isScenarioConstant(x.X, constants) || isScenarioConstant(x.Y, constants) ||
				(isScenarioValue(x.X) && isString(x.Y)) || (isString(x.X) && isScenarioValue(x.Y)) {
				out = append(out, x.Pos())
			}
		case *ast.CompositeLit:
			for _, e := range x.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok && isScenarioConstant(kv.Key, constants) {
					out = append(out, x.Pos()) // one table, one branch
					break
				}
			}
		}
		return true
	})
	return out
}

// isString: a string literal, bare or converted (Scenario("PubSub")).
func isString(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.STRING
	case *ast.CallExpr:
		return len(x.Args) == 1 && isString(x.Args[0])
	}
	return false
}

// The detector finds each kind of branch it names, and passes what is not one.
func TestScenarioBranchesAreFound(t *testing.T) {
	constants := []string{"ScenarioPubSub", "ScenarioState"}
	for src, want := range map[string]int{
		`switch run.Spec.Scenario { case perfv1alpha1.ScenarioPubSub: }`:                                          1,
		`if run.Spec.Scenario == perfv1alpha1.ScenarioPubSub {}`:                                                  1,
		`if run.Spec.Scenario != "PubSub" {}`:                                                                     1,
		`if perfv1alpha1.Scenario("State") == s.Scenario {}`:                                                      1,
		`_ = map[perfv1alpha1.Scenario]string{perfv1alpha1.ScenarioPubSub: "a", perfv1alpha1.ScenarioState: "b"}`: 1,
		`if a.Spec.Scenario == b.Spec.Scenario {}`:                                                                0,
		`_ = perfv1alpha1.CapabilityOf(run.Spec.Scenario).Outcome`:                                                0,
		`_ = Capability{Scenario: perfv1alpha1.ScenarioPubSub}`:                                                   0,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x\nfunc f() {\n"+src+"\n}\n", 0)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := len(scenarioBranches(f, constants)); got != want {
			t.Errorf("%s: %d branches found, want %d", src, got, want)
		}
	}
}
