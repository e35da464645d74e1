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

package action

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pinned is a step's action at a full commit, its version in a comment for the reader: a
// tag can be moved to other code, a commit cannot.
var pinned = regexp.MustCompile(`^\s*-?\s*uses:\s*[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*\s*$`)

// Every action the workflows and the Action use is pinned by commit.
func TestEveryActionIsPinnedByCommit(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", ".github", "workflows", "*.yml"))
	must(t, err)
	files = append(files, filepath.Join("..", "..", "action.yml"))
	uses := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		must(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			if !regexp.MustCompile(`^\s*-?\s*uses:`).MatchString(line) {
				continue
			}
			uses++
			if !pinned.MatchString(line) {
				t.Errorf("%s:%d: %q is not pinned by commit (owner/repo@<40 hex> # vX.Y.Z)", filepath.Base(f), i+1, strings.TrimSpace(line))
			}
		}
	}
	if uses < 5 {
		t.Errorf("only %d uses: found; the workflows were not read", uses)
	}
}

// The release job, which may write the release, the packages and attestations, restores
// nothing another job could have seeded: no cache step, and setup-go's own cache off.
func TestTheReleaseJobRestoresNoCache(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "release.yml"))
	must(t, err)
	release := string(b)
	if strings.Contains(release, "actions/cache@") {
		t.Error("release.yml restores a cache")
	}
	_, step, found := strings.Cut(release, "actions/setup-go@")
	step, _, _ = strings.Cut(step, "\n      - ") // up to the next step
	if !found || !strings.Contains(step, "\n          cache: false") {
		t.Error("release.yml's setup-go restores Go's module and build caches (want cache: false)")
	}
}

// The docs show the Action the way the workflows use theirs: pinned by a commit (a 40-hex
// SHA, or a placeholder naming the release's), its version in a comment, and plugin-version
// naming that same release, since at a commit the Action cannot tell which release it is and
// would build the plugin from source.
func TestTheDocsPinTheActionByCommit(t *testing.T) {
	use := regexp.MustCompile(`uses: daprbench/daprbench@([0-9a-f]{40}|<commit SHA of (v\d+\.\d+\.\d+)>) # (v\d+\.\d+\.\d+)`)
	n := 0
	for _, f := range []string{filepath.Join("..", "..", "docs", "ci.md"), filepath.Join("..", "..", "README.md")} {
		b, err := os.ReadFile(f)
		must(t, err)
		lines := strings.Split(string(b), "\n")
		for i, line := range lines {
			if !strings.Contains(line, "daprbench/daprbench@") {
				continue
			}
			n++
			m := use.FindStringSubmatch(line)
			if m == nil || (m[2] != "" && m[2] != m[3]) {
				t.Errorf("%s:%d: %q is not pinned by commit with its version in a comment (daprbench/daprbench@<40 hex> # vX.Y.Z)", filepath.Base(f), i+1, strings.TrimSpace(line))
				continue
			}
			// plugin-version names the same release: in the step's with: (docs/ci.md), or on
			// the same or the next line (README.md's prose).
			end := min(i+2, len(lines))
			if strings.HasPrefix(strings.TrimSpace(line), "- uses:") {
				for end = i + 1; end < len(lines) && !strings.HasPrefix(lines[end], "- ") && !strings.HasPrefix(lines[end], "```"); end++ {
				}
			}
			if !strings.Contains(strings.Join(lines[i:end], "\n"), "plugin-version: "+m[3]) {
				t.Errorf("%s:%d: the Action pinned at %s is not given plugin-version: %s (at a commit it would build the plugin from source)", filepath.Base(f), i+1, m[3], m[3])
			}
		}
	}
	if n < 2 {
		t.Errorf("only %d uses of the Action in docs/ci.md and README.md", n)
	}
}
