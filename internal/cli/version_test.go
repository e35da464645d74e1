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
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/daprbench/daprbench/internal/kit/version"
)

// version prints the linker's version and reads nothing from a cluster.
func TestVersionPrintsTheBinarysVersionWithoutACluster(t *testing.T) {
	version.Version, version.Commit = "v9.8.7", "0123456789abcdef"
	t.Cleanup(func() { version.Version, version.Commit = "", "" })
	noCluster := func() (client.WithWatch, error) { return nil, errors.New("no cluster for version") }
	run := func(args ...string) string {
		var out bytes.Buffer
		cmd := newCommand(Streams{Out: &out, ErrOut: &out}, noCluster)
		cmd.SetArgs(args)
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	if got := run("version"); got != "kubectl daprbench v9.8.7 (commit 0123456789ab)\n" {
		t.Errorf("version = %q", got)
	}
	var info version.Info
	if err := json.Unmarshal([]byte(strings.TrimSpace(run("version", "-o", "json"))), &info); err != nil || info.Version != "v9.8.7" || info.Commit != "0123456789abcdef" {
		t.Errorf("version -o json = %+v, %v", info, err)
	}
}
