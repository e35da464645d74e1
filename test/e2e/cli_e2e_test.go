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
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

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
	It("exits 0 for a run that meets its gate and 3 for one that cannot, with a JUnit file and a summary", func() {
		ns := newNamespace()
		dir := GinkgoT().TempDir()
		plugin := filepath.Join(dir, "kubectl-daprbench")
		build := exec.Command("go", "build", "-o", plugin, "./cmd/kubectl-daprbench")
		build.Dir = repoRoot
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)

		type outcome struct {
			code   int
			output string
		}
		gates := map[string]string{"meets": "maxErrors: 0", "cannot": "maxP90: 1us"}
		results := map[string]outcome{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for name, gate := range gates {
			file := filepath.Join(dir, name+".yaml")
			Expect(os.WriteFile(file, fmt.Appendf(nil, gateRun, name, gate), 0o644)).To(Succeed())
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(plugin, "run", "-f", file, "-n", ns, "--wait", "--timeout", "5m",
					"--junit", filepath.Join(dir, name+".xml"), "--summary", filepath.Join(dir, name+".md"))
				var buf bytes.Buffer
				cmd.Stdout, cmd.Stderr = &buf, &buf
				code := 0
				if exit := (*exec.ExitError)(nil); errors.As(cmd.Run(), &exit) {
					code = exit.ExitCode()
				}
				mu.Lock()
				defer mu.Unlock()
				results[name] = outcome{code, buf.String()}
			}()
		}
		wg.Wait()
		Expect(results["meets"].code).To(Equal(0), results["meets"].output)
		Expect(results["cannot"].code).To(Equal(3), results["cannot"].output)

		junit, err := os.ReadFile(filepath.Join(dir, "cannot.xml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(junit)).To(And(ContainSubstring(`<testcase name="p90 &lt;= 1µs"`), ContainSubstring(`<failure message="VIOLATED: measured`)))
		summary, err := os.ReadFile(filepath.Join(dir, "meets.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(And(ContainSubstring("✅ passed"), ContainSubstring("| errors | 0 | <= 0 | met |")))
		AddReportEntry("junit of the run that cannot meet its gate", string(junit))
		AddReportEntry("summary of the run that meets its gate", string(summary))
	})
})
