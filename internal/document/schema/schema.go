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

// Package schema makes the JSON Schema of the result document from its Go types and their
// doc comments: docs/result-schema.v1.json (make manifests writes it, hack/gen/resultschema),
// which the tests hold every document the operator writes to. It is apart from package
// document so that no binary links the reflector.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	gopath "path"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// ID names the schema: the document's own schema field, as a URI.
const ID = "https://daprbench.io/schemas/" + perfv1alpha1.ResultSchema + ".json"

// File is where the schema is kept, from the repository's root.
const File = "docs/result-schema.v1.json"

// Generate is the schema of perfv1alpha1.ResultDocument, its descriptions the Go types' doc
// comments read from repoRoot's api/v1alpha1. Every object is closed (additionalProperties
// false): a field the code writes and the schema lacks fails validation.
func Generate(repoRoot string) ([]byte, error) {
	r := &jsonschema.Reflector{Mapper: mapper, DoNotReference: false, ExpandedStruct: true}
	if err := r.AddGoComments("github.com/daprbench/daprbench", filepath.Join(repoRoot, "api", "v1alpha1")); err != nil {
		return nil, fmt.Errorf("reading the API's doc comments: %w", err)
	}
	// The comments are keyed by import path; AddGoComments keys them by the directory given.
	fixComments(r, repoRoot)
	s := r.Reflect(&perfv1alpha1.ResultDocument{})
	s.ID = jsonschema.ID(ID)
	s.Title = "daprbench result document (" + perfv1alpha1.ResultSchema + ")"
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// mapper gives the Kubernetes types that marshal to a string (or a number) their JSON form.
func mapper(t reflect.Type) *jsonschema.Schema {
	switch t {
	case reflect.TypeOf(metav1.Duration{}):
		return &jsonschema.Schema{Type: "string", Description: "a duration, e.g. 1.25ms or 1m30s"}
	case reflect.TypeOf(metav1.Time{}), reflect.TypeOf(metav1.MicroTime{}):
		// A zero time marshals as null.
		return &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "string", Format: "date-time"}, {Type: "null"}}}
	case reflect.TypeOf(resource.Quantity{}):
		return &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}},
			Description: "a Kubernetes quantity, e.g. 250m or 38Mi"}
	case reflect.TypeOf(intstr.IntOrString{}):
		return &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "string"}, {Type: "integer"}}}
	}
	return nil
}

// fixComments re-keys the comments AddGoComments read under the directory's path to the
// package's import path, which the reflector looks them up by, and drops their marker
// lines (+kubebuilder:…, +optional): the schema says what they say its own way.
func fixComments(r *jsonschema.Reflector, repoRoot string) {
	dir := filepath.ToSlash(filepath.Join(repoRoot, "api", "v1alpha1"))
	pkg := "github.com/daprbench/daprbench/api/v1alpha1"
	for k, v := range r.CommentMap {
		var kept []string
		for _, line := range strings.Split(v, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "+") {
				kept = append(kept, line)
			}
		}
		v = strings.TrimSpace(strings.Join(kept, "\n"))
		r.CommentMap[k] = v
		if rest, ok := strings.CutPrefix(k, gopath.Join("github.com/daprbench/daprbench", dir)); ok {
			r.CommentMap[pkg+rest] = v
		}
	}
}

// Validate checks a document's JSON against the schema's JSON.
func Validate(schemaJSON, doc []byte) error {
	sch, err := validator.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return fmt.Errorf("the schema: %w", err)
	}
	c := validator.NewCompiler()
	if err := c.AddResource(ID, sch); err != nil {
		return err
	}
	compiled, err := c.Compile(ID)
	if err != nil {
		return fmt.Errorf("compiling the schema: %w", err)
	}
	inst, err := validator.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("the document: %w", err)
	}
	return compiled.Validate(inst)
}
