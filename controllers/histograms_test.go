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
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/latency"
	"github.com/daprbench/daprbench/internal/result"
)

// fakeLogs stands in for the kubelet's log endpoint, which envtest does not run: a pod's
// log is what a spec sets, else the error the API server gives for a pod without a node.
type fakeLogs struct {
	mu   sync.Mutex
	logs map[string]string // namespace/pod → log
}

func (f *fakeLogs) set(ns, pod, log string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.logs == nil {
		f.logs = map[string]string{}
	}
	f.logs[ns+"/"+pod] = log
}

func (f *fakeLogs) Tail(_ context.Context, ns, pod, _ string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if log, ok := f.logs[ns+"/"+pod]; ok {
		return []byte(log), nil
	}
	return nil, errors.New("pod has no node: no log to read (envtest runs no kubelet)")
}

var testLogs = &fakeLogs{}

var _ = Describe("A run's histograms", func() {
	It("are copied from the load tester leader's log into a ConfigMap the run owns, named in its status", func() {
		ns := newNamespace()
		run := createRun(ns, "hist", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Enabled = ptrTo(false)
		})
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		markAvailable(ns, "hist-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		h := latency.NewHistogram()
		Expect(h.RecordValue(1234)).To(Succeed())
		enc, err := latency.Encode(h)
		Expect(err).NotTo(HaveOccurred())
		line, err := result.Histograms{Version: result.SchemaVersion, Paths: []result.PathHistograms{{Variant: result.Direct, Latency: enc, Service: enc}}}.Line()
		Expect(err).NotTo(HaveOccurred())
		testLogs.set(ns, currentJobOf(run).Name+"-pod", `{"fortio":"json"}`+"\n"+line+"\nloadtester: done\n")
		startLoad(run)
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Direct, 0, 600)}}, true)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseSucceeded))

		Expect(latest(run).Status.Histograms).To(Equal("hist-histograms"))
		cm := &corev1.ConfigMap{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "hist-histograms"}, cm)).To(Succeed())
		Expect(cm.OwnerReferences).To(HaveLen(1))
		Expect(cm.OwnerReferences[0].UID).To(Equal(latest(run).UID))
		got, ok, err := result.ParseHistograms(cm.Data[result.HistogramsKey])
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		decoded, err := latency.Decode(got.Paths[0].Latency)
		Expect(err).NotTo(HaveOccurred())
		Expect(decoded.TotalCount()).To(Equal(int64(1)))
	})
})
