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

package assess

import (
	"os/exec"
	"strings"
	"testing"
)

// The assessment judges a run from its status and the load tester's summary alone: it may
// import the API, the wire contract and small helpers, never the operator's or the pods'
// code, so what it decides cannot depend on how the readings were taken.
func TestTheAssessmentDependsOnlyOnTheAPIAndTheWireContract(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{"api/", "internal/assess", "internal/contract/", "internal/kit/"}
	for _, pkg := range strings.Fields(string(out)) {
		own, ok := strings.CutPrefix(pkg, "github.com/daprbench/daprbench/")
		if !ok {
			continue
		}
		if !hasAnyPrefix(own, allowed) {
			t.Errorf("the assessment imports %s", pkg)
		}
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
