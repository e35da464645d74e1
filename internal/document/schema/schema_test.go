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

package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/testenv"
)

func committed(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), File))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The schema file is the Go types' (make manifests writes it; make verify fails when it is
// stale).
func TestTheSchemaFileIsCurrent(t *testing.T) {
	want, err := Generate(testenv.RepoRoot())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed(t), want) {
		t.Errorf("%s is stale: run make manifests", File)
	}
}

// A document with every field of every figure set, as the operator encodes it, matches the
// schema; one with a field the schema does not know, or a figure of the wrong type, does
// not (every object of the schema is closed).
func TestADocumentWithEveryFieldMatchesTheSchema(t *testing.T) {
	doc := &perfv1alpha1.ResultDocument{}
	fill(reflect.ValueOf(doc).Elem(), 0)
	doc.Schema = perfv1alpha1.ResultSchema
	enc, err := document.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(committed(t), enc.JSON); err != nil {
		t.Fatalf("a document with every field set does not match the schema: %v", err)
	}
	for name, edit := range map[string]func(string) string{
		"an unknown field":         func(s string) string { return strings.Replace(s, `"schema":`, `"forged": 1, "schema":`, 1) },
		"a count that is a string": func(s string) string { return strings.Replace(s, `"requests": 1,`, `"requests": "1",`, 1) },
	} {
		if err := Validate(committed(t), []byte(edit(string(enc.JSON)))); err == nil {
			t.Errorf("%s matches the schema", name)
		}
	}
	t.Logf("a document with every field set: %d bytes of JSON, %d gzipped", len(enc.JSON), len(enc.Gzip))
}

// fill sets every field reachable from v to a value of its type: a map of one entry, a
// list of one item, an allocated pointer. Depth bounds recursive types.
func fill(v reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	switch v.Interface().(type) {
	case metav1.Duration:
		v.Set(reflect.ValueOf(metav1.Duration{Duration: 1250 * time.Microsecond}))
		return
	case metav1.Time:
		v.Set(reflect.ValueOf(metav1.NewTime(time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC))))
		return
	case metav1.MicroTime:
		v.Set(reflect.ValueOf(metav1.NewMicroTime(time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC))))
		return
	case resource.Quantity:
		v.Set(reflect.ValueOf(resource.MustParse("250m")))
		return
	case intstr.IntOrString:
		v.Set(reflect.ValueOf(intstr.FromInt32(1)))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	}
}
