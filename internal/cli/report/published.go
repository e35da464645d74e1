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

package report

import (
	"github.com/daprbench/daprbench/internal/cli/preset"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/document"
)

// publishedTable is preset.Beside as a text table; empty without a preset.
func publishedTable(run document.Run) string {
	source, rows := preset.Beside(run)
	if rows == nil {
		if source != "" {
			return "\nThis run is " + textfmt.ForTerminal(source) + ".\n"
		}
		return ""
	}
	t := &textfmt.Table{}
	t.Add("FIGURE", "PUBLISHED", "THIS RUN")
	for _, r := range rows {
		t.Add(r[0], r[1], r[2])
	}
	return "\nBeside " + source + ":\n" + t.String()
}

// publishedSection is preset.Beside as a section of the HTML report.
func publishedSection(run document.Run) htmlSection {
	s := htmlSection{ID: "published", Title: "Beside Dapr's published figures"}
	source, rows := preset.Beside(run)
	t := htmlTable{ID: "published-figures", Caption: source, Header: []string{"Figure", "Published", "This run"}}
	for _, r := range rows {
		t.addText(r[0], r[1], r[2])
	}
	s.table(t)
	return s
}
