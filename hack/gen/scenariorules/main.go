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

// Command scenariorules writes the admission rules that depend on a scenario, made from each
// scenario's capabilities (api/v1alpha1/scenario_capabilities.go), into the marked blocks
// of PerfRunSpec's and PerfSweepSpec's markers. make manifests runs it before
// controller-gen; make verify fails when a block is stale.
//
//	go run ./hack/gen/scenariorules [-check]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
)

const (
	begin = "// +daprbench:generated-scenario-rules:begin (hack/gen/scenariorules, from scenario_capabilities.go: edit those, then make manifests)\n"
	end   = "// +daprbench:generated-scenario-rules:end\n"
)

// targets are the files with a block, and the rules each block holds (make runs this from
// the repository's root).
var targets = []struct {
	file  string
	rules func() []Rule
}{
	{"api/v1alpha1/perfrun_types.go", PerfRunRules},
	{"api/v1alpha1/perfsweep_types.go", PerfSweepRules},
}

func main() {
	check := flag.Bool("check", false, "fail when the block is stale instead of writing it")
	flag.Parse()
	for _, t := range targets {
		src, err := os.ReadFile(t.file)
		if err != nil {
			fail("%v", err)
		}
		out, err := replaceBlock(src, markers(t.rules()))
		if err != nil {
			fail("%s: %v", t.file, err)
		}
		if bytes.Equal(out, src) {
			continue
		}
		if *check {
			fail("%s: the scenario rules are stale: run make manifests", t.file)
		}
		if err := os.WriteFile(t.file, out, 0o644); err != nil {
			fail("%v", err)
		}
	}
}

// markers are rules as kubebuilder XValidation markers, one line each.
func markers(rules []Rule) []byte {
	var b bytes.Buffer
	for _, r := range rules {
		fmt.Fprintf(&b, "// +kubebuilder:validation:XValidation:rule=%s,message=%s", strconv.Quote(r.Rule), strconv.Quote(r.Message))
		if r.FieldPath != "" {
			fmt.Fprintf(&b, ",fieldPath=%s", strconv.Quote(r.FieldPath))
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// replaceBlock puts block between the begin and end lines of src.
func replaceBlock(src, block []byte) ([]byte, error) {
	i := bytes.Index(src, []byte(begin))
	j := bytes.Index(src, []byte(end))
	if i < 0 || j < i {
		return nil, fmt.Errorf("no block %q ... %q", begin, end)
	}
	var out bytes.Buffer
	out.Write(src[:i+len(begin)])
	out.Write(block)
	out.Write(src[j:])
	return out.Bytes(), nil
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "scenariorules: "+format+"\n", args...)
	os.Exit(1)
}
