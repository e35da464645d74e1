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

// Command mkimage writes a single-layer container image holding static binaries, as a
// docker-archive tarball that `ctr images import` reads — images without a container engine.
//
//	mkimage -tag daprbench:dev -o daprbench.tar -entrypoint /manager bin/manager bin/loadtester bin/perfapp
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func main() {
	tag := flag.String("tag", "", "image reference, e.g. daprbench:dev")
	out := flag.String("o", "", "output tarball")
	entrypoint := flag.String("entrypoint", "", "entrypoint (defaults to the first binary)")
	push := flag.Bool("push", false, "also push the image to the registry -tag names (credentials: ~/.docker/config.json, as docker login writes them)")
	flag.Parse()
	if *tag == "" || *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mkimage -tag REF -o FILE [-entrypoint /bin] BINARY...")
		os.Exit(2)
	}
	if err := run(*tag, *out, *entrypoint, *push, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
}

func run(tag, out, entrypoint string, push bool, binaries []string) error {
	layerTar, err := binariesTar(binaries)
	if err != nil {
		return err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(layerTar)), nil })
	if err != nil {
		return err
	}
	if entrypoint == "" {
		entrypoint = "/" + filepath.Base(binaries[0])
	}
	img, err := mutate.Config(empty.Image, v1.Config{Entrypoint: []string{entrypoint}, User: "65532:65532"})
	if err != nil {
		return err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cf.Architecture, cf.OS = "amd64", "linux"
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return err
	}
	if img, err = mutate.AppendLayers(img, layer); err != nil {
		return err
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		return err
	}
	if err := tarball.WriteToFile(out, ref, img); err != nil {
		return err
	}
	if push {
		return remote.Write(ref, img, remote.WithAuthFromKeychain(authn.DefaultKeychain))
	}
	return nil
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
	for _, b := range binaries {
		data, err := os.ReadFile(b)
		if err != nil {
			return nil, err
		}
		hdr := &tar.Header{Name: filepath.Base(b), Mode: 0o755, Size: int64(len(data)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
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
