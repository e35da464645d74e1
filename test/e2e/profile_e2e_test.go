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
	"os"
	"os/exec"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/cpuprofile"
	"github.com/daprbench/daprbench/internal/contract/loadsettings"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

var _ = Describe("A profiled run through real Dapr", func() {
	It("captures both daprd CPU profiles during the Dapr phase and report lists daprd's top functions", func() {
		ns := newNamespace()
		run := daprRun(ns, "profiled", perfv1alpha1.ScenarioServiceInvocation, 200, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
			s.Profiling = &perfv1alpha1.ProfilingSpec{Seconds: 5}
			s.Cleanup = perfv1alpha1.CleanupNever // its target is probed below, as it was during the run
		})
		expectSucceeded(run, 5*time.Minute)

		// Both daprds profiled on localhost: a pod of another namespace finds neither daprd's
		// API nor its profiler on the target's address, and the app's capture of the
		// profile answers the run's token only.
		ip := targetPodIP(run)
		api, profiler := at(ip, workload.SidecarHTTPPort, "/v1.0/metadata"), at(ip, workload.ProfilingPort, "/debug/pprof/cmdline")
		capture := at(ip, workload.AppPort, loadsettings.ProfileCaptureRoot+"/debug/pprof/profile?seconds=1")
		got := probeFromElsewhere(api, profiler, capture)
		Expect(got[0]).To(ContainSubstring(unheard(api)))
		Expect(got[1]).To(ContainSubstring(unheard(profiler)))
		Expect(got[2]).To(ContainSubstring(refusedFor(capture)))

		st := documentOf(run).Profiles
		Expect(st).NotTo(BeNil(), "the result document's profiles")
		Expect(st.ConfigMap).To(Equal("profiled-profiles"))
		cm := &corev1.ConfigMap{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: st.ConfigMap}, cm)).To(Succeed())
		var roles []perfv1alpha1.ProfileRole
		for _, sp := range st.Sidecars {
			Expect(sp.Failure).To(BeEmpty(), "%s", sp.Role)
			Expect(sp.Seconds).To(Equal(int32(5)))
			Expect(sp.Start).NotTo(BeNil())
			roles = append(roles, sp.Role)
			data := cm.BinaryData[sp.Key]
			Expect(int64(len(data))).To(Equal(sp.Bytes))
			p, err := cpuprofile.Parse(data)
			Expect(err).NotTo(HaveOccurred(), "%s", sp.Role)
			Expect(cpuprofile.TopFunctions(p, 10).Total).To(BeNumerically(">", 0), "%s: daprd used CPU in the window", sp.Role)
			GinkgoWriter.Printf("%s profile: %d bytes gzipped\n", sp.Role, sp.Bytes)
		}
		Expect(roles).To(ConsistOf(perfv1alpha1.ProfileServerSidecar, perfv1alpha1.ProfileClientSidecar))
		Expect(get(run).Status.Result).NotTo(BeNil(), "the result stands beside the profiles")

		dir := GinkgoT().TempDir()
		plugin := filepath.Join(dir, "kubectl-daprbench")
		build := exec.Command("go", "build", "-o", plugin, "./cmd/kubectl-daprbench")
		build.Dir = repoRoot
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
		reportDir := filepath.Join(dir, "report")
		out, err = exec.Command(plugin, "report", run.Name, "-n", ns, "--dir", reportDir).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
		GinkgoWriter.Printf("%s\n", out)
		Expect(string(out)).To(ContainSubstring("top 10 by flat CPU"))
		Expect(string(out)).To(ContainSubstring("top 10 by cumulative CPU"))
		Expect(string(out)).To(Or(ContainSubstring("github.com/dapr/"), ContainSubstring("runtime.")), "daprd's own functions are listed")
		for _, f := range []string{"daprd-server.pprof", "daprd-client.pprof", "daprd-server-flame.svg", "report.html"} {
			_, err := os.Stat(filepath.Join(reportDir, f))
			Expect(err).NotTo(HaveOccurred(), f)
		}
		page, err := os.ReadFile(filepath.Join(reportDir, "report.html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(page)).To(ContainSubstring(`id="chart-daprd-server-flame"`))
	})
})
