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

// Package demo tests make demo's guard and install (hack/local-cluster/demo.sh) without a
// cluster: kubectl and helm are stubs that log every call, kubectl answering for a cluster
// whose kubeconfig context the test picks. What is checked is that the demo changes nothing
// in a cluster that is not local unless the user names it, and installs through the chart.
package demo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// kubectlStub answers `version` (the cluster is up) and `config current-context`
// ($STUB_CONTEXT), and succeeds at everything else; helmStub fails its install, which ends
// the demo right after it. Both log their arguments, one call per line. `apply -f -` reads
// its standard input to the end, as kubectl does: a stub that left it unread would let the
// writer of the demo's pipe die of SIGPIPE (exit 141 under pipefail) when it wrote late.
const kubectlStub = `#!/usr/bin/env bash
echo "kubectl $*" >>"$STUB_LOG"
case "$1 $2" in
"config current-context") echo "$STUB_CONTEXT" ;;
"create namespace") echo "apiVersion: v1" ;;
esac
case " $* " in
*" -f - "*) cat >/dev/null ;;
esac
exit 0
`

const helmStub = `#!/usr/bin/env bash
echo "helm $*" >>"$STUB_LOG"
exit 1
`

type demoRun struct {
	code   int
	stderr string
	calls  []string
}

// runDemo runs the demo script (args: "down" for make demo-down) against the stubs, with the
// kubeconfig's current context ctx and extra environment.
func runDemo(t *testing.T, ctx string, env []string, args ...string) demoRun {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"kubectl": kubectlStub, "helm": helmStub} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, "calls.log")
	cmd := exec.Command("bash", append([]string{filepath.Join("..", "..", "hack", "local-cluster", "demo.sh")}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECTL="+filepath.Join(dir, "kubectl"), "HELM="+filepath.Join(dir, "helm"),
		"STUB_LOG="+log, "STUB_CONTEXT="+ctx, "DEMO_CONTEXT=", "DEMO_LOCAL_CLUSTER=", "IMG=daprbench:dev")
	cmd.Env = append(cmd.Env, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	run := demoRun{stderr: stderr.String()}
	if exit, ok := err.(*exec.ExitError); ok {
		run.code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(log); err == nil {
		run.calls = strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	return run
}

// readOnly are the calls that look at a cluster without changing it.
func readOnly(call string) bool {
	return strings.HasPrefix(call, "kubectl version") || call == "kubectl config current-context"
}

func TestDemoRefusesAClusterThatIsNotLocal(t *testing.T) {
	for _, args := range [][]string{nil, {"down"}} {
		run := runDemo(t, "prod-eu", nil, args...)
		if run.code != 2 {
			t.Errorf("demo %v on context prod-eu exited %d, want 2; stderr:\n%s", args, run.code, run.stderr)
		}
		for _, want := range []string{`refuses context "prod-eu": it is not a local cluster`, "Nothing was changed", "DEMO_CONTEXT=prod-eu make demo"} {
			if !strings.Contains(run.stderr, want) {
				t.Errorf("demo %v: stderr lacks %q:\n%s", args, want, run.stderr)
			}
		}
		for _, call := range run.calls {
			if !readOnly(call) {
				t.Errorf("demo %v on a refused context called %q", args, call)
			}
		}
	}
}

func TestDemoInstallsThroughTheChartWhereAllowed(t *testing.T) {
	for _, tc := range []struct {
		name, ctx string
		env       []string
		wantImage string
	}{
		{"a kind cluster", "kind-dev", []string{"DEMO_IMAGE_AVAILABLE=true"}, "--set-string image.repository=daprbench --set-string image.tag=dev --set-string image.digest="},
		{"a cluster the user named", "prod-eu", []string{"DEMO_CONTEXT=prod-eu", "IMG=localhost:5000/team/daprbench:v1", "DEMO_IMAGE_AVAILABLE=true"},
			"--set-string image.repository=localhost:5000/team/daprbench --set-string image.tag=v1 "},
		{"an image pinned by digest", "minikube", []string{"IMG=registry.example.com/daprbench:1.10@sha256:0123abcd", "DEMO_IMAGE_AVAILABLE=true"},
			"--set-string image.repository=registry.example.com/daprbench --set-string image.tag= --set-string image.digest=sha256:0123abcd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := runDemo(t, tc.ctx, tc.env)
			if strings.Contains(run.stderr, "refuses context") {
				t.Fatalf("refused: %s", run.stderr)
			}
			var install string
			for _, call := range run.calls {
				if strings.HasPrefix(call, "helm ") {
					install = call
				}
				// The one apply is the runs' namespace, piped from `create namespace --dry-run`.
				if strings.Contains(call, "kubectl apply") && call != "kubectl apply -f -" {
					t.Errorf("applied outside the chart: %q", call)
				}
			}
			for _, want := range []string{"helm upgrade --install daprbench charts/daprbench --namespace daprbench-system --create-namespace",
				tc.wantImage, `--set-json rbac.namespaces=["daprbench-demo"]`} {
				if !strings.Contains(install, want) {
					t.Errorf("helm call %q lacks %q (calls: %q)", install, want, run.calls)
				}
			}
			if run.code != 1 || !strings.Contains(run.stderr, "make demo-down") {
				t.Errorf("a failed install exits 1 and says how to remove it: exit %d, stderr:\n%s", run.code, run.stderr)
			}
		})
	}
}
