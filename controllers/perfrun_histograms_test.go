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
	"context"
	"errors"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// fakeLogs stands in for the kubelet's log endpoint, which envtest does not run: a pod's
// log is what a spec sets (a sequence: one read each, the last repeated), else the error
// the API server gives for a pod without a node.
type fakeLogs struct {
	mu    sync.Mutex
	logs  map[string][]string // namespace/pod → the logs its reads return, in turn
	reads map[string]int
}

func (f *fakeLogs) set(ns, pod string, logs ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.logs == nil {
		f.logs, f.reads = map[string][]string{}, map[string]int{}
	}
	f.logs[ns+"/"+pod] = logs
}

func (f *fakeLogs) Tail(_ context.Context, ns, pod, _ string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := ns + "/" + pod
	logs, ok := f.logs[key]
	if !ok {
		return nil, errors.New("pod has no node: no log to read (envtest runs no kubelet)")
	}
	read := min(f.reads[key], len(logs)-1)
	f.reads[key]++
	return []byte(logs[read]), nil
}

func (f *fakeLogs) readsOf(ns, pod string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads[ns+"/"+pod]
}

var testLogs = &fakeLogs{}

// histogramsLine is a load tester's histograms line of one direct request of 1234µs.
func histogramsLine() string { return histogramsLineOf(result.Direct) }

// histogramsLineOf is histogramsLine's path under the variant code v.
func histogramsLineOf(v result.Variant) string {
	h := latency.NewHistogram()
	ExpectWithOffset(1, h.RecordValue(1234)).To(Succeed())
	enc, err := latency.Encode(h)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	line, err := result.Histograms{Version: result.SchemaVersion, Paths: []result.PathHistograms{{Variant: v, Latency: enc, Service: enc}}}.Line()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return line
}

// runWithLogs takes a direct run to the end of its load, its leader's log reads returning
// logs in turn, and waits for it to succeed.
func runWithLogs(name string, logs ...string) (*perfv1alpha1.PerfRun, string) {
	ns := newNamespace()
	run := createRun(ns, name, perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Dapr.Enabled = ptrTo(false)
	})
	Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
	markAvailable(ns, name+"-target")
	Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
	pod := currentJobOf(run).Name + "-pod"
	testLogs.set(ns, pod, logs...)
	startLoad(run)
	finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Direct, 0, 600)}}, true)
	Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseSucceeded))
	return run, pod
}

var _ = Describe("A run's histograms", func() {
	It("are copied from the load tester leader's log into a ConfigMap the run owns, named in its status", func() {
		run, _ := runWithLogs("hist", `{"fortio":"json"}`+"\n"+histogramsLine()+"\nloadtester: done\n")

		Expect(latest(run).Status.Histograms).To(Equal("hist-histograms"))
		cm := &corev1.ConfigMap{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: run.Namespace, Name: "hist-histograms"}, cm)).To(Succeed())
		Expect(cm.OwnerReferences).To(HaveLen(1))
		Expect(cm.OwnerReferences[0].UID).To(Equal(latest(run).UID))
		got, ok, err := result.ParseHistograms(cm.Data[result.HistogramsKey])
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		decoded, err := latency.Decode(got.Paths[0].Latency)
		Expect(err).NotTo(HaveOccurred())
		Expect(decoded.TotalCount()).To(Equal(int64(1)))
	})

	It("are looked for again when a read finds none yet, and a run whose log never holds them still concludes", func() {
		late, _ := runWithLogs("hist-late", "fortio: a log without the line yet\n", `{"fortio":"json"}`+"\n"+histogramsLine()+"\n")
		Expect(latest(late).Status.Histograms).To(Equal("hist-late-histograms"), "the second read's histograms were kept")

		never, pod := runWithLogs("hist-never", "fortio: no histograms in this log\n")
		Expect(latest(never).Status.Histograms).To(BeEmpty())
		Expect(latest(never).Status.Result).NotTo(BeNil(), "the result stands without the histograms")
		Expect(testLogs.readsOf(never.Namespace, pod)).To(Equal(perfrun.HistogramsRetries+1), "bounded: one read and the retries")
	})

	It("are not kept when they carry a variant the load tester cannot have written", func() {
		// The plugin's export names files after the variant: "/../x" wrote outside its folder.
		forged, _ := runWithLogs("hist-forged", histogramsLineOf("/../../../escaped")+"\n")
		Expect(latest(forged).Status.Histograms).To(BeEmpty())
		Expect(latest(forged).Status.Result).NotTo(BeNil(), "the result stands without them")
		err := k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: forged.Namespace, Name: "hist-forged-histograms"}, &corev1.ConfigMap{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "no ConfigMap holds them: %v", err)
	})
})
