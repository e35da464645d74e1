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

package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// -push puts the very image of the archive into a registry (go-containerregistry's own
// in-memory registry stands in for a real one).
func TestPushWritesTheArchivedImageToTheRegistry(t *testing.T) {
	reg := httptest.NewServer(registry.New())
	defer reg.Close()
	dir := t.TempDir()
	bin := filepath.Join(dir, "app")
	if err := os.WriteFile(bin, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tag := strings.TrimPrefix(reg.URL, "http://") + "/daprbench:test"
	out := filepath.Join(dir, "image.tar")
	if err := run(options{tag: tag, out: out, push: true, binaries: []string{bin}}); err != nil {
		t.Fatal(err)
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		t.Fatal(err)
	}
	pushed, err := remote.Image(ref)
	if err != nil {
		t.Fatalf("the registry has no %s: %v", tag, err)
	}
	archived, err := tarball.ImageFromPath(out, &ref)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := archived.Digest()
	if got, _ := pushed.Digest(); got != want {
		t.Errorf("pushed %v, archived %v", got, want)
	}
}

// -platforms builds one image per platform from that platform's binaries ({os}, {arch} and a
// glob in their paths) into an OCI image index: written as an OCI layout, pushed, and its
// digest recorded — the same index everywhere.
func TestPlatformsMakeOneIndexInTheLayoutTheRegistryAndTheDigestFile(t *testing.T) {
	reg := httptest.NewServer(registry.New())
	defer reg.Close()
	dir := t.TempDir()
	for _, arch := range []string{"amd64", "arm64"} {
		// GoReleaser's directories: dist/<id>_<os>_<arch>_<variant>/
		d := filepath.Join(dir, "app_linux_"+arch+"_v1")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "app"), []byte("#!/bin/true "+arch+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tag := strings.TrimPrefix(reg.URL, "http://") + "/daprbench:multi"
	o := options{tag: tag, ociLayout: filepath.Join(dir, "layout"), digestFile: filepath.Join(dir, "digest"), push: true,
		platforms: []string{"linux/amd64", "linux/arm64"}, labels: map[string]string{"org.opencontainers.image.source": "https://example.com/r"},
		binaries: []string{filepath.Join(dir, "app_{os}_{arch}*", "app")}}
	if err := run(o); err != nil {
		t.Fatal(err)
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		t.Fatal(err)
	}
	pushed, err := remote.Index(ref)
	if err != nil {
		t.Fatalf("the registry has no index %s: %v", tag, err)
	}
	want, _ := pushed.Digest()
	b, err := os.ReadFile(o.digestFile)
	if err != nil || strings.TrimSpace(string(b)) != want.String() {
		t.Errorf("digest file %q (%v), pushed %v", b, err, want)
	}
	lp, err := layout.FromPath(o.ociLayout)
	if err != nil {
		t.Fatal(err)
	}
	root, err := lp.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	rm, err := root.IndexManifest()
	if err != nil || len(rm.Manifests) != 1 || rm.Manifests[0].Digest != want {
		t.Fatalf("layout's index.json %+v (%v), want the one index %v", rm, err, want)
	}
	im, err := pushed.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	var platforms []string
	for _, m := range im.Manifests {
		platforms = append(platforms, m.Platform.OS+"/"+m.Platform.Architecture)
		img, err := pushed.Image(m.Digest)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		if cf.Architecture != m.Platform.Architecture || cf.Config.Entrypoint[0] != "/app" || cf.Config.Labels["org.opencontainers.image.source"] != "https://example.com/r" {
			t.Errorf("%s: config %+v", m.Platform.Architecture, cf)
		}
	}
	if strings.Join(platforms, ",") != "linux/amd64,linux/arm64" {
		t.Errorf("platforms %v", platforms)
	}
	if err := run(options{tag: tag, out: filepath.Join(dir, "x.tar"), platforms: o.platforms, binaries: o.binaries}); err == nil {
		t.Error("a docker archive of two platforms was written")
	}
}
