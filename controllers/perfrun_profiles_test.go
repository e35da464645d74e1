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
	"bytes"
	"time"

	"github.com/google/pprof/profile"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/cpuprofile"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// aCPUProfile is a small CPU profile as daprd's /debug/pprof/profile serves one (gzipped).
func aCPUProfile() []byte {
	fn := &profile.Function{ID: 1, Name: "github.com/dapr/dapr/pkg/runtime.(*DaprRuntime).Run"}
	loc := &profile.Location{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: fn, Line: 1}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		Sample:   []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{3, 30_000_000}}},
		Location: []*profile.Location{loc}, Function: []*profile.Function{fn},
	}
	var b bytes.Buffer
	ExpectWithOffset(1, p.Write(&b)).To(Succeed())
	return b.Bytes()
}

var _ = Describe("A profiled run", func() {
	It("gives the load tester the target pod's profiling server, then keeps a valid profile and says why the other is missing", func() {
		ns := newNamespace()
		run := createRun(ns, "prof", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Profiling = &perfv1alpha1.ProfilingSpec{Seconds: 5}
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{BaselineTarget: perfv1alpha1.BaselineTwin} // the target pod's IP is looked up for profiling alone
			s.Load.Repetitions = 1
		})
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		markAvailable(ns, "prof-target")
		markAvailable(ns, "prof-baseline")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		job := currentJobOf(run)
		targetPod := &corev1.Pod{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "prof-target-pod"}, targetPod)).To(Succeed())
		// The target app takes its daprd's profile on localhost, for the run's token.
		Expect(envValue(job, "DAPRBENCH_PROFILE_SERVER_URL")).To(Equal("http://" + targetPod.Status.PodIP + ":3000/daprd"))
		Expect(secretEnv(job, "DAPRBENCH_PROFILE_TOKEN")).To(Equal(latest(run).Status.TokenSecret))
		Expect(envValue(job, "DAPRBENCH_BASELINE_URL")).To(Equal("http://prof-baseline:3000/test"), "the twin is still the baseline")
		Expect(job.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/enable-profiling", "true"))

		start := time.Unix(1_700_000_000, 0)
		rep := reportOf(result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}})
		rep.Profiles = []result.Profile{{Role: result.ProfileServerSidecar, StartUnix: start.Unix(), Seconds: 5, Pprof: aCPUProfile()},
			{Role: result.ProfileClientSidecar, StartUnix: start.Unix(), Seconds: 5, Pprof: []byte("not pprof")}}
		startLoad(run)
		finishLoadWith(run, rep, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))

		st := documentOf(run).Profiles
		Expect(st).NotTo(BeNil())
		Expect(st.ConfigMap).To(Equal("prof-profiles"))
		Expect(st.Generation).To(Equal(latest(run).Generation))
		Expect(st.Sidecars).To(HaveLen(2))
		server, client2 := st.Sidecars[0], st.Sidecars[1]
		Expect(server.Role).To(Equal(perfv1alpha1.ProfileServerSidecar))
		Expect(server.Key).To(Equal("serverSidecar.pprof"))
		Expect(server.Bytes).To(Equal(int64(len(aCPUProfile()))))
		Expect(server.Start.Time.Equal(start)).To(BeTrue())
		Expect(server.Seconds).To(Equal(int32(5)))
		Expect(server.Failure).To(BeEmpty())
		Expect(client2.Role).To(Equal(perfv1alpha1.ProfileClientSidecar))
		Expect(client2.Key).To(BeEmpty())
		Expect(client2.Failure).To(HavePrefix("not stored: "), "a profile pprof cannot parse is refused")

		cm := &corev1.ConfigMap{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "prof-profiles"}, cm)).To(Succeed())
		Expect(cm.OwnerReferences).To(HaveLen(1))
		Expect(cm.OwnerReferences[0].UID).To(Equal(latest(run).UID))
		Expect(cm.BinaryData).To(HaveLen(1))
		p, err := cpuprofile.Parse(cm.BinaryData["serverSidecar.pprof"])
		Expect(err).NotTo(HaveOccurred())
		Expect(cpuprofile.TopFunctions(p, 1).Flat[0].Name).To(ContainSubstring("github.com/dapr/"))
	})

	It("records a capture's failure and keeps no ConfigMap when neither profile was taken", func() {
		ns := newNamespace()
		run := createRun(ns, "noprof", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Profiling = &perfv1alpha1.ProfilingSpec{Seconds: 5}
			s.Load.Repetitions = 1
		})
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		markAvailable(ns, "noprof-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		rep := reportOf(result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}})
		rep.Profiles = []result.Profile{{Role: result.ProfileServerSidecar, Seconds: 5, Error: "connection refused"}}
		startLoad(run)
		finishLoadWith(run, rep, true)
		Eventually(phaseOf(run), 10*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))

		st := documentOf(run).Profiles
		Expect(st).NotTo(BeNil())
		Expect(st.ConfigMap).To(BeEmpty())
		Expect(st.Sidecars[0].Failure).To(Equal("not captured: connection refused"))
		Expect(st.Sidecars[1].Failure).To(Equal("the load tester's report holds no profile of it"))
		Expect(resultOf(run)).NotTo(BeNil(), "the result stands without profiles")
	})

	It("fails ResultUnreadable, its profiles with the rest, when the leader's log could never be read", func() {
		ns := newNamespace()
		run := createRun(ns, "lostprof", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Profiling = &perfv1alpha1.ProfilingSpec{Seconds: 5}
			s.Load.Repetitions = 1
		})
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		markAvailable(ns, "lostprof-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		startLoad(run)
		job := currentJobOf(run)
		msg := encoded(ns, job.Name+"-pod", result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}})
		testLogs.forget(ns, job.Name+"-pod") // every read fails as a pod without a node's does
		finishLoadWithMessage(run, msg, true)
		c := failedWith(run, perfv1alpha1.ReasonResultUnreadable)
		Expect(c.Message).To(ContainSubstring("no log to read"))
		Expect(latest(run).Status.Result).To(BeNil(), "nothing is kept of a report that was never read")
	})
})
