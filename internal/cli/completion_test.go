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

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/daprbench/daprbench/internal/testenv"
)

// krewManifest is the part of krew's Plugin (v1alpha2) its validation reads.
type krewManifest struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Version          string `json:"version"`
		ShortDescription string `json:"shortDescription"`
		Homepage         string `json:"homepage"`
		Platforms        []struct {
			Selector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"selector"`
			URI    string `json:"uri"`
			Sha256 string `json:"sha256"`
			Bin    string `json:"bin"`
			Files  []struct {
				From string `json:"from"`
				To   string `json:"to"`
			} `json:"files"`
		} `json:"platforms"`
	} `json:"spec"`
}

// The krew manifest passes the checks krew's own validation makes (pkg/index/validation):
// the name is the file's, the version semantic with a v, each platform selected, fetched
// over HTTPS from this version's release with a sha256, and installing the binary and the
// completion script that exist in the repository.
func TestKrewManifestIsValid(t *testing.T) {
	path := filepath.Join(testenv.RepoRoot(), "plugins", "daprbench.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m krewManifest
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || m.Kind != "Plugin" {
		t.Errorf("apiVersion %q kind %q", m.APIVersion, m.Kind)
	}
	if m.Metadata.Name != strings.TrimSuffix(filepath.Base(path), ".yaml") || !regexp.MustCompile(`^[a-z0-9-]+$`).MatchString(m.Metadata.Name) {
		t.Errorf("name %q: krew wants the file's name, lower case", m.Metadata.Name)
	}
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(m.Spec.Version) {
		t.Errorf("version %q is not v-prefixed semver", m.Spec.Version)
	}
	if m.Spec.ShortDescription == "" || len(m.Spec.ShortDescription) > 50 || !strings.HasPrefix(m.Spec.Homepage, "https://") {
		t.Errorf("shortDescription %q (krew: at most 50 characters), homepage %q", m.Spec.ShortDescription, m.Spec.Homepage)
	}
	if len(m.Spec.Platforms) == 0 {
		t.Fatal("no platforms")
	}
	for _, p := range m.Spec.Platforms {
		goos, arch := p.Selector.MatchLabels["os"], p.Selector.MatchLabels["arch"]
		want := "https://github.com/daprbench/daprbench/releases/download/" + m.Spec.Version + "/kubectl-daprbench_" + goos + "_" + arch + ".tar.gz"
		if p.URI != want {
			t.Errorf("%s/%s uri %q, want %q", goos, arch, p.URI, want)
		}
		if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(p.Sha256) || strings.Trim(p.Sha256, "0") == "" {
			t.Errorf("%s/%s sha256 %q: run hack/gen/krew-archives.sh", goos, arch, p.Sha256)
		}
		var froms []string
		for _, f := range p.Files {
			froms = append(froms, f.From)
			if f.From != "kubectl-daprbench" {
				if _, err := firstExisting(filepath.Join(testenv.RepoRoot(), f.From), filepath.Join(testenv.RepoRoot(), "plugins", f.From)); err != nil {
					t.Errorf("%s/%s installs %s, which the repository does not have", goos, arch, f.From)
				}
			}
		}
		if p.Bin != "kubectl-daprbench" || !slices.Contains(froms, p.Bin) || !slices.Contains(froms, "kubectl_complete-daprbench") {
			t.Errorf("%s/%s bin %q, files %v", goos, arch, p.Bin, froms)
		}
	}
}

// firstExisting is the first of paths that exists.
func firstExisting(paths ...string) (os.FileInfo, error) {
	var err error
	for _, p := range paths {
		var fi os.FileInfo
		if fi, err = os.Stat(p); err == nil {
			return fi, nil
		}
	}
	return nil, err
}

// `kubectl daprbench <TAB>` (kubectl_complete-daprbench runs __complete) offers the
// subcommands, and a run's name where a command takes one.
func TestCompletionOffersCommandsAndRunNames(t *testing.T) {
	createRun(t, "completed-run", nil, nil, sampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	complete := func(args ...string) string {
		var out bytes.Buffer
		cmd := newCommand(Streams{Out: &out, ErrOut: &out}, func() (client.WithWatch, error) { return k8s, nil })
		cmd.SetArgs(append([]string{"__complete"}, args...))
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got := complete(""); !strings.Contains(got, "run\t") || !strings.Contains(got, "export\t") {
		t.Errorf("commands:\n%s", got)
	}
	got := complete("report", "-n", "default", "completed")
	if !strings.Contains(got, "completed-run\n") || !strings.Contains(got, ":4") {
		t.Errorf("report's argument (want completed-run and no file completion):\n%s", got)
	}
}
