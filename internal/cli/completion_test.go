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
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// The krew manifest is GoReleaser's, made from the release's archives; test/release checks
// it against them (make release-snapshot).

// `kubectl daprbench <TAB>` (kubectl_complete-daprbench runs __complete) offers the
// subcommands, and a run's name where a command takes one.
func TestCompletionOffersCommandsAndRunNames(t *testing.T) {
	createRun(t, "completed-run", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
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
