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
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/controllers/perfrun"
	"github.com/daprbench/daprbench/internal/contract/result"
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

func (f *fakeLogs) Tail(_ context.Context, ns, pod, _ string, lines, limitBytes int64) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := ns + "/" + pod
	logs, ok := f.logs[key]
	if !ok {
		return nil, errors.New("pod has no node: no log to read (envtest runs no kubelet)")
	}
	read := min(f.reads[key], len(logs)-1)
	f.reads[key]++
	log := logs[read]
	if n := strings.Count(log, "\n"); int64(n) > lines || int64(len(log)) > limitBytes {
		return nil, fmt.Errorf("the reader asked for %d lines of at most %d bytes: the log's end has %d lines, %d bytes", lines, limitBytes, n, len(log))
	}
	return []byte(log), nil
}

// forget makes the pod's log unreadable, as a pod without a node's is.
func (f *fakeLogs) forget(ns, pod string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.logs, ns+"/"+pod)
}

func (f *fakeLogs) readsOf(ns, pod string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads[ns+"/"+pod]
}

var testLogs = &fakeLogs{}

// oneRequest is a load tester's report of one direct request of 1234µs, its histograms
// under the variant code v.
func oneRequest(v result.Variant) result.Report {
	h := result.NewHistogram()
	ExpectWithOffset(1, h.RecordValue(1234)).To(Succeed())
	enc, err := result.EncodeHistogram(h)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	rep := reportOf(result.Summary{RequestedQPS: 1000, Runs: []result.Run{summaryRun(result.Direct, 0, 600)}})
	rep.Histograms = result.Histograms{Paths: []result.PathHistograms{{Variant: v, Latency: enc, Service: enc}}}
	return rep
}

// runWithLogs takes a direct run to the end of its load, the load tester having written rep;
// its leader's log reads return logs(the log as written) in turn.
func runWithLogs(name string, rep result.Report, logs func(written string) []string) (*perfv1alpha1.PerfRun, string) {
	ns := newNamespace()
	run := createRun(ns, name, perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Dapr.Enabled = ptrTo(false)
	})
	Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
	markAvailable(ns, name+"-target")
	Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
	pod := currentJobOf(run).Name + "-pod"
	startLoad(run)
	msg := wrote(ns, pod, rep)
	testLogs.mu.Lock()
	written := testLogs.logs[ns+"/"+pod][0]
	testLogs.mu.Unlock()
	testLogs.set(ns, pod, logs(written)...)
	finishLoadWithMessage(run, msg, true)
	Eventually(phaseOf(run)).Should(BeElementOf(perfv1alpha1.PhaseSucceeded, perfv1alpha1.PhaseFailed))
	return run, pod
}

func asWritten(written string) []string { return []string{written} }

var _ = Describe("A run's report", func() {
	It("is read whole from the load tester leader's log, its histograms kept in the run's result document", func() {
		run, pod := runWithLogs("hist", oneRequest(result.Direct), asWritten)

		Expect(latest(run).Status.Phase).To(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(testLogs.readsOf(run.Namespace, pod)).To(Equal(1), "read once, then kept while the run waits for its last usage readings")
		got := documentOf(run).Histograms
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("direct"))
		Expect(got[0].Variant).To(Equal(string(result.Direct)))
		decoded, err := result.DecodeHistogram(got[0].Latency)
		Expect(err).NotTo(HaveOccurred())
		Expect(decoded.TotalCount()).To(Equal(int64(1)))
	})

	It("is read again when a read fails, within a bound; a run whose log never holds it fails ResultUnreadable and keeps nothing", func() {
		late, _ := runWithLogs("hist-late", oneRequest(result.Direct), func(written string) []string {
			return []string{"fortio: a log whose end was not served whole\n", written}
		})
		Expect(latest(late).Status.Phase).To(Equal(perfv1alpha1.PhaseSucceeded))
		Expect(documentOf(late).Histograms).To(HaveLen(1), "the second read's report was kept")

		never, pod := runWithLogs("hist-never", oneRequest(result.Direct), func(string) []string {
			return []string{"fortio: no report in this log\n"}
		})
		c := failedWith(never, perfv1alpha1.ReasonResultUnreadable)
		Expect(c.Message).To(ContainSubstring("in 4 tries: no report of the termination message's digest in the load tester's log; nothing of it is kept"))
		Expect(latest(never).Status.Result).To(BeNil(), "nothing unchecked is kept")
		Expect(testLogs.readsOf(never.Namespace, pod)).To(Equal(perfrun.ReportRetries+1), "bounded: one read and the retries")

		cut, _ := runWithLogs("hist-cut", oneRequest(result.Direct), func(written string) []string {
			begin := strings.Index(written, result.FramePrefix+"begin")
			return []string{written[:begin+strings.Index(written[begin:], "\n")+1]} // the log served up to the frame's first line
		})
		Expect(failedWith(cut, perfv1alpha1.ReasonResultUnreadable).Message).To(ContainSubstring("cut short"))
	})

	It("is refused whole when its histograms carry a variant the load tester cannot have written", func() {
		// The plugin's export names files after the variant: "/../x" wrote outside its folder.
		forged, _ := runWithLogs("hist-forged", oneRequest("/../../../escaped"), asWritten)
		Expect(failedWith(forged, perfv1alpha1.ReasonResultUnreadable).Message).To(ContainSubstring("not a variant code"))
		Expect(latest(forged).Status.Result).To(BeNil(), "nothing of a report that is not the load tester's is kept")
	})

	It("fails the run ResultTooLarge, naming its size and the limit, when it is larger than the channel holds", func() {
		ns := newNamespace()
		run := createRun(ns, "huge", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Enabled = ptrTo(false)
		})
		markAvailable(ns, "huge-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		startLoad(run)
		bytes := result.MaxReportBytes + 1
		finishLoadWithMessage(run, fmt.Sprintf(`{"ver":%d,"runs":30,"frame":{"lines":%d,"bytes":%d,"digest":"sha256:%s"}}`,
			result.SchemaVersion, (bytes+3071)/3072, bytes, strings.Repeat("0", 64)), true)
		c := failedWith(run, perfv1alpha1.ReasonResultTooLarge)
		Expect(c.Message).To(ContainSubstring("the load tester's report takes 4194305 bytes (gzipped), more than the 4194304 the operator reads from its log"))
	})
})
