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
	if err := run(tag, out, "", true, []string{bin}); err != nil {
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
