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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daprbench/daprbench/internal/testenv"
)

func TestValuesTable(t *testing.T) {
	values := `# The file's own header: no key's.

# A name.
name: ""
# The image.
image:
  # Where from.
  repository: ghcr.io/x/y
  # A <tag> | or empty.
  tag: ""
# Grouping only: its keys are documented.
grouped:
  inner:
    # Deep.
    enabled: true
# Resources, one row: none of its keys has a comment.
resources:
  requests: {cpu: 10m}
  limits:
    cpu: 1
# A block list.
args:
  - --a
  - --b
# A block scalar.
text: |
  name: not a key
`
	got, err := valuesTable([]byte(values))
	if err != nil {
		t.Fatal(err)
	}
	want := "| Value | Default | Description |\n|---|---|---|\n" +
		"| `name` | `\"\"` | A name. |\n" +
		"| **`image`** | | The image. |\n" +
		"| `image.repository` | `\"ghcr.io/x/y\"` | Where from. |\n" +
		"| `image.tag` | `\"\"` | A &lt;tag&gt; \\| or empty. |\n" +
		"| **`grouped`** | | Grouping only: its keys are documented. |\n" +
		"| `grouped.inner.enabled` | `true` | Deep. |\n" +
		"| `resources` | `{\"limits\":{\"cpu\":1},\"requests\":{\"cpu\":\"10m\"}}` | Resources, one row: none of its keys has a comment. |\n" +
		"| `args` | `[\"--a\",\"--b\"]` | A block list. |\n" +
		"| `text` | `\"name: not a key\\n\"` | A block scalar. |\n"
	if got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

// A value without a comment, or a comment separated from its key, fails the generation: no
// value goes undocumented.
func TestValuesTableRefusesAnUndocumentedValue(t *testing.T) {
	for _, values := range []string{
		"# A.\na: 1\nb: 2\n",
		"# A, then a blank line.\n\na: 1\n",
		"# A map.\nm:\n  # Documented.\n  first: 1\n  second: 2\n",
	} {
		if _, err := valuesTable([]byte(values)); err == nil || !strings.Contains(err.Error(), "has no comment") {
			t.Errorf("%q: err %v", values, err)
		}
	}
}

func TestReplaceTable(t *testing.T) {
	readme := "# Chart\n\nProse.\n\n" + tableBegin + "\nold table\n" + tableEnd + "\n\nMore prose.\n"
	got, err := replaceTable(readme, "| new |\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Chart\n\nProse.\n\n" + tableBegin + "\n| new |\n" + tableEnd + "\n\nMore prose.\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := replaceTable("no markers", "x"); err == nil {
		t.Error("a README without the markers is written")
	}
}

// charts/daprbench/README.md's table is the one values.yaml makes (make chart-docs writes it;
// make verify checks it too).
func TestTheChartsTableIsCurrent(t *testing.T) {
	chart := filepath.Join(testenv.RepoRoot(), "charts", "daprbench")
	values, err := os.ReadFile(filepath.Join(chart, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	table, err := valuesTable(values)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(chart, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want, err := replaceTable(string(readme), table); err != nil || want != string(readme) {
		t.Errorf("charts/daprbench/README.md's values table is stale (%v): run make chart-docs", err)
	}
}
