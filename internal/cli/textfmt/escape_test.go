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

package textfmt

import "testing"

func TestSanitizers(t *testing.T) {
	for _, tc := range []struct {
		sink, in, want string
	}{
		{"terminal", "plain text, 12.1ms", "plain text, 12.1ms"},
		{"terminal", "keeps\nlines\tand tabs", "keeps\nlines\tand tabs"},
		{"terminal", "\x1b]0;title\a\x1b[2Jcleared", "]0;title[2Jcleared"},
		{"terminal", "c1 \u009b31m csi, \u0085 nel", "c1 31m csi,  nel"},
		{"terminal", "cr\r del\x7f nul\x00", "cr del nul"},
		{"terminal", "bidi \u202eevil\u202c", "bidi evil"},
		{"terminal", "lone byte \x9b", "lone byte \uFFFD"},
		{"terminal", "ünïcode ✅ µs", "ünïcode ✅ µs"},
		{"cell", "two\nlines\tand tab\x1b", "two lines and tab"},
		{"markdown", "7ms (95% interval 6.9ms..7.1ms)", "7ms (95% interval 6.9ms..7.1ms)"},
		{"markdown", "<h3>✅ passed</h3>", "&lt;h3&gt;✅ passed&lt;/h3&gt;"},
		{"markdown", "a & b \"q\"", "a &amp; b &quot;q&quot;"},
		{"markdown", "[click](https://evil.example)", "\\[click\\](https\\://evil.example)"},
		{"markdown", "*bold* _em_ `code` ~~del~~ $x$", "\\*bold\\* \\_em\\_ \\`code\\` \\~\\~del\\~\\~ \\$x\\$"},
		{"markdown", "cell | break\nrow", "cell \\| break row"},
		{"markdown", "@team :x: #12 back\\slash", "\\@team \\:x\\: \\#12 back\\\\slash"},
		{"markdown", "- list", "\\- list"},
		{"markdown", "+ list", "\\+ list"},
		{"markdown", "> quote", "&gt; quote"},
		{"markdown", "!image", "\\!image"},
		{"markdown", "a - b", "a - b"},
		{"markdown", "esc\x1b[31m bel\a", "esc\\[31m bel"},
		{"csv", "=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"},
		{"csv", "+1+2", "'+1+2"},
		{"csv", "-2+3", "'-2+3"},
		{"csv", "@SUM(A1)", "'@SUM(A1)"},
		{"csv", "\t=1", "'\t=1"},
		{"csv", "\r=1", "'\r=1"},
		{"csv", "-A1", "'-A1"},
		{"csv", "--1", "'--1"},
		{"csv", "-", "-"},
		{"csv", "", ""},
		{"csv", "-1.2ms", "-1.2ms"},
		{"csv", "-444µs", "-444µs"},
		{"csv", "-1h2m3.5s", "-1h2m3.5s"},
		{"csv", "-390m", "-390m"},
		{"csv", "-3.5e3", "-3.5e3"},
		{"csv", "-1e+3", "-1e+3"},
		{"csv", "+5", "+5"},
		{"csv", "2026-11-20T03:00:00Z", "2026-11-20T03:00:00Z"},
		{"csv", "plain = text", "plain = text"},
	} {
		var got string
		switch tc.sink {
		case "terminal":
			got = ForTerminal(tc.in)
		case "cell":
			got = TerminalCell(tc.in)
		case "markdown":
			got = MarkdownText(tc.in)
		case "csv":
			got = CSVCell(tc.in)
		}
		if got != tc.want {
			t.Errorf("%s(%q) = %q, want %q", tc.sink, tc.in, got, tc.want)
		}
	}
}
