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

package compare

import (
	"fmt"
	"strings"

	"github.com/daprbench/daprbench/internal/cli/junit"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// JUnit is one testsuite for the comparison and one testcase per gated figure:
// a failure when it is slower than allowed, or inconclusive and that is to fail.
func JUnit(r Comparison, failInconclusive bool) ([]byte, error) {
	s := junit.Suite{Name: "compare " + r.A + " " + r.B, Time: "0",
		Properties: []junit.Property{{Name: "exitCode", Value: fmt.Sprint(int(r.ExitCode))}, {Name: "verdict", Value: r.Verdict}}}
	for _, d := range r.Differences {
		if d.Gate == "" {
			continue
		}
		c := junit.Case{Name: d.Figure + " within " + d.Limit + " of " + r.A, Classname: "daprbench.compare", Time: "0",
			SystemOut: fmt.Sprintf("%s: %s -> %s, change %s, 95%% interval %s: %s", d.Figure, d.A, d.B, d.Change, textfmt.OrDash(d.Interval), d.Gate)}
		if d.Gate == GateSlower || d.Gate == GateInconclusive && failInconclusive {
			c.Failure = &junit.Problem{Message: d.Gate, Type: d.Gate, Text: c.SystemOut}
		}
		s.Cases = append(s.Cases, c)
	}
	return junit.Marshal(s)
}

// Summary is the comparison in GitHub-flavoured Markdown; every label and value
// is textfmt.MarkdownText (a file name is the user's words).
func Summary(r Comparison) string {
	var b strings.Builder
	mark := "✅ passed"
	if r.ExitCode != verdict.ExitPassed {
		mark = fmt.Sprintf("❌ exit %d", r.ExitCode)
	}
	fmt.Fprintf(&b, "### daprbench compare %s → %s: %s\n\n%s\n\n", textfmt.MarkdownText(r.A), textfmt.MarkdownText(r.B), mark, textfmt.MarkdownText(r.Verdict))
	b.WriteString("| figure | A | B | change | 95% interval | verdict | gate |\n|---|---|---|---|---|---|---|\n")
	for _, d := range r.Differences {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", textfmt.MarkdownText(d.Figure), textfmt.MarkdownText(d.A), textfmt.MarkdownText(d.B),
			textfmt.MarkdownText(d.Change), textfmt.MarkdownText(textfmt.OrDash(d.Interval)), textfmt.MarkdownText(d.Verdict), textfmt.MarkdownText(textfmt.OrDash(d.Gate)))
	}
	if r.Intervals != "" {
		fmt.Fprintf(&b, "\n%s\n", textfmt.MarkdownText(r.Intervals))
	}
	for _, s := range r.SettingsDiffer {
		fmt.Fprintf(&b, "\nSettings differ: %s", textfmt.MarkdownText(s))
	}
	return b.String()
}
