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

// Command mkimage writes a single-layer container image holding static binaries, without a
// container engine. For one platform (the default, linux/amd64) it writes a docker-archive
// tarball that `ctr images import` reads; for several (-platforms) it writes a multi-arch OCI
// image index into an OCI image layout (-oci-layout), built from each platform's binaries.
// -push also pushes the image (or the index) to the registry -tag names; -digest-file
// records its digest (what a Helm chart pins).
//
//	mkimage -tag daprbench:dev -o daprbench.tar -entrypoint /manager bin/manager bin/loadtester bin/perfapp
//	mkimage -tag ghcr.io/o/daprbench:0.1.0 -platforms linux/amd64,linux/arm64 -oci-layout dist/image \
//	  -digest-file dist/image.digest -entrypoint /manager 'dist/manager_{os}_{arch}*/manager' ...
//
// With -platforms, {os} and {arch} in a binary's path stand for each platform's, and the path
// may be a glob that matches exactly one file (GoReleaser's dist/<id>_linux_amd64_v1/). A file
// given as SRC=DEST goes to DEST instead of the root (a dynamically linked binary and its
// libraries: hack/local-cluster/redis-image.sh).
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// labels is a repeatable -label key=value flag.
type labels map[string]string

func (l labels) String() string { return fmt.Sprint(map[string]string(l)) }
func (l labels) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("label %q: want key=value", s)
	}
	l[k] = v
	return nil
}

// options is what one mkimage invocation builds and where it writes it.
type options struct {
	tag        string
	out        string   // docker-archive tarball (one platform)
	ociLayout  string   // OCI image layout directory (any number of platforms)
	digestFile string   // where the pushed/written image's digest goes
	entrypoint string   // defaults to the first binary
	platforms  []string // os/arch; empty: linux/amd64, docker-archive compatible
	labels     map[string]string
	push       bool
	binaries   []string
}

func main() {
	o := options{labels: labels{}}
	var platforms string
	flag.StringVar(&o.tag, "tag", "", "image reference, e.g. daprbench:dev")
	flag.StringVar(&o.out, "o", "", "output docker-archive tarball (one platform only)")
	flag.StringVar(&o.ociLayout, "oci-layout", "", "output OCI image layout directory (holds an image index over -platforms)")
	flag.StringVar(&o.digestFile, "digest-file", "", "write the image's digest (sha256:…; the index's with -platforms) to this file")
	flag.StringVar(&o.entrypoint, "entrypoint", "", "entrypoint (defaults to the first binary)")
	flag.StringVar(&platforms, "platforms", "", "comma-separated os/arch list, e.g. linux/amd64,linux/arm64: builds an image index; {os} and {arch} in the binaries' paths are each platform's")
	flag.Var(labels(o.labels), "label", "image config label key=value (repeatable), e.g. org.opencontainers.image.source=https://github.com/o/r")
	flag.BoolVar(&o.push, "push", false, "also push the image to the registry -tag names (credentials: ~/.docker/config.json, as docker login writes them)")
	flag.Parse()
	if platforms != "" {
		o.platforms = strings.Split(platforms, ",")
	}
	o.binaries = flag.Args()
	if o.tag == "" || (o.out == "" && o.ociLayout == "") || len(o.binaries) == 0 {
		fmt.Fprintln(os.Stderr, "usage: mkimage -tag REF (-o FILE | -oci-layout DIR) [-platforms os/arch,...] [-digest-file FILE] [-label k=v] [-push] [-entrypoint /bin] BINARY...")
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	ref, err := name.NewTag(o.tag)
	if err != nil {
		return err
	}
	if o.entrypoint == "" {
		_, dest, placed := strings.Cut(o.binaries[0], "=")
		if !placed {
			dest = filepath.Base(o.binaries[0])
		}
		o.entrypoint = "/" + strings.TrimPrefix(dest, "/")
	}
	if len(o.platforms) == 0 {
		// One linux/amd64 image with Docker media types: what the local cluster imports.
		img, err := image(o, "linux", "amd64", o.binaries, false)
		if err != nil {
			return err
		}
		if o.out != "" {
			if err := tarball.WriteToFile(o.out, ref, img); err != nil {
				return err
			}
		}
		if o.ociLayout != "" {
			p, err := layout.Write(o.ociLayout, empty.Index)
			if err != nil {
				return err
			}
			if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": o.tag})); err != nil {
				return err
			}
		}
		if o.push {
			if err := remote.Write(ref, img, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
				return err
			}
		}
		return writeDigest(o.digestFile, img)
	}
	if o.out != "" {
		return fmt.Errorf("-o writes a docker archive, which holds one platform; use -oci-layout with -platforms")
	}
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, p := range o.platforms {
		osName, arch, ok := strings.Cut(p, "/")
		if !ok {
			return fmt.Errorf("platform %q: want os/arch", p)
		}
		bins, err := platformBinaries(o.binaries, osName, arch)
		if err != nil {
			return err
		}
		img, err := image(o, osName, arch, bins, true)
		if err != nil {
			return err
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: osName, Architecture: arch}}})
	}
	if o.ociLayout != "" {
		if err := os.RemoveAll(o.ociLayout); err != nil {
			return err
		}
		p, err := layout.Write(o.ociLayout, empty.Index)
		if err != nil {
			return err
		}
		if err := p.AppendIndex(idx, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": o.tag})); err != nil {
			return err
		}
	}
	if o.push {
		if err := remote.WriteIndex(ref, idx, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
			return err
		}
	}
	return writeDigest(o.digestFile, idx)
}

// platformBinaries resolves each binary path for one platform: {os} and {arch} substituted,
// then globbed to exactly one file.
func platformBinaries(paths []string, osName, arch string) ([]string, error) {
	var out []string
	for _, p := range paths {
		p = strings.NewReplacer("{os}", osName, "{arch}", arch).Replace(p)
		matches, err := filepath.Glob(p)
		if err != nil {
			return nil, err
		}
		if len(matches) != 1 {
			return nil, fmt.Errorf("%s matches %d files, want one: %v", p, len(matches), matches)
		}
		out = append(out, matches[0])
	}
	return out, nil
}

// image is one platform's image: the base files and the binaries in one layer; OCI media
// types when oci, else Docker's.
func image(o options, osName, arch string, binaries []string, oci bool) (v1.Image, error) {
	layerTar, err := binariesTar(binaries)
	if err != nil {
		return nil, err
	}
	var layerOpts []tarball.LayerOption
	base := empty.Image
	if oci {
		layerOpts = append(layerOpts, tarball.WithMediaType(types.OCILayer))
		base = mutate.ConfigMediaType(mutate.MediaType(base, types.OCIManifestSchema1), types.OCIConfigJSON)
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(layerTar)), nil }, layerOpts...)
	if err != nil {
		return nil, err
	}
	// PATH as distroless sets it: a pod's command may name a binary rather than its path.
	cfg := v1.Config{Entrypoint: []string{o.entrypoint}, User: "65532:65532",
		Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}}
	if len(o.labels) > 0 {
		cfg.Labels = o.labels
	}
	img, err := mutate.Config(base, cfg)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf.Architecture, cf.OS = arch, osName
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return nil, err
	}
	return mutate.AppendLayers(img, layer)
}

// writeDigest writes what has a digest (an image or an index) to path, when one is given.
func writeDigest(path string, d interface{ Digest() (v1.Hash, error) }) error {
	h, err := d.Digest()
	if err != nil {
		return err
	}
	fmt.Println("digest", h)
	if path == "" {
		return nil
	}
	return os.WriteFile(path, []byte(h.String()+"\n"), 0o644)
}

// baseFiles is what distroless/static:nonroot (the base of Dapr's and daprbench's release
// images) provides that programs rely on: the nonroot user's entry, so a runtime given only
// runAsUser 65532 also finds its group 65532 (Dapr refuses 65532:0), and a writable /tmp.
var baseFiles = []struct {
	name, body string
}{
	{"etc/passwd", "root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"},
	{"etc/group", "root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n"},
}

// binariesTar puts each binary at the image root, executable, owned by root, beside the
// base files.
// writeParents writes the directories above a file's path that no earlier entry made.
func writeParents(tw *tar.Writer, path string, made map[string]bool) error {
	dir := filepath.Dir(path)
	if dir == "." || made[dir] {
		return nil
	}
	if err := writeParents(tw, dir, made); err != nil {
		return err
	}
	made[dir] = true
	return tw.WriteHeader(&tar.Header{Name: dir + "/", Mode: 0o755, Typeflag: tar.TypeDir, ModTime: time.Unix(0, 0)})
}

func binariesTar(binaries []string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := []*tar.Header{
		{Name: "etc/", Mode: 0o755, Typeflag: tar.TypeDir, ModTime: time.Unix(0, 0)},
		{Name: "tmp/", Mode: 0o1777, Typeflag: tar.TypeDir, ModTime: time.Unix(0, 0)},
		{Name: "home/", Mode: 0o755, Typeflag: tar.TypeDir, ModTime: time.Unix(0, 0)},
		{Name: "home/nonroot/", Mode: 0o700, Uid: 65532, Gid: 65532, Typeflag: tar.TypeDir, ModTime: time.Unix(0, 0)},
	}
	for _, d := range dirs {
		if err := tw.WriteHeader(d); err != nil {
			return nil, err
		}
	}
	for _, f := range baseFiles {
		hdr := &tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(f.body)); err != nil {
			return nil, err
		}
	}
	madeDirs := map[string]bool{}
	for _, b := range binaries {
		// SRC=DEST puts a file at DEST (with its parent directories), e.g. a shared library
		// of a dynamically linked binary at the path its loader looks for it; a plain path
		// goes to the root.
		src, dest, placed := strings.Cut(b, "=")
		if !placed {
			dest = filepath.Base(b)
		}
		dest = strings.TrimPrefix(filepath.Clean(dest), "/")
		if err := writeParents(tw, dest, madeDirs); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		hdr := &tar.Header{Name: dest, Mode: 0o755, Size: int64(len(data)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
