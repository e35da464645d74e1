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

// Command chartdocs writes the values table of a chart's README.md from its values.yaml:
// each key's comment (the comment lines right above it) is its description, its default the
// value as parsed. Only the part between the markers tableBegin and tableEnd is written.
//
//	go run ./hack/gen/chartdocs charts/daprbench     # make chart-docs
//
// A key is a row when its value is not a map, or is a map none of whose keys carries a comment
// of its own (resources, podSecurityContext); a map whose keys are commented is a section: a
// row with its own comment and no default, then a row per key. Every row needs a comment,
// and every value parsed must fall under a row, so a new value cannot go undocumented.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

const (
	tableBegin = "<!-- values table: generated from values.yaml by `make chart-docs` (hack/gen/chartdocs); do not edit -->"
	tableEnd   = "<!-- end of values table -->"
)

func main() {
	if len(os.Args) != 2 {
		fail(fmt.Errorf("usage: chartdocs CHART_DIR"))
	}
	chart := os.Args[1]
	values, err := os.ReadFile(filepath.Join(chart, "values.yaml"))
	fail(err)
	table, err := valuesTable(values)
	fail(err)
	readme := filepath.Join(chart, "README.md")
	b, err := os.ReadFile(readme)
	fail(err)
	out, err := replaceTable(string(b), table)
	fail(err)
	fail(os.WriteFile(readme, []byte(out), 0o644))
}

// entry is a key of values.yaml, in the file's order.
type entry struct {
	path        []string
	description string
}

var (
	keyLine     = regexp.MustCompile(`^( *)([A-Za-z_][A-Za-z0-9_]*):( .*)?$`)
	commentLine = regexp.MustCompile(`^( *)#(.*)$`)
)

// entries reads values.yaml's keys and the comment right above each (at the key's own
// indentation, no blank line between). Lines that are neither (a block list's items, a
// block scalar's text) end a comment without starting a key.
func entries(values []byte) ([]entry, error) {
	var out []entry
	var stack []string
	var comment []string
	commentIndent := -1
	for i, line := range strings.Split(string(values), "\n") {
		if m := commentLine.FindStringSubmatch(line); m != nil {
			if commentIndent != len(m[1]) {
				comment = nil
			}
			commentIndent = len(m[1])
			comment = append(comment, strings.TrimSpace(m[2]))
			continue
		}
		m := keyLine.FindStringSubmatch(line)
		if m == nil {
			comment, commentIndent = nil, -1
			continue
		}
		indent := len(m[1])
		if indent%2 != 0 || indent/2 > len(stack) {
			return nil, fmt.Errorf("values.yaml:%d: indented by %d: want two spaces per level", i+1, indent)
		}
		stack = append(stack[:indent/2], m[2])
		e := entry{path: append([]string(nil), stack...)}
		if commentIndent == indent {
			e.description = strings.Join(comment, " ")
		}
		out = append(out, e)
		comment, commentIndent = nil, -1
	}
	return out, nil
}

// row is one line of the table: a value (its default set) or a section (no default).
type row struct {
	key, def, description string
	section               bool
}

// rows decides which keys are rows and which are sections, and checks that every value
// parsed lies under a documented row.
func rows(values []byte) ([]row, error) {
	var parsed map[string]any
	if err := yaml.Unmarshal(values, &parsed); err != nil {
		return nil, err
	}
	all, err := entries(values)
	if err != nil {
		return nil, err
	}
	documented := map[string]bool{} // key → a key under it carries a comment
	for _, e := range all {
		for n := 1; n < len(e.path); n++ {
			if e.description != "" {
				documented[strings.Join(e.path[:n], ".")] = true
			}
		}
	}
	var out []row
	var under string // the last row's key: its keys are part of its default
	covered := map[string]bool{}
	for _, e := range all {
		key := strings.Join(e.path, ".")
		if under != "" && strings.HasPrefix(key, under+".") {
			continue
		}
		v, ok := lookup(parsed, e.path)
		if !ok {
			return nil, fmt.Errorf("values.yaml: %s is read by line but not in the parsed values", key)
		}
		_, isMap := v.(map[string]any)
		section := isMap && documented[key]
		if e.description == "" && !section {
			return nil, fmt.Errorf("values.yaml: %s has no comment: say what it does in the comment right above it", key)
		}
		r := row{key: key, description: e.description, section: section}
		if !section {
			if r.def, err = inline(v); err != nil {
				return nil, err
			}
			under = key
			covered[key] = true
		}
		if section && e.description == "" {
			continue // a map that only groups its keys
		}
		out = append(out, r)
	}
	for _, leaf := range leaves(parsed, nil) {
		if !coveredBy(leaf, covered) {
			return nil, fmt.Errorf("values.yaml: %s is under no row (was it read?)", leaf)
		}
	}
	return out, nil
}

func lookup(m map[string]any, path []string) (any, bool) {
	var v any = m
	for _, k := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = mm[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// leaves are the keys of every value that is not a non-empty map.
func leaves(v any, path []string) []string {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return []string{strings.Join(path, ".")}
	}
	var out []string
	for k, child := range m {
		out = append(out, leaves(child, append(append([]string(nil), path...), k))...)
	}
	return out
}

func coveredBy(key string, rows map[string]bool) bool {
	for {
		if rows[key] {
			return true
		}
		i := strings.LastIndex(key, ".")
		if i < 0 {
			return false
		}
		key = key[:i]
	}
}

// inline is a default on one line: JSON, which is YAML's flow style.
func inline(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSpace(buf.String()), nil
}

// valuesTable is the Markdown table of values.yaml.
func valuesTable(values []byte) (string, error) {
	rs, err := rows(values)
	if err != nil {
		return "", err
	}
	// A cell's text: a pipe would end the cell, and <fullname> would be read as an HTML tag.
	cell := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace
	var b strings.Builder
	b.WriteString("| Value | Default | Description |\n|---|---|---|\n")
	for _, r := range rs {
		if r.section {
			fmt.Fprintf(&b, "| **`%s`** | | %s |\n", r.key, cell(r.description))
			continue
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", r.key, cell(r.def), cell(r.description))
	}
	return b.String(), nil
}

// replaceTable puts table between the README's markers.
func replaceTable(readme, table string) (string, error) {
	before, rest, ok := strings.Cut(readme, tableBegin+"\n")
	if !ok {
		return "", fmt.Errorf("README.md: no line %q", tableBegin)
	}
	_, after, ok := strings.Cut(rest, tableEnd)
	if !ok {
		return "", fmt.Errorf("README.md: no %q after %q", tableEnd, tableBegin)
	}
	return before + tableBegin + "\n" + table + tableEnd + after, nil
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "chartdocs:", err)
		os.Exit(1)
	}
}
