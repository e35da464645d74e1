//go:build e2e

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

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"fortio.org/fortio/fhttp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// gateRun is a short direct run with one gate; exclusive off, so the two specs' runs overlap.
const gateRun = `apiVersion: perf.daprbench.io/v1alpha1
kind: PerfRun
metadata:
  name: %s
spec:
  scenario: ServiceInvocation
  exclusive: false
  dapr: {enabled: false}
  load: {qps: 100, connections: 4, repetitions: 1, duration: 10s, warmup: 2s}
  thresholds: {%s}
`

var _ = Describe("kubectl daprbench run --wait on a real cluster", func() {
	It("exits 0 for a run that meets its gate (through the GitHub Action's script) and 3 for one that cannot, with JUnit, summary and report", func() {
		ns := newNamespace()
		dir := GinkgoT().TempDir()
		plugin := filepath.Join(dir, "kubectl-daprbench")
		build := exec.Command("go", "build", "-o", plugin, "./cmd/kubectl-daprbench")
		build.Dir = repoRoot
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)

		By("doctor, before anything is created: this cluster can run a benchmark in the namespace")
		diagnosis, err := exec.Command(plugin, "doctor", "-n", ns, "-o", "json").Output()
		Expect(err).NotTo(HaveOccurred(), "%s", diagnosis)
		var report struct {
			Checks []struct{ Name, Status, Detail string }
		}
		Expect(json.Unmarshal(diagnosis, &report)).To(Succeed())
		passed := map[string]string{}
		for _, c := range report.Checks {
			Expect(c.Status).NotTo(Equal("fail"), "%s: %s", c.Name, c.Detail)
			passed[c.Name] = c.Status
		}
		for _, name := range []string{"kubernetes", "crds", "operator", "dapr", "mtls", "metrics-api", "kubelet-counters", "namespace", "admission", "fit", "quota"} {
			Expect(passed).To(HaveKeyWithValue(name, "pass"), "%s", diagnosis)
		}
		AddReportEntry("kubectl daprbench doctor -o json", string(diagnosis))

		file := func(name, gate string) string {
			path := filepath.Join(dir, name+".yaml")
			Expect(os.WriteFile(path, fmt.Appendf(nil, gateRun, name, gate), 0o644)).To(Succeed())
			return path
		}
		actionOut := filepath.Join(dir, "action")
		// The Action's step, as action.yml runs it (the Action wrapper itself needs GitHub).
		meets := exec.Command(filepath.Join(repoRoot, "action.sh"))
		githubOutput := filepath.Join(dir, "github-output") // the runner's $GITHUB_OUTPUT
		meets.Env = append(os.Environ(), "FILE="+file("meets", "maxErrors: 0"), "NAMESPACE="+ns, "OUT="+actionOut, "TIMEOUT=5m",
			"SUMMARY="+filepath.Join(dir, "meets.md"), "GITHUB_OUTPUT="+githubOutput, "ARTIFACT_NAME=")
		cannot := exec.Command(plugin, "run", "-f", file("cannot", "maxP90: 1us"), "-n", ns, "--wait", "--timeout", "5m",
			"--junit", filepath.Join(dir, "cannot.xml"))
		codes, outputs := runAll(meets, cannot)
		Expect(codes[0]).To(Equal(0), outputs[0])
		Expect(codes[1]).To(Equal(3), outputs[1])

		junit, err := os.ReadFile(filepath.Join(dir, "cannot.xml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(junit)).To(And(ContainSubstring(`<testcase name="p90 &lt;= 1µs"`), ContainSubstring(`<failure message="VIOLATED: measured`)))
		summary, err := os.ReadFile(filepath.Join(dir, "meets.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(And(ContainSubstring("✅ passed"), ContainSubstring("| errors | 0 | &lt;= 0 | met |")), "the summary escapes what it quotes for Markdown")
		for _, f := range []string{"junit.xml", "run.log", filepath.Join("report", "report.html")} {
			Expect(filepath.Join(actionOut, f)).To(BeAnExistingFile())
		}
		By("the Action's outputs: the verdict, the run's name (from run -o name) and where its files are")
		written, err := os.ReadFile(githubOutput)
		Expect(err).NotTo(HaveOccurred())
		actionOutputs := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(written)), "\n") {
			k, v, _ := strings.Cut(line, "=")
			actionOutputs[k] = v
		}
		Expect(actionOutputs).To(HaveKeyWithValue("run-name", MatchRegexp(`^meets-[a-z0-9]{5}$`)), string(written))
		runName := actionOutputs["run-name"]
		Expect(actionOutputs).To(Equal(map[string]string{"exit-code": "0", "verdict": "passed", "run-name": runName,
			"report-path": actionOut, "artifact-name": "daprbench-" + runName}))
		Expect(exec.Command(plugin, "list", "perfruns", "-n", ns, "-o", "name").Output()).To(ContainSubstring("perfrun.perf.daprbench.io/"+runName+"\n"), "the name is the run's")

		By("the run's full histograms leave the cluster as fortio result files, which fortio's own types load")
		created := regexp.MustCompile(`perfrun/(\S+) created`).FindStringSubmatch(outputs[1])
		Expect(created).To(HaveLen(2), outputs[1])
		fortioDir := filepath.Join(dir, "fortio")
		exported, err := exec.Command(plugin, "export", created[1], "-n", ns, "--format", "fortio", "--dir", fortioDir).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", exported)
		b, err := os.ReadFile(filepath.Join(fortioDir, created[1]+"-direct.json"))
		Expect(err).NotTo(HaveOccurred(), "%s", exported)
		var res fhttp.HTTPRunnerResults
		Expect(json.Unmarshal(b, &res)).To(Succeed())
		Expect(res.DurationHistogram).NotTo(BeNil())
		// 100 qps for 10 s, give or take the schedule's edges
		Expect(res.DurationHistogram.Count).To(BeNumerically("~", 1000, 50))
		Expect(res.DurationHistogram.Percentiles).NotTo(BeEmpty())
		By("list shows both runs with their verdicts, as kubectl get would")
		listed, err := exec.Command(plugin, "list", "-n", ns, "-o", "wide").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", listed)
		Expect(string(listed)).To(And(MatchRegexp(`(?m)^meets-\S+\s+ServiceInvocation\s+100\s+Succeeded\s.*\sPassed\s`),
			MatchRegexp(`(?m)^cannot-\S+\s+ServiceInvocation\s+100\s+\S+\s.*\sThresholdsViolated\s`)))
		AddReportEntry("kubectl daprbench list -o wide", string(listed))
		AddReportEntry("junit of the run that cannot meet its gate", string(junit))
		AddReportEntry("summary of the run that meets its gate", string(summary))
	})
})

// runAll runs the commands side by side and returns their exit codes and outputs.
func runAll(cmds ...*exec.Cmd) ([]int, []string) {
	codes, outputs := make([]int, len(cmds)), make([]string, len(cmds))
	var wg sync.WaitGroup
	for i, cmd := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			cmd.Stdout, cmd.Stderr = &buf, &buf
			err := cmd.Run()
			if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
				codes[i] = exit.ExitCode()
			} else if err != nil {
				codes[i] = -1 // did not start
				buf.WriteString(err.Error())
			}
			outputs[i] = buf.String()
		}()
	}
	wg.Wait()
	return codes, outputs
}
