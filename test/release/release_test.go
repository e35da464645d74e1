//go:build release

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

// Package release checks what the release pipeline put in dist/ (make release-snapshot runs
// it; make test-release runs it alone): every artifact is there, the krew manifest matches the
// archives, the image index holds the four binaries for both platforms, the chart pins that
// image by digest, and the binaries say the release's version.
//
//	make release-snapshot               # builds dist/, then runs this
//	HELM=bin/helm go test -tags release ./test/release/
package release

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// dist is the release's output directory: $DIST, else the repository's dist/.
func dist() string {
	if d := os.Getenv("DIST"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "dist")
}

var platforms = []struct{ os, arch string }{
	{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"},
}

// release is dist/release.env (hack/release/release.sh), checked against GoReleaser's
// dist/metadata.json.
type release struct {
	Version, Tag, Commit, Image, ImageDigest, Chart string
}

func readRelease(t *testing.T) release {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dist(), "release.env"))
	if err != nil {
		t.Fatalf("%v: run make release-snapshot first", err)
	}
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = v
		}
	}
	r := release{Version: env["VERSION"], Tag: env["TAG"], Commit: env["COMMIT"], Image: env["IMAGE"], ImageDigest: env["IMAGE_DIGEST"], Chart: env["CHART"]}
	var meta struct{ Version, Tag, Commit string }
	mustJSON(t, filepath.Join(dist(), "metadata.json"), &meta)
	if meta.Version == "" || meta.Version != r.Version || meta.Tag != r.Tag || meta.Commit != r.Commit {
		t.Fatalf("release.env %+v, GoReleaser's metadata.json %+v", r, meta)
	}
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(r.ImageDigest) {
		t.Fatalf("image digest %q", r.ImageDigest)
	}
	return r
}

func mustJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// tgzFiles is each regular file of a .tar.gz (or of a gzipped layer) by name, with its bytes.
func tgzFiles(t *testing.T, r io.Reader) map[string][]byte {
	t.Helper()
	gz, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	files := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			files[strings.TrimPrefix(hdr.Name, "./")] = b
		}
	}
}

func archiveName(goos, arch string) string {
	return "kubectl-daprbench_" + goos + "_" + arch + ".tar.gz"
}

// Every artifact a release publishes is in dist/: the plugin's six archives (binary,
// completion helper, licence) listed in checksums.txt with their true sha256, a CycloneDX
// SBOM of every binary, the krew manifest, the image layout and digest, the chart and its
// rendering.
func TestEveryArtifactIsThere(t *testing.T) {
	r := readRelease(t)
	sums := map[string]string{}
	b, err := os.ReadFile(filepath.Join(dist(), "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if sum, file, ok := strings.Cut(line, "  "); ok {
			sums[file] = sum
		}
	}
	for _, p := range platforms {
		name := archiveName(p.os, p.arch)
		path := filepath.Join(dist(), name)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s/%s: %v", p.os, p.arch, err)
			continue
		}
		if got := sha256File(t, path); sums[name] != got {
			t.Errorf("checksums.txt says %s is %q, it is %s", name, sums[name], got)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		files := tgzFiles(t, f)
		f.Close()
		bin := "kubectl-daprbench"
		if p.os == "windows" {
			bin += ".exe"
		}
		for _, want := range []string{bin, "kubectl_complete-daprbench", "LICENSE"} {
			if _, ok := files[want]; !ok {
				t.Errorf("%s has no %s (it has %v)", name, want, keys(files))
			}
		}
	}
	var sboms []string
	for _, p := range platforms {
		sboms = append(sboms, "kubectl-daprbench_"+r.Version+"_"+p.os+"_"+p.arch+".cdx.json")
	}
	for _, b := range []string{"manager", "loadtester", "perfapp"} {
		for _, arch := range []string{"amd64", "arm64"} {
			sboms = append(sboms, b+"_"+r.Version+"_linux_"+arch+".cdx.json")
		}
	}
	for _, s := range sboms {
		var bom struct {
			BOMFormat  string `json:"bomFormat"`
			Components []struct {
				Name string `json:"name"`
			} `json:"components"`
		}
		mustJSON(t, filepath.Join(dist(), s), &bom)
		if bom.BOMFormat != "CycloneDX" || len(bom.Components) == 0 {
			t.Errorf("%s: bomFormat %q, %d components", s, bom.BOMFormat, len(bom.Components))
		}
	}
	for _, f := range []string{"krew/daprbench.yaml", "image/index.json", "image/oci-layout", "image.digest", filepath.Base(r.Chart),
		"daprbench-" + r.Version + ".rendered.yaml"} {
		if _, err := os.Stat(filepath.Join(dist(), f)); err != nil {
			t.Error(err)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

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
		} `json:"platforms"`
	} `json:"spec"`
}

// The krew manifest passes the checks krew's own validation makes (pkg/index/validation:
// the name is the file's, the version v-prefixed SemVer, the short description short, the
// homepage HTTPS) and names, for each of the six platforms, the archive built for it: its
// URL in this release and its sha256. Without `files`, krew installs all the archive holds.
func TestKrewManifestMatchesTheArchives(t *testing.T) {
	r := readRelease(t)
	path := filepath.Join(dist(), "krew", "daprbench.yaml")
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
	if m.Spec.Version != "v"+r.Version || !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(m.Spec.Version) {
		t.Errorf("version %q, want v%s (v-prefixed SemVer)", m.Spec.Version, r.Version)
	}
	if m.Spec.ShortDescription == "" || len(m.Spec.ShortDescription) > 50 || !strings.HasPrefix(m.Spec.Homepage, "https://") {
		t.Errorf("shortDescription %q (krew: at most 50 characters), homepage %q", m.Spec.ShortDescription, m.Spec.Homepage)
	}
	repo := os.Getenv("GITHUB_REPOSITORY")
	if repo == "" {
		repo = "daprbench/daprbench"
	}
	var got []string
	for _, p := range m.Spec.Platforms {
		goos, arch := p.Selector.MatchLabels["os"], p.Selector.MatchLabels["arch"]
		got = append(got, goos+"/"+arch)
		name := archiveName(goos, arch)
		if want := "https://github.com/" + repo + "/releases/download/" + r.Tag + "/" + name; p.URI != want {
			t.Errorf("%s/%s uri %q, want %q", goos, arch, p.URI, want)
		}
		archive := filepath.Join(dist(), name)
		if _, err := os.Stat(archive); err != nil {
			t.Errorf("%s/%s: no archive: %v", goos, arch, err)
		} else if sum := sha256File(t, archive); p.Sha256 != sum {
			t.Errorf("%s/%s sha256 %q, the archive's is %s", goos, arch, p.Sha256, sum)
		}
		wantBin := "kubectl-daprbench"
		if goos == "windows" {
			wantBin += ".exe"
		}
		if p.Bin != wantBin {
			t.Errorf("%s/%s bin %q, want %q", goos, arch, p.Bin, wantBin)
		}
	}
	slices.Sort(got)
	var want []string
	for _, p := range platforms {
		want = append(want, p.os+"/"+p.arch)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("platforms %v, want %v", got, want)
	}
}

type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Annotations map[string]string `json:"annotations"`
	Platform    *struct {
		OS           string `json:"os"`
		Architecture string `json:"architecture"`
	} `json:"platform"`
}

// blob reads a blob of the OCI layout, checking that its content has its digest.
func blob(t *testing.T, digest string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dist(), "image", "blobs", "sha256", strings.TrimPrefix(digest, "sha256:")))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); "sha256:"+hex.EncodeToString(sum[:]) != digest {
		t.Fatalf("blob %s does not have its digest", digest)
	}
	return b
}

// The image in dist/image (an OCI layout) is one index, of the digest the chart pins, over a
// linux/amd64 and a linux/arm64 image; each runs /manager and holds the four binaries,
// byte for byte the ones GoReleaser built for its platform.
func TestImageIndexHoldsTheFourBinariesForBothPlatforms(t *testing.T) {
	r := readRelease(t)
	var layoutIndex struct{ Manifests []descriptor }
	mustJSON(t, filepath.Join(dist(), "image", "index.json"), &layoutIndex)
	if len(layoutIndex.Manifests) != 1 || layoutIndex.Manifests[0].Digest != r.ImageDigest ||
		layoutIndex.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != r.Image+":"+r.Version {
		t.Fatalf("the layout's index.json %+v, want one index %s named %s:%s", layoutIndex, r.ImageDigest, r.Image, r.Version)
	}
	var index struct{ Manifests []descriptor }
	if err := json.Unmarshal(blob(t, r.ImageDigest), &index); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range index.Manifests {
		if m.Platform == nil {
			t.Fatalf("manifest %s has no platform", m.Digest)
		}
		arch := m.Platform.OS + "/" + m.Platform.Architecture
		got = append(got, arch)
		var manifest struct {
			Config descriptor
			Layers []descriptor
		}
		if err := json.Unmarshal(blob(t, m.Digest), &manifest); err != nil {
			t.Fatal(err)
		}
		var config struct {
			OS, Architecture string
			Config           struct{ Entrypoint []string }
		}
		if err := json.Unmarshal(blob(t, manifest.Config.Digest), &config); err != nil {
			t.Fatal(err)
		}
		if config.OS+"/"+config.Architecture != arch || !slices.Equal(config.Config.Entrypoint, []string{"/manager"}) {
			t.Errorf("%s: config %+v", arch, config)
		}
		files := map[string][]byte{}
		for _, l := range manifest.Layers {
			for k, v := range tgzFiles(t, bytes.NewReader(blob(t, l.Digest))) {
				files[k] = v
			}
		}
		for _, b := range []string{"manager", "loadtester", "perfapp", "kubectl-daprbench"} {
			built, _ := filepath.Glob(filepath.Join(dist(), b+"_"+m.Platform.OS+"_"+m.Platform.Architecture+"*", b))
			if len(built) != 1 {
				t.Errorf("%s: GoReleaser's %s: %v", arch, b, built)
				continue
			}
			want, err := os.ReadFile(built[0])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(files[b], want) {
				t.Errorf("%s: the image's /%s (%d bytes) is not %s (%d bytes)", arch, b, len(files[b]), built[0], len(want))
			}
		}
	}
	if strings.Join(got, ",") != "linux/amd64,linux/arm64" {
		t.Errorf("platforms %v", got)
	}
}

// The packaged chart says the release's version (version and appVersion) and, unchanged by
// any value, runs the manager — and tells it to run the runs' pods — on the release's image
// by digest.
func TestChartPinsTheImageByDigest(t *testing.T) {
	r := readRelease(t)
	f, err := os.Open(r.Chart)
	if err != nil {
		f, err = os.Open(filepath.Join(dist(), filepath.Base(r.Chart)))
	}
	if err != nil {
		t.Fatal(err)
	}
	files := tgzFiles(t, f)
	f.Close()
	var chart struct {
		Version     string            `json:"version"`
		AppVersion  string            `json:"appVersion"`
		Annotations map[string]string `json:"annotations"`
	}
	if err := yaml.Unmarshal(files["daprbench/Chart.yaml"], &chart); err != nil {
		t.Fatal(err)
	}
	if chart.Version != r.Version || chart.AppVersion != r.Version {
		t.Errorf("Chart.yaml version %q appVersion %q, want %q", chart.Version, chart.AppVersion, r.Version)
	}
	// Artifact Hub lists (and scans) the release's image.
	var images []struct{ Name, Image string }
	if err := yaml.Unmarshal([]byte(chart.Annotations["artifacthub.io/images"]), &images); err != nil || len(images) != 1 || images[0].Image != r.Image+":"+r.Version {
		t.Errorf("Chart.yaml artifacthub.io/images %+v (%v), want %s:%s", images, err, r.Image, r.Version)
	}
	var values struct {
		Image struct{ Repository, Tag, Digest string }
	}
	if err := yaml.Unmarshal(files["daprbench/values.yaml"], &values); err != nil {
		t.Fatal(err)
	}
	if values.Image.Repository != r.Image || values.Image.Digest != r.ImageDigest {
		t.Errorf("values image %+v, want %s@%s", values.Image, r.Image, r.ImageDigest)
	}

	helm := os.Getenv("HELM") // a path relative to the repository, or absolute
	if helm == "" {
		helm = filepath.Join("bin", "helm")
	}
	if !filepath.IsAbs(helm) && strings.Contains(helm, "/") {
		helm = filepath.Join("..", "..", helm)
	}
	out, err := exec.Command(helm, "template", "daprbench", filepath.Join(dist(), filepath.Base(r.Chart)), "--namespace", "daprbench-system", "--kube-version", "1.29.0").Output()
	if err != nil {
		t.Fatalf("helm template: %v", err)
	}
	want := r.Image + "@" + r.ImageDigest
	deployments := 0
	for _, doc := range strings.Split(string(out), "\n---") {
		var obj struct {
			Kind string `json:"kind"`
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct {
							Name  string `json:"name"`
							Image string `json:"image"`
							Env   []struct{ Name, Value string }
						} `json:"containers"`
					} `json:"spec"`
				} `json:"template"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		if obj.Kind != "Deployment" {
			continue
		}
		deployments++
		for _, c := range obj.Spec.Template.Spec.Containers {
			if c.Image != want {
				t.Errorf("container %s runs %q, want %q", c.Name, c.Image, want)
			}
			for _, e := range c.Env {
				if e.Name == "DAPRBENCH_IMAGE" && e.Value != want {
					t.Errorf("container %s gives runs the image %q, want %q", c.Name, e.Value, want)
				}
			}
		}
	}
	if deployments == 0 {
		t.Errorf("the chart renders no Deployment:\n%s", out)
	}
}

// The linux/amd64 archive's plugin and GoReleaser's manager say the release's version and
// commit, as the Makefile's builds do (internal/kit/version, set by -X).
func TestBinariesSayTheReleasesVersion(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("runs the linux/amd64 binaries; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	r := readRelease(t)
	f, err := os.Open(filepath.Join(dist(), archiveName("linux", "amd64")))
	if err != nil {
		t.Fatal(err)
	}
	files := tgzFiles(t, f)
	f.Close()
	plugin := filepath.Join(t.TempDir(), "kubectl-daprbench")
	if err := os.WriteFile(plugin, files["kubectl-daprbench"], 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(plugin, "version").CombinedOutput()
	if want := "kubectl daprbench " + r.Version + " (commit " + r.Commit[:12] + ")\n"; err != nil || string(out) != want {
		t.Errorf("kubectl-daprbench version: %q (%v), want %q", out, err, want)
	}
	managers, _ := filepath.Glob(filepath.Join(dist(), "manager_linux_amd64*", "manager"))
	if len(managers) != 1 {
		t.Fatalf("GoReleaser's linux/amd64 manager: %v", managers)
	}
	out, err = exec.Command(managers[0], "--version").CombinedOutput()
	if want := "daprbench manager " + r.Version + " (commit " + r.Commit[:12] + ")"; err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("manager --version: %q (%v), want %q…", out, err, want)
	}
}
