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

// Package textfmt is how the plugin writes text for each place it lands: escaped for a
// terminal, a Markdown summary, an HTML page or a CSV cell, and aligned in tables as kubectl
// prints them.
package textfmt

import (
	"strconv"
	"strings"
	"unicode"
)

// What the plugin prints repeats what users wrote: condition messages quote spec strings
// (an image, a variant), and status, labels and annotations are anyone's who may edit the
// object. Each sink gets the string escaped for it here.

// ForTerminal drops what a terminal would act on instead of print: C0 controls but
// newline and tab (ESC starts a sequence, BEL ends one), DEL, C1 controls (U+009B is a
// one-rune CSI), and the bidirectional overrides that reorder what is shown. Invalid UTF-8
// becomes U+FFFD, so a lone byte 0x9B cannot act as CSI either.
func ForTerminal(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !Hidden(r) {
			return r
		}
		return -1
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// TerminalCell is ForTerminal on one line: a newline or tab in a cell would break the
// table's rows and columns.
func TerminalCell(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, ForTerminal(s))
}

// HTMLText is s as text for an HTML page, before html/template escapes its markup: the
// controls and bidirectional overrides ForTerminal drops go here too (an override shows a
// name or a figure reversed), newline and tab stay, invalid UTF-8 becomes U+FFFD.
func HTMLText(s string) string { return ForTerminal(s) }

// Hidden: control characters (C0, DEL, C1) and bidirectional formatting.
func Hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// MarkdownText is s as literal text inside GitHub-flavoured Markdown, on one line (a table
// cell or a paragraph): controls dropped, newlines and tabs spaced, HTML's &, <, >, "
// as entities (GitHub renders inline HTML), and the characters that would start a link,
// emphasis, code, a table cell, an emoji shortcode, a mention or math backslash-escaped.
// A paragraph's first character is escaped too, so it cannot start a heading, a list or
// a quote.
func MarkdownText(s string) string {
	var b strings.Builder
	for i, r := range TerminalCell(s) {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case strings.ContainsRune("\\`*_[]|~:@$#", r), i == 0 && r < unicode.MaxASCII && (unicode.IsPunct(r) || unicode.IsSymbol(r)):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CSVCell keeps a spreadsheet from running a cell as a formula: text that starts with =,
// +, -, @, a tab or a carriage return gets a leading single quote (OWASP's advice). A
// number stays as it is, signed or with a unit ("-1.2ms", "-390m", "-3.5e3"), and so does
// "-", the plugin's "none".
func CSVCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) || s == "-" || Numeric(s) {
		return s
	}
	return "'" + s
}

// Numeric: a float, or a sign, a digit or point, then digits, points and unit letters
// only; no spreadsheet formula can be written with those.
func Numeric(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" || !(body[0] == '.' || body[0] >= '0' && body[0] <= '9') {
		return false
	}
	for _, r := range body {
		if r != '.' && r != 'µ' && r != 'μ' && !(r < unicode.MaxASCII && (unicode.IsDigit(r) || unicode.IsLetter(r))) {
			return false
		}
	}
	return true
}
