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
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// fakeKubelet plays the kubelet's /metrics/cadvisor (a fake: envtest runs no kubelet). A
// spec scripts each container's CPU use over a virtual timeline that runs speed times faster
// than the wall clock from start; every read gives each scripted container's cumulative
// counters at the virtual now, stamped with it as cAdvisor stamps its series. Unscripted,
// it serves an empty page.
type fakeKubelet struct {
	mu         sync.Mutex
	start      time.Time
	speed      float64
	containers map[string]func(at float64) (cpuSeconds, periods, throttledPeriods, throttledSeconds float64)
}

var testKubelet = &fakeKubelet{}

func (k *fakeKubelet) Describe() string { return "a fake kubelet's /metrics/cadvisor" }

// virtualNow is the scripted timeline's now, in seconds from start.
func (k *fakeKubelet) virtualNow() float64 { return time.Since(k.start).Seconds() * k.speed }

func (k *fakeKubelet) Cadvisor(context.Context, string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.containers) == 0 {
		return nil, nil
	}
	at := k.virtualNow()
	ms := k.start.Add(time.Duration(at * float64(time.Second))).UnixMilli()
	var b strings.Builder
	for _, m := range []string{"container_cpu_usage_seconds_total", "container_cpu_cfs_periods_total",
		"container_cpu_cfs_throttled_periods_total", "container_cpu_cfs_throttled_seconds_total"} {
		fmt.Fprintf(&b, "# TYPE %s counter\n", m)
		for id, f := range k.containers {
			cpu, periods, throttled, stalled := f(at)
			v := map[string]float64{"container_cpu_usage_seconds_total": cpu, "container_cpu_cfs_periods_total": periods,
				"container_cpu_cfs_throttled_periods_total": throttled, "container_cpu_cfs_throttled_seconds_total": stalled}[m]
			fmt.Fprintf(&b, "%s{id=\"/kubepods/pod/%s\"} %g %d\n", m, id, v, ms)
		}
	}
	return []byte(b.String()), nil
}

// script sets the containers' timelines, from now.
func (k *fakeKubelet) script(speed float64, containers map[string]func(at float64) (float64, float64, float64, float64)) time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.start, k.speed, k.containers = time.Now().Truncate(time.Second), speed, containers
	return k.start
}

func (k *fakeKubelet) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.containers = nil
}

// during is a container's counters when it uses busy CPU (throttled in share of its ten CFS
// periods a second) inside the given windows of the timeline and idle CPU outside them.
func during(windows [][2]float64, idle, busy, share float64) func(at float64) (float64, float64, float64, float64) {
	return func(at float64) (cpu, periods, throttled, stalled float64) {
		busyFor := 0.0
		for _, w := range windows {
			busyFor += max(0, min(at, w[1])-w[0])
		}
		cpu = idle*(at-busyFor) + busy*busyFor
		periods = 10 * at
		throttled = 10 * share * busyFor
		return cpu, periods, throttled, throttled * 0.06
	}
}

// withContainerIDs gives a pod's containers the runtime ids the kubelet reports, "fake://PODNAME", and
// returns them by container.
func withContainerIDs(pod *corev1.Pod) map[string]string {
	ids := map[string]string{}
	Eventually(func() error {
		if err := k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(pod), pod); err != nil {
			return err
		}
		for i := range pod.Status.ContainerStatuses {
			c := &pod.Status.ContainerStatuses[i]
			id := strings.ReplaceAll(pod.Name+c.Name, "-", "") // a cgroup path's id has no dashes
			c.ContainerID, ids[c.Name] = "fake://"+id, id
		}
		return k8sClient.Status().Update(suiteCtx, pod)
	}).Should(Succeed())
	return ids
}

var _ = Describe("A CPU-limit-bound run", func() {
	AfterEach(testKubelet.stop)

	It("still writes what Dapr costs per request, the rate its limit sustains and its added latency, labelled as the limit's", func() {
		ns := newNamespace()
		run := createRun(ns, "bound", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.Repetitions = 2
			s.Dapr.Sidecar.CPULimit = ptr.To(resource.MustParse("500m"))
		})
		markAvailable(ns, "bound-target")
		startLoad(run)
		target := &corev1.Pod{}
		Expect(k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: "bound-target-pod"}, target)).To(Succeed())
		server := withContainerIDs(target)
		tester := withContainerIDs(loadTesterPod(currentJobOf(run)))

		// 10 s phases from 11 s on, baseline then Dapr, twice, on a timeline five times faster
		// than the clock (a counter reading every virtual second, as the polls come):
		// the server's daprd works through the Dapr phases at 470m of its 500m, throttled in
		// 60% of its periods, the client's at 120m; both idle at 2m otherwise.
		dapr := [][2]float64{{22, 32}, {44, 54}}
		t0 := testKubelet.script(5, map[string]func(float64) (float64, float64, float64, float64){
			server[workload.ContainerDaprd]:  during(dapr, 0.002, 0.470, 0.6),
			tester[workload.ContainerDaprd]:  during(dapr, 0.002, 0.120, 0),
			tester[workload.ContainerTester]: during(nil, 0.060, 0.060, 0),
		})
		phase := func(v result.Variant, rep int, at float64, qps float64) result.Run {
			r := summaryRun(v, rep, 600)
			if v == result.Dapr {
				r = summaryRun(v, rep, 5000)
			}
			r.StartUnix, r.Seconds, r.ActualQPS, r.Requests, r.Scheduled = t0.Unix()+int64(at), 10, qps, int64(qps*10), 10_000
			r.Codes = map[string]int64{"200": r.Requests}
			r.TesterLagP99Us = 1930 // on time: the path, not the tester, fell behind
			return r
		}
		// The Dapr path carried 984.5 of 1000 qps: saturated, its tester on time.
		sum := result.Summary{RequestedQPS: 1000, GapUs: 16_000, Runs: []result.Run{
			phase(result.Baseline, 0, 11, 1000), phase(result.Dapr, 0, 22, 984.5),
			phase(result.Baseline, 1, 33, 1000), phase(result.Dapr, 1, 44, 984.5)}}
		// The counters are read once per usage interval of the reconciler's clock: move it on
		// until a reading lies past the last phase.
		stepping := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			for {
				select {
				case <-stepping:
					return
				case <-time.After(50 * time.Millisecond):
					fakeClock.Step(250 * time.Millisecond)
				}
			}
		}()
		Eventually(func() time.Time {
			var newest time.Time
			if live := latest(run).Status.LiveUsage; live != nil {
				for _, c := range live.Counters {
					if c.At.After(newest) {
						newest = c.At.Time
					}
				}
			}
			return newest
		}, 30*time.Second).Should(BeTemporally(">", t0.Add(58*time.Second)))
		close(stepping)
		finishLoad(run, sum, true)
		Eventually(phaseOf(run), 20*time.Second).Should(Equal(perfv1alpha1.PhaseSucceeded))

		res := resultOf(run)
		Expect(conditionOf(run, perfv1alpha1.ConditionCPULimitBound).Status).To(Equal(metav1.ConditionTrue))
		Expect(conditionOf(run, perfv1alpha1.ConditionSaturated).Status).To(Equal(metav1.ConditionTrue))
		Expect(res.LimitBound).To(BeTrue())
		Expect(res.AddedLimitBound).To(BeTrue(), "the added latency is claimed, as the limit's")
		Expect(res.Added).NotTo(BeNil())
		Expect(res.Added.P90.Duration).To(BeNumerically(">", 4*time.Millisecond))

		var cost *perfv1alpha1.SidecarCost
		for i := range res.SidecarCost {
			if res.SidecarCost[i].Role == "serverSidecar" {
				cost = &res.SidecarCost[i]
			}
		}
		Expect(cost).NotTo(BeNil(), "%+v", res.SidecarCost)
		// 470m over 984.5 completed requests a second: 477 µs of daprd's CPU per request
		// (±8%: the readings, one per poll, are interpolated at the phases' edges), and 500m
		// would carry 0.8 × 500/0.477 = 838 rps at 80% use: a projection, below the 984.5 rps
		// it carried while bound (as a queue).
		Expect(cost.CPUPerRequest.Duration).To(BeNumerically("~", 477*time.Microsecond, 38*time.Microsecond))
		projected, err := strconv.ParseFloat(cost.LimitProjectedQPS, 64)
		Expect(err).NotTo(HaveOccurred())
		// The limit's share of a second over the cost per request (the reading's spread is
		// the cost's tolerance above; inverting it here would make an 8% low reading a
		// failure at 8.7% high). The projection is floored to whole rps from the unrounded
		// cost, which status rounds to 0.1 µs: up to 1 rps below, a fraction either side.
		Expect(projected).To(BeNumerically("~", 0.8*0.5/cost.CPUPerRequest.Seconds(), 1.5))

		done := conditionOf(run, perfv1alpha1.ConditionSucceeded)
		Expect(done.Reason).To(Equal(perfv1alpha1.ReasonSaturated))
		Expect(done.Message).To(ContainSubstring("added by Dapr held at its CPU limit (limit-bound) p90"))
		Expect(done.Message).To(ContainSubstring("which carried 984.5 rps"), "what the limit actually carried")
		Expect(done.Message).To(ContainSubstring("the dapr path's capacity (984.5 of 1000 qps, the load tester on time)"))
		Expect(done.Message).NotTo(ContainSubstring("the load tester (its own lag"), "the tester was on time: the verdict does not blame it")
	})
})
