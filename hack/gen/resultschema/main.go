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

// Command resultschema writes the result document's JSON Schema (docs/result-schema.v1.json)
// from the API's Go types:
//
//	go run ./hack/gen/resultschema     # make manifests
package main

import (
	"fmt"
	"os"

	"github.com/daprbench/daprbench/internal/document/schema"
)

func main() {
	b, err := schema.Generate(".")
	if err == nil {
		err = os.WriteFile(schema.File, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "resultschema:", err)
		os.Exit(1)
	}
}
