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

package controllers

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	lua "github.com/yuin/gopher-lua"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/testenv"
)

// health runs an Argo CD health script (config/argocd/<group>/<kind>/health.lua) the way
// Argo CD does: the object as the global `obj`, the script's returned table as the verdict.
func health(kind string, obj runtime.Object) (status, message string) {
	script, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "argocd", "perf.daprbench.io", kind, "health.lua"))
	Expect(err).NotTo(HaveOccurred())
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	Expect(err).NotTo(HaveOccurred())
	L := lua.NewState()
	defer L.Close()
	L.SetGlobal("obj", toLua(L, u))
	Expect(L.DoString(string(script))).To(Succeed())
	ret, ok := L.Get(-1).(*lua.LTable)
	Expect(ok).To(BeTrue(), "the script must return a table")
	return ret.RawGetString("status").String(), ret.RawGetString("message").String()
}

// toLua converts decoded JSON to Lua values as Argo CD does: objects and arrays become tables.
func toLua(L *lua.LState, v any) lua.LValue {
	switch x := v.(type) {
	case map[string]any:
		t := L.NewTable()
		for k, e := range x {
			t.RawSetString(k, toLua(L, e))
		}
		return t
	case []any:
		t := L.NewTable()
		for _, e := range x {
			t.Append(toLua(L, e))
		}
		return t
	case string:
		return lua.LString(x)
	case bool:
		return lua.LBool(x)
	case int64:
		return lua.LNumber(x)
	case float64:
		return lua.LNumber(x)
	case nil:
		return lua.LNil
	}
	Fail("unexpected JSON value")
	return lua.LNil
}

var _ = Describe("Argo CD health scripts", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("read the status objects the controllers write", func() {
		gated := func(failRun bool) func(*perfv1alpha1.PerfRunSpec) {
			return func(s *perfv1alpha1.PerfRunSpec) {
				s.Baseline = ptr.To(false)
				s.Thresholds = &perfv1alpha1.Thresholds{MaxP99: &metav1.Duration{Duration: 2 * time.Millisecond}, FailRun: failRun}
			}
		}
		finishWithP99 := func(run *perfv1alpha1.PerfRun, baseUs int64) *perfv1alpha1.PerfRun {
			markAvailable(ns, run.Name+"-target")
			finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Dapr, 0, baseUs)}}, true)
			Eventually(func() bool { return latest(run).Finished() }, 10*time.Second).Should(BeTrue())
			return latest(run)
		}

		provisioning := createRun(ns, "provisioning", perfv1alpha1.ScenarioServiceInvocation)
		Eventually(phaseOf(provisioning)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		mismatch := createRun(ns, "mismatch", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Dapr.MTLS = perfv1alpha1.MTLSDisabled })
		Eventually(phaseOf(mismatch)).Should(Equal(perfv1alpha1.PhaseFailed))
		healthy := finishWithP99(createRun(ns, "healthy", perfv1alpha1.ScenarioServiceInvocation, gated(false)), 1000) // p99 1.3ms
		violated := finishWithP99(createRun(ns, "violated", perfv1alpha1.ScenarioServiceInvocation, gated(false)), 2000)
		stale := healthy.DeepCopy()
		stale.Generation++ // a new spec the operator has not observed yet
		suspended := createSchedule(ns, "suspended", func(s *perfv1alpha1.PerfScheduleSpec) { s.Suspend = true })
		invalid := createSchedule(ns, "invalid", func(s *perfv1alpha1.PerfScheduleSpec) { s.Schedule = "sometimes" })
		idle := createSchedule(ns, "idle")
		Eventually(scheduled(invalid)).Should(HavePrefix(perfv1alpha1.ReasonInvalidSchedule))
		Eventually(func() *metav1.Time { return scheduleOf(idle).Status.NextScheduleTime }).ShouldNot(BeNil())

		table := []struct {
			name, kind string
			obj        runtime.Object
			status     string
			message    string
		}{
			{"provisioning run", "PerfRun", latest(provisioning), "Progressing", "Provisioning: waiting for Deployments"},
			{"failed run", "PerfRun", latest(mismatch), "Degraded", "MTLSMismatch: spec.dapr.mtls is Disabled"},
			{"succeeded, thresholds met", "PerfRun", healthy, "Healthy", "29952 requests at 998.4/1000 qps"}, // three repetitions (the default) of 9984
			{"succeeded, threshold violated", "PerfRun", violated, "Degraded", "Thresholds violated: p99 2.301ms (limit <= 2ms): VIOLATED"},
			{"spec changed, not yet observed", "PerfRun", stale, "Progressing", "Waiting for the operator to run generation 2"},
			{"suspended schedule", "PerfSchedule", scheduleOf(suspended), "Suspended", "spec.suspend is true"},
			{"unparsable schedule", "PerfSchedule", scheduleOf(invalid), "Degraded", `spec.schedule "sometimes"`},
			{"schedule with no run yet", "PerfSchedule", scheduleOf(idle), "Healthy", "No run yet"},
		}
		GinkgoWriter.Printf("%-32s %-12s %-12s %s\n", "object", "kind", "health", "message")
		for _, tc := range table {
			status, msg := health(tc.kind, tc.obj)
			GinkgoWriter.Printf("%-32s %-12s %-12s %.90s\n", tc.name, tc.kind, status, msg)
			Expect(status).To(Equal(tc.status), tc.name)
			Expect(msg).To(ContainSubstring(tc.message), tc.name)
		}
	})
})
