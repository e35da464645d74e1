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

package grafana

import (
	"fmt"
	"regexp"
	"strings"
)

// Grafana's own rules for a Prometheus query, every variable on "All" (its Prometheus data
// source's interpolateQueryExpr and prometheusSpecialRegexEscape, classic escaping; the
// scenes MultiValueVariable's getValue):
//   - a variable with a custom all value (allValue) expands to it verbatim, unescaped;
//   - without one, to the values its query returned, each regex-escaped: one value alone,
//     several as (a|b), none as () — so a matcher =~"$v" lets through only the listed
//     values, and a series without the label only while the list is empty.

// variableRef is Grafana's variable syntax: $name, [[name]] or ${name} / ${name:format}.
var variableRef = regexp.MustCompile(`\$(\w+)|\[\[(\w+?)(?::(\w+))?\]\]|\$\{(\w+)(?::([^}]+))?\}`)

// ExpandAll is expr as Grafana sends it with every variable on "All": options are the
// values each query variable's query returned, builtins the values of Grafana's own
// variables ($__range and the like).
func (d *Dashboard) ExpandAll(expr string, options map[string][]string, builtins map[string]string) (string, error) {
	var err error
	out := variableRef.ReplaceAllStringFunc(expr, func(ref string) string {
		m := variableRef.FindStringSubmatch(ref)
		name, format := m[1]+m[2]+m[4], m[3]+m[5]
		if format != "" {
			err = fmt.Errorf("%s: explicit formats are not modelled", ref)
			return ref
		}
		if v, ok := builtins[name]; ok {
			return v
		}
		v := d.Variable(name)
		if v == nil {
			err = fmt.Errorf("%s: no such variable", ref)
			return ref
		}
		if !v.IncludeAll {
			err = fmt.Errorf("%s: the variable has no All option", ref)
			return ref
		}
		if v.AllValue != "" {
			return v.AllValue
		}
		return regexOf(options[name])
	})
	return out, err
}

// regexOf is a list of values as Grafana's Prometheus data source formats it for a
// multi-value or include-all variable.
func regexOf(values []string) string {
	escaped := make([]string, len(values))
	for i, v := range values {
		escaped[i] = escapeRegex(v)
	}
	if len(escaped) == 1 {
		return escaped[0]
	}
	return "(" + strings.Join(escaped, "|") + ")"
}

var regexMeta = regexp.MustCompile(`[$^*{}\[\]+?.()|]`)

// escapeRegex is prometheusSpecialRegexEscape: a backslash becomes four and a regex
// metacharacter gets two in front, so that inside the PromQL string literal each is one.
func escapeRegex(v string) string {
	v = strings.ReplaceAll(v, `\`, `\\\\`)
	return regexMeta.ReplaceAllString(v, `\\$0`)
}
