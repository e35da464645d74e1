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

// Package testenv starts the envtest API server the way every suite of this project needs
// it: the project's CRDs plus Dapr's own, from the github.com/dapr/dapr Go module.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// DaprVersion is the Dapr release whose CRDs validate generated objects: the Makefile's
// DAPR_VERSION, read from it so the two can never disagree.
func DaprVersion() (string, error) {
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "Makefile"))
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`(?m)^DAPR_VERSION \?= (\S+)$`).FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("no DAPR_VERSION ?= line in the Makefile")
	}
	return string(m[1]), nil
}

// RepoRoot is the repository's root directory.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// DaprCRDs returns the directory of Dapr's CRDs: $DAPR_CRDS, or found through hack/toolchain/dapr-crds.sh
// (go mod download) so `go test ./...` works without make.
func DaprCRDs() (string, error) {
	if dir := os.Getenv("DAPR_CRDS"); dir != "" {
		return dir, nil
	}
	version, err := DaprVersion()
	if err != nil {
		return "", err
	}
	out, err := exec.Command(filepath.Join(RepoRoot(), "hack", "toolchain", "dapr-crds.sh"), version).Output()
	if err != nil {
		return "", fmt.Errorf("locating Dapr's CRDs: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// New returns an envtest environment with daprbench's CRDs and, when withDapr, Dapr's.
// KUBEBUILDER_ASSETS must point at kube-apiserver and etcd (make test sets it).
func New(withDapr bool) (*envtest.Environment, error) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		return nil, fmt.Errorf("KUBEBUILDER_ASSETS is not set: run the tests with `make test`, or export it from `make envtest-assets` (hack/toolchain/envtest-assets.sh prints it)")
	}
	paths := []string{filepath.Join(RepoRoot(), "config", "crd", "bases")}
	if withDapr {
		dir, err := DaprCRDs()
		if err != nil {
			return nil, err
		}
		paths = append(paths, dir)
	}
	return &envtest.Environment{CRDDirectoryPaths: paths, ErrorIfCRDPathMissing: true}, nil
}
