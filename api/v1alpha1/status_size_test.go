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

package v1alpha1_test

import (
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/daprbench/daprbench/internal/testenv"
)

// Status holds state and the headline; the figures are the result document's. A new figure
// is a field of the document, not of the CRD: these bounds keep it so (the peers' statuses
// hold 10–69 properties; PerfRun's held 860 when status.result was the whole result).
func TestStatusSchemasHoldStateAndTheHeadline(t *testing.T) {
	for crd, most := range map[string]int{"perfruns": 150, "perfsweeps": 40, "perfschedules": 20} {
		b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "crd", "bases", "perf.daprbench.io_"+crd+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var def apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(b, &def); err != nil {
			t.Fatal(err)
		}
		status := def.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"]
		n := properties(status)
		t.Logf("%s: %d status properties", crd, n)
		if n > most {
			t.Errorf("%s's status schema has %d properties, more than %d: a figure belongs in the result document", crd, n, most)
		}
	}
}

// properties counts every property of a schema, nested ones and list items' included.
func properties(s apiextensionsv1.JSONSchemaProps) int {
	n := 0
	for _, p := range s.Properties {
		n += 1 + properties(p)
	}
	if s.Items != nil && s.Items.Schema != nil {
		n += properties(*s.Items.Schema)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		n += properties(*s.AdditionalProperties.Schema)
	}
	return n
}
