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
	"fmt"
	"net"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

var _ = Describe("A four-path run through real Dapr", func() {
	It("measures direct, client sidecar only, server sidecar only and both, and splits the added latency", func() {
		ns := newNamespace()
		run := daprRun(ns, "split", perfv1alpha1.ScenarioServiceInvocation, protocolQPS, func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
			s.Baseline = ptr.To(true)
			// Five repetitions: the whole report travels in one frame of the log, where the
			// termination message allowed four paths three. Phases of 5 s (1000 requests each)
			// keep the load time at 100 s, where 9 s phases took 180 s; what is asserted of
			// them is at p50 and in means, which 1000 requests pin.
			s.Load.Repetitions = 5
			s.Load.Duration = &metav1.Duration{Duration: 5 * time.Second}
			s.Load.Warmup = &metav1.Duration{Duration: 3 * time.Second}
			// 16 connections at 200 rps: 80 ms between one connection's slots. With 8 (40 ms)
			// a path whose p99 reached 34 ms on a host lending its cores away carried 197.1 of
			// 200 qps (CI, stop 74: Saturated, no added latency claimed).
			s.Load.Connections = 16
			s.Load.PayloadBytes = ptr.To[int32](1024)
			s.Cleanup = perfv1alpha1.CleanupNever // the target's own counters are read below
			s.Dapr.Sidecar.CPURequest = ptr.To(resource.MustParse("100m"))
		})
		expectClaimed(run, 6*time.Minute)
		res := resultOf(run)
		Expect(res.Errors).To(BeZero(), "%s", describe(run))
		a := res.Attribution
		Expect(a).NotTo(BeNil(), "%s", describe(run))
		Expect(a.Paths).To(HaveLen(4))
		Expect(res.Repetitions).To(HaveLen(5*4), "every repetition of the four paths, in the document")
		for _, p := range a.Paths {
			Expect(p.Latency).NotTo(BeNil(), p.Path)
			Expect(p.Latency.P90).NotTo(BeNil(), p.Path)
		}
		// Each sidecar alone adds a daprd hop to the direct call: beyond noise at p50.
		for name, part := range map[string]*perfv1alpha1.AttributedLatency{"client": a.ClientSidecar, "server": a.ServerSidecar} {
			Expect(part).NotTo(BeNil(), name)
			Expect(part.Interval.Low.P50.Duration).To(BeNumerically(">", 0), "%s sidecar: %s", name, describe(run))
		}
		Expect(a.Interaction).NotTo(BeNil())
		Expect(a.Interaction.Latency.P90).To(BeNil(), "only means decompose")
		Expect(a.ClientSidecar.Latency.Avg.Duration+a.ServerSidecar.Latency.Avg.Duration+a.Interaction.Latency.Avg.Duration).
			To(BeNumerically("~", res.Added.Avg.Duration, 2*time.Microsecond), "the means add up to what Dapr adds (each rounded to the µs)")
		// Every path ended at the same app process (a same-pod baseline): the target's app
		// served every request of all four paths.
		var requests int64
		for _, p := range res.Paths {
			Expect(p.Failed).To(BeZero(), p.Path)
			requests += p.Completed
		}
		stats, annotations := appStats(run, nil)
		Expect(annotations).To(HaveKeyWithValue(workload.AnnotationListenAddresses, "0.0.0.0"))
		Expect(stats["invocations"]).To(BeNumerically(">=", requests))
		GinkgoWriter.Printf("four paths: direct %s; client only %s; server only %s; both %s\nsplit: client %s, server %s, interaction %s\n",
			summary(a.Paths[0].Latency), summary(a.Paths[1].Latency), summary(a.Paths[2].Latency), summary(a.Paths[3].Latency),
			summary(a.ClientSidecar.Latency), summary(a.ServerSidecar.Latency), summary(a.Interaction.Latency))
		Expect(describe(run)).To(ContainSubstring("added mean split: client sidecar"))

		// The target's daprd listens on its pod's address (kept by cleanup Never, as it was
		// during the run): a pod of another namespace reaches neither its API without the
		// run's token nor a profiler.
		ip := targetPodIP(run)
		api := at(ip, workload.SidecarHTTPPort, "/v1.0/metadata")
		invoke := at(ip, workload.SidecarHTTPPort, "/v1.0/invoke/"+workload.NamesFor(run).TargetAppID+"/method/test")
		profiler := at(ip, workload.ProfilingPort, "/debug/pprof/cmdline")
		grpcAPI := fmt.Sprintf("dapr-grpc://%s/%s/test", net.JoinHostPort(ip, strconv.Itoa(workload.SidecarGRPCPort)), workload.NamesFor(run).TargetAppID)
		got := probeFromElsewhere(api, invoke, profiler, grpcAPI)
		Expect(got[0]).To(ContainSubstring(refusedFor(api)))
		Expect(got[1]).To(ContainSubstring(refusedFor(invoke)))
		Expect(got[2]).To(ContainSubstring(unheard(profiler)))
		Expect(got[3]).To(MatchRegexp(`^codes map\[401:\d+\]$`), "daprd's gRPC API: Unauthenticated to every call without the token")
	})
})
