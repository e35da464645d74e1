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

// Package action tests the GitHub Action's script (action.sh) without a cluster: the plugin
// is a stub in a release archive served from a file:// mirror, so what is checked is the
// script's own part — the release download and its checksum, the version input, the run's
// name read from `run -o name`, and the outputs written to $GITHUB_OUTPUT. The e2e suite
// runs the same script with the real plugin against the local cluster.
package action

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// stub plays kubectl-daprbench: `run` logs its arguments, prints STUB_OBJECT on stdout (as
// -o name prints the finished object) and progress on stderr, and exits STUB_CODE; `report`
// logs its arguments.
const stub = `#!/usr/bin/env bash
echo "$*" >>"$STUB_LOG"
case $1 in
run)
	echo "perfrun/stub-x1 created" >&2
	[[ -z "${STUB_OBJECT:-}" ]] || echo "$STUB_OBJECT"
	echo "verdict on stderr" >&2
	exit "${STUB_CODE:-0}" ;;
report) exit 0 ;;
esac
`

// release writes a mirror of a release's assets for this OS and architecture: the archive
// holding the stub, and checksums.txt (wrong when tamper is set).
func release(t *testing.T, tamper bool) string {
	t.Helper()
	dir := t.TempDir()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	must(t, tw.WriteHeader(&tar.Header{Name: "kubectl-daprbench", Mode: 0o755, Size: int64(len(stub))}))
	_, err := tw.Write([]byte(stub))
	must(t, err)
	must(t, tw.Close())
	must(t, gz.Close())
	archive := fmt.Sprintf("kubectl-daprbench_%s_%s.tar.gz", runtime.GOOS, runtime.GOARCH)
	must(t, os.WriteFile(filepath.Join(dir, archive), buf.Bytes(), 0o644))
	sum := sha256.Sum256(buf.Bytes())
	if tamper {
		sum[0] ^= 1
	}
	must(t, os.WriteFile(filepath.Join(dir, "checksums.txt"), fmt.Appendf(nil, "%s  %s\n", hex.EncodeToString(sum[:]), archive), 0o644))
	return dir
}

type result struct {
	code    int
	outputs map[string]string
	calls   string
	stderr  string
}

// action runs action.sh with env (FILE, a mirror and $GITHUB_OUTPUT are set) and reads
// what it wrote to $GITHUB_OUTPUT.
func action(t *testing.T, mirror string, env ...string) result {
	t.Helper()
	dir := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	must(t, err)
	cmd := exec.Command(filepath.Join(root, "action.sh"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FILE=run.yaml", "PLUGIN_DOWNLOAD_URL=file://"+mirror, "PLUGIN_VERSION=v0.9.0",
		"GITHUB_OUTPUT="+filepath.Join(dir, "github-output"), "STUB_LOG="+filepath.Join(dir, "calls"), "RUNNER_TEMP="+dir,
		"OUT=", "ARTIFACT_NAME=", "PLUGIN_FROM=", "ACTION_REF=", "NAMESPACE=", "TIMEOUT=", "STRICT=", "SUMMARY=", "KUBECONFIG_DATA=")
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	r := result{outputs: map[string]string{}, stderr: stderr.String()}
	if exit := (*exec.ExitError)(nil); err != nil && !asExit(err, &exit) {
		t.Fatalf("action.sh did not run: %v", err)
	} else if exit != nil {
		r.code = exit.ExitCode()
	}
	out, _ := os.ReadFile(filepath.Join(dir, "github-output"))
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			if _, dup := r.outputs[k]; dup {
				t.Errorf("output %s written twice", k)
			}
			r.outputs[k] = v
		}
	}
	calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
	r.calls = string(calls)
	return r
}

func asExit(err error, exit **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*exit = e
	return ok
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestOutputsNameTheVerdictAndTheRun(t *testing.T) {
	mirror := release(t, false)
	for _, e := range verdict.ExitCodes {
		code, verdict := int(e.Code), e.Word
		t.Run(verdict, func(t *testing.T) {
			r := action(t, mirror, fmt.Sprint("STUB_CODE=", code), "STUB_OBJECT=perfrun.perf.daprbench.io/gate-7xk2p")
			if r.code != code {
				t.Fatalf("exit %d, want %d\n%s", r.code, code, r.stderr)
			}
			want := map[string]string{"exit-code": fmt.Sprint(code), "verdict": verdict, "run-name": "gate-7xk2p", "artifact-name": "daprbench-gate-7xk2p"}
			for k, v := range want {
				if r.outputs[k] != v {
					t.Errorf("%s=%q, want %q (outputs %v)", k, r.outputs[k], v, r.outputs)
				}
			}
			if !strings.HasPrefix(filepath.Base(r.outputs["report-path"]), "daprbench-") {
				t.Errorf("report-path %q: want a directory of its own under RUNNER_TEMP", r.outputs["report-path"])
			}
			if log, err := os.ReadFile(filepath.Join(r.outputs["report-path"], "run.log")); err != nil || !strings.Contains(string(log), "verdict on stderr") {
				t.Errorf("run.log keeps the plugin's stderr: %q %v", log, err)
			}
			if !strings.Contains(r.calls, "run -f run.yaml --wait -o name --junit ") || !strings.Contains(r.calls, "report perfrun/gate-7xk2p --dir ") {
				t.Errorf("plugin calls:\n%s", r.calls)
			}
		})
	}
}

// fakeGH puts a gh on PATH that logs its arguments and exits code, as the GitHub CLI's
// attestation check does for an archive with (0) or without (1) provenance.
func fakeGH(t *testing.T, code int) (path, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "gh-calls")
	script := fmt.Sprintf("#!/usr/bin/env bash\necho \"$*\" >>%q\nexit %d\n", log, code)
	must(t, os.WriteFile(filepath.Join(dir, "gh"), []byte(script), 0o755))
	return dir + string(os.PathListSeparator) + os.Getenv("PATH"), log
}

// A download's checksum comes from the same release as the archive: the archive's build
// provenance is verified too, signed by the repository's own release workflow for the tag
// asked for (another tag's signed archive does not pass), and a plugin without it never runs.
func TestTheReleasesProvenanceIsVerified(t *testing.T) {
	mirror := release(t, false)
	path, log := fakeGH(t, 0)
	r := action(t, mirror, "PATH="+path, "PLUGIN_VERIFY=attestation", "PLUGIN_REPOSITORY=acme/daprbench", "STUB_OBJECT=perfrun.perf.daprbench.io/a-1")
	calls, _ := os.ReadFile(log)
	archive := fmt.Sprintf("kubectl-daprbench_%s_%s.tar.gz", runtime.GOOS, runtime.GOARCH)
	if r.code != 0 || !strings.Contains(r.stderr, "provenance verified") ||
		!strings.Contains(string(calls), "attestation verify ") || !strings.Contains(string(calls), archive+" --repo acme/daprbench --signer-workflow acme/daprbench/.github/workflows/release.yml --source-ref refs/tags/v0.9.0") {
		t.Errorf("exit %d, gh called %q:\n%s", r.code, calls, r.stderr)
	}

	path, _ = fakeGH(t, 1)
	r = action(t, mirror, "PATH="+path, "PLUGIN_VERIFY=attestation", "PLUGIN_REPOSITORY=acme/daprbench")
	if r.code != 1 || r.calls != "" || r.outputs["verdict"] != "could-not-run" || !strings.Contains(r.stderr, "carries no build provenance") {
		t.Errorf("no provenance: exit %d, plugin calls %q, outputs %v:\n%s", r.code, r.calls, r.outputs, r.stderr)
	}
	if r = action(t, mirror, "PLUGIN_VERIFY=sometimes"); r.code != 1 || !strings.Contains(r.stderr, "want attestation or checksum") {
		t.Errorf("an unknown verification: exit %d:\n%s", r.code, r.stderr)
	}
}

func TestRunNameComesFromTheObjectNotTheLog(t *testing.T) {
	mirror := release(t, false)
	// A sweep, and an artifact name given: both pass through.
	r := action(t, mirror, "STUB_OBJECT=perfsweep.perf.daprbench.io/curve-abcde", "ARTIFACT_NAME=perf-nightly")
	if r.outputs["run-name"] != "curve-abcde" || r.outputs["artifact-name"] != "perf-nightly" || !strings.Contains(r.calls, "report perfsweep/curve-abcde") {
		t.Errorf("outputs %v, calls:\n%s", r.outputs, r.calls)
	}
	// A timeout prints no finished object: no name (the log's "created" line is not read).
	r = action(t, mirror, "STUB_CODE=6")
	if r.code != 6 || r.outputs["verdict"] != "timeout" || r.outputs["run-name"] != "" || strings.Contains(r.calls, "report") {
		t.Errorf("exit %d, outputs %v, calls:\n%s", r.code, r.outputs, r.calls)
	}
	if a := r.outputs["artifact-name"]; !strings.HasPrefix(a, "daprbench-") || a == "daprbench-" {
		t.Errorf("artifact-name %q: want a unique fallback", a)
	}
}

func TestPluginVersion(t *testing.T) {
	mirror := release(t, false)
	// 0.9.0 names the tag v0.9.0, and setting a version alone means a release download.
	r := action(t, mirror, "PLUGIN_VERSION=0.9.0", "STUB_OBJECT=perfrun.perf.daprbench.io/a-1")
	if r.code != 0 || !strings.Contains(r.stderr, "kubectl-daprbench v0.9.0 ("+runtime.GOOS+"/"+runtime.GOARCH+") from file://"+mirror+", sha256 verified") {
		t.Errorf("exit %d:\n%s", r.code, r.stderr)
	}
	// latest moves with every release: only when asked for.
	r = action(t, mirror, "PLUGIN_VERSION=latest", "STUB_OBJECT=perfrun.perf.daprbench.io/a-1")
	if r.code != 1 || r.calls != "" || !strings.Contains(r.stderr, "moves with every release") {
		t.Errorf("latest without allow-latest: exit %d:\n%s", r.code, r.stderr)
	}
	r = action(t, mirror, "PLUGIN_VERSION=latest", "PLUGIN_ALLOW_LATEST=true", "STUB_OBJECT=perfrun.perf.daprbench.io/a-1")
	if r.code != 0 || !strings.Contains(r.stderr, "kubectl-daprbench latest") {
		t.Errorf("latest: exit %d:\n%s", r.code, r.stderr)
	}
	for _, bad := range []string{"main", "v1"} {
		r = action(t, mirror, "PLUGIN_VERSION="+bad)
		if r.code != 1 || r.outputs["verdict"] != "could-not-run" || r.calls != "" {
			t.Errorf("%s: exit %d, outputs %v:\n%s", bad, r.code, r.outputs, r.stderr)
		}
	}
	// A checksum that does not match: the plugin never runs, and the outputs still say why.
	r = action(t, release(t, true))
	if r.code != 1 || r.outputs["verdict"] != "could-not-run" || r.outputs["exit-code"] != "1" || r.calls != "" || !strings.Contains(r.stderr, "checksums.txt says") {
		t.Errorf("tampered: exit %d, outputs %v:\n%s", r.code, r.outputs, r.stderr)
	}
}

// The exit codes are declared once (internal/cli/verdict's ExitCodes); the Action's outputs and the
// CI docs name every one of them with its word, 7 cancelled included.
func TestTheActionAndTheDocsNameEveryExitCode(t *testing.T) {
	yml, err := os.ReadFile("../../action.yml")
	must(t, err)
	if n := strings.Count(string(yml), "("+verdict.ExitCodeWords()+")"); n != 2 {
		t.Errorf("action.yml: the exit-code and verdict outputs should each describe themselves as (%s); %d do", verdict.ExitCodeWords(), n)
	}
	doc, err := os.ReadFile("../../docs/ci.md")
	must(t, err)
	for _, e := range verdict.ExitCodes {
		if want := fmt.Sprintf("`%s` (%d", e.Word, e.Code); !strings.Contains(string(doc), want) {
			t.Errorf("docs/ci.md's verdict row lacks %s", want)
		}
	}
}

// pluginFrom runs `action.sh --plugin-from` (action.yml's first step) with env and returns
// its answer and what it logged.
func pluginFrom(t *testing.T, env ...string) (from, log string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	must(t, err)
	cmd := exec.Command(filepath.Join(root, "action.sh"), "--plugin-from")
	cmd.Env = append(os.Environ(), append([]string{"PLUGIN_FROM=", "PLUGIN_VERSION=", "ACTION_REF="}, env...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("action.sh --plugin-from %v: %v\n%s", env, err, stderr.String())
	}
	return strings.TrimSpace(string(out)), stderr.String()
}

// At a release tag the Action downloads that release's plugin, silently. At any other ref —
// a branch, a commit SHA pin (which names no release), a clone — it builds the plugin from
// source, and says so and how to get the release's plugin instead: plugin-version, which
// makes a commit pin download it.
func TestAnActionRefThatIsNoReleaseSaysItBuildsFromSource(t *testing.T) {
	sha := strings.Repeat("0123456789abcdef", 3)[:40]
	if from, log := pluginFrom(t, "ACTION_REF=v0.2.0"); from != "release" || log != "" {
		t.Errorf("at v0.2.0: %s, logged %q", from, log)
	}
	for ref, says := range map[string]string{"main": "runs at main,", sha: "runs at commit " + sha + " (a SHA pin names no release)", "": "a checkout with no ref"} {
		from, log := pluginFrom(t, "ACTION_REF="+ref)
		if from != "source" {
			t.Errorf("at %q: %s, want source", ref, from)
		}
		for _, want := range []string{says, "not a release tag", "building the plugin from source", "set plugin-version"} {
			if !strings.Contains(log, want) {
				t.Errorf("at %q the log lacks %q:\n%s", ref, want, log)
			}
		}
	}
	if from, log := pluginFrom(t, "ACTION_REF="+sha, "PLUGIN_VERSION=v0.2.0"); from != "release" || log != "" {
		t.Errorf("a commit pin with plugin-version: %s, logged %q", from, log)
	}
	if from, log := pluginFrom(t, "ACTION_REF="+sha, "PLUGIN_FROM=source"); from != "source" || log != "" {
		t.Errorf("plugin-from source, asked for: %s, logged %q", from, log)
	}
}
