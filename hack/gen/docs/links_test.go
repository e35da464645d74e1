// Package docs checks the project's Markdown: README.md, CHANGELOG.md and every page under
// docs/. It has no code of its own; its test runs in make test (go test ./...).
package docs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the directory holding go.mod, found upwards from the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// markdownFiles are README.md, CHANGELOG.md and docs/**/*.md, relative to root.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "CHANGELOG.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// page is one Markdown file split into what the checks read.
type page struct {
	prose   []line // lines outside fenced code, inline code removed
	code    []line // fenced code lines and inline code spans
	anchors map[string]bool
}

type line struct {
	n    int
	text string
}

var (
	fenceRe      = regexp.MustCompile("^\\s*(```|~~~)")
	inlineCodeRe = regexp.MustCompile("`[^`]*`")
	headingRe    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	linkRe       = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	slugDropRe   = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	htmlAnchorRe = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	makeRe       = regexp.MustCompile(`(?:^|[\s;&(|])make\s+([^#\n]*)`)
	targetRe     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	ruleRe       = regexp.MustCompile(`^([A-Za-z0-9_.%/$() -]+?)\s*:([^=]|$)`)
	// A path into the repository named in inline code: it must exist.
	repoPathRe = regexp.MustCompile(`^(api|cmd|config|charts|controllers|docs|hack|internal|plugins|test)/[A-Za-z0-9_./-]+$`)
)

// slug is GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
func slug(heading string) string {
	s := strings.ToLower(heading)
	s = slugDropRe.ReplaceAllString(s, "")
	return strings.ReplaceAll(s, " ", "-")
}

func readPage(t *testing.T, path string) page {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := page{anchors: map[string]bool{}}
	seen := map[string]int{}
	inFence := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if fenceRe.MatchString(text) {
			inFence = !inFence
			continue
		}
		if inFence {
			// A shell comment is prose: "# (make plugin builds it)" names no command.
			if i := strings.Index(text, "#"); i >= 0 && (i == 0 || text[i-1] == ' ') {
				text = text[:i]
			}
			p.code = append(p.code, line{n, text})
			continue
		}
		for _, span := range inlineCodeRe.FindAllString(text, -1) {
			p.code = append(p.code, line{n, strings.Trim(span, "`")})
		}
		prose := inlineCodeRe.ReplaceAllStringFunc(text, func(span string) string {
			// Keep a code span's text for headings' anchors, not for links.
			return strings.Trim(span, "`")
		})
		if m := headingRe.FindStringSubmatch(prose); m != nil {
			s := slug(m[1])
			if k := seen[s]; k > 0 {
				p.anchors[fmt.Sprintf("%s-%d", s, k)] = true
			} else {
				p.anchors[s] = true
			}
			seen[s]++
		}
		for _, m := range htmlAnchorRe.FindAllStringSubmatch(text, -1) {
			p.anchors[m[1]] = true
		}
		p.prose = append(p.prose, line{n, inlineCodeRe.ReplaceAllString(text, "")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return p
}

// makeTargets are the Makefile's rule targets (explicit rules, not pattern rules).
func makeTargets(t *testing.T, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "#") {
			continue
		}
		m := ruleRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		for _, name := range strings.Fields(m[1]) {
			if targetRe.MatchString(name) {
				targets[name] = true
			}
		}
	}
	return targets
}

// TestLinks fails on a relative link that does not resolve (a missing file, or a #anchor
// that is no heading of its page), on a `make TARGET` the Makefile does not have, and on a
// repository path in inline code that does not exist.
func TestLinks(t *testing.T) {
	root := repoRoot(t)
	targets := makeTargets(t, root)
	if !targets["demo"] || !targets["test"] {
		t.Fatalf("Makefile targets not read: %v", targets)
	}
	pages := map[string]page{}
	files := markdownFiles(t, root)
	for _, f := range files {
		pages[f] = readPage(t, filepath.Join(root, f))
	}
	var problems []string
	report := func(file string, n int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s", file, n, fmt.Sprintf(format, args...)))
	}
	for _, f := range files {
		p := pages[f]
		for _, l := range p.prose {
			for _, m := range linkRe.FindAllStringSubmatch(l.text, -1) {
				dest := m[1]
				if strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(dest, "#")
				target := f
				if path != "" {
					target = filepath.Clean(filepath.Join(filepath.Dir(f), path))
					if _, err := os.Stat(filepath.Join(root, target)); err != nil {
						report(f, l.n, "link %q: %s does not exist", dest, target)
						continue
					}
				}
				if anchor == "" || !strings.HasSuffix(target, ".md") {
					continue
				}
				tp, ok := pages[target]
				if !ok {
					tp = readPage(t, filepath.Join(root, target))
					pages[target] = tp
				}
				if !tp.anchors[anchor] {
					report(f, l.n, "link %q: no heading #%s in %s", dest, anchor, target)
				}
			}
		}
		for _, l := range p.code {
			for _, m := range makeRe.FindAllStringSubmatch(l.text, -1) {
				for _, word := range strings.Fields(m[1]) {
					if strings.Contains(word, "=") || strings.HasPrefix(word, "-") {
						continue // a variable or a flag
					}
					if !targetRe.MatchString(word) {
						break
					}
					if !targets[word] {
						report(f, l.n, "make %s: no such target in the Makefile", word)
					}
				}
			}
			for _, word := range strings.Fields(l.text) {
				word = strings.TrimRight(word, ".,;:)")
				if !repoPathRe.MatchString(word) {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, word)); err != nil {
					report(f, l.n, "path %s does not exist", word)
				}
			}
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"What a run looks like":              "what-a-run-looks-like",
		"perf.daprbench.io/v1alpha1":         "perfdaprbenchiov1alpha1",
		"In CI: a GitHub Action, and GitLab": "in-ci-a-github-action-and-gitlab",
		"Sidecar variants: A/B in one run":   "sidecar-variants-ab-in-one-run",
		"kubectl daprbench: reports":         "kubectl-daprbench-reports",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
