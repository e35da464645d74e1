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

package usage

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
)

// A kubelet's /metrics/cadvisor as v1.36 on containerd 1.6 writes it (trimmed): the node's
// root cgroup, a pod cgroup (labelled), and container cgroups whose labels are empty — only
// their cgroup id ends in the container's id; one under systemd's naming, one of another pod.
const cadvisorText = `# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds
# TYPE container_cpu_usage_seconds_total counter
container_cpu_usage_seconds_total{container="",cpu="total",id="/",image="",name="",namespace="",pod=""} 5123.456 1795390000123
container_cpu_usage_seconds_total{container="",cpu="total",id="/kubepods/burstable/pod1",image="",name="",namespace="perf",pod="run-target-x"} 40.5 1795390000456
container_cpu_usage_seconds_total{container="",cpu="total",id="/kubepods/burstable/pod1/aaa111",image="",name="",namespace="",pod=""} 30.25 1795390000456
container_cpu_usage_seconds_total{container="app",cpu="total",id="/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/cri-containerd-bbb222.scope",image="daprbench:dev",name="c2",namespace="perf",pod="run-target-x"} 10.125 1795390000456
container_cpu_usage_seconds_total{container="",cpu="total",id="/kubepods/burstable/pod9/ccc999",image="",name="",namespace="",pod=""} 99 1795390000456
# HELP container_cpu_cfs_periods_total Number of elapsed enforcement period intervals.
# TYPE container_cpu_cfs_periods_total counter
container_cpu_cfs_periods_total{container="",id="/kubepods/burstable/pod1/aaa111",image="",name="",namespace="",pod=""} 6000 1795390000456
container_cpu_cfs_periods_total{container="",id="/kubepods/burstable/pod1",image="",name="",namespace="perf",pod="run-target-x"} 6100 1795390000456
# HELP container_cpu_cfs_throttled_periods_total Number of throttled period intervals.
# TYPE container_cpu_cfs_throttled_periods_total counter
container_cpu_cfs_throttled_periods_total{container="",id="/kubepods/burstable/pod1/aaa111",image="",name="",namespace="",pod=""} 1500 1795390000456
# HELP container_cpu_cfs_throttled_seconds_total Total time duration the container has been throttled.
# TYPE container_cpu_cfs_throttled_seconds_total counter
container_cpu_cfs_throttled_seconds_total{container="",id="/kubepods/burstable/pod1/aaa111",image="",name="",namespace="",pod=""} 45.5 1795390000456
# HELP machine_cpu_cores Number of logical CPU cores.
# TYPE machine_cpu_cores gauge
machine_cpu_cores{boot_id="b",machine_id="m",system_uuid="s"} 2
`

func TestParseCadvisorKeepsTheRunsContainersAndTheNode(t *testing.T) {
	containers := map[string]Series{
		ContainerID("containerd://aaa111"): {Role: string(roles.ServerSidecar), Pod: "run-target-x"},
		ContainerID("containerd://bbb222"): {Role: string(roles.ServerApp), Pod: "run-target-x"},
	}
	got, err := ParseCadvisor(strings.NewReader(cadvisorText), "node-a", containers, time.Unix(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	byRole := map[string]perfv1alpha1.CounterSample{}
	for _, s := range got {
		byRole[s.Role] = s
	}
	if len(byRole) != 3 {
		t.Fatalf("samples %+v, want the node, the sidecar and the app only", got)
	}
	sc := byRole[string(roles.ServerSidecar)]
	if sc.CPUMillis != 30250 || sc.Periods != 6000 || sc.ThrottledPeriods != 1500 || sc.ThrottledMillis != 45500 {
		t.Errorf("sidecar = %+v (the pod cgroup's 6100 periods are not the container's)", sc)
	}
	if !sc.At.Time.Equal(time.UnixMilli(1795390000456)) {
		t.Errorf("sidecar read at %v, want the series' own timestamp", sc.At)
	}
	if app := byRole[string(roles.ServerApp)]; app.CPUMillis != 10125 || app.Periods != 0 {
		t.Errorf("app = %+v (systemd's cgroup naming; no CPU limit: no CFS counters)", app)
	}
	if node := byRole[roles.NodeRole("node-a")]; node.CPUMillis != 5123456 || node.CapacityMillis != 2000 {
		t.Errorf("node = %+v", node)
	}
	if _, err := ParseCadvisor(strings.NewReader("not { metrics"), "node-a", containers, time.Now()); err == nil {
		t.Error("garbage parsed")
	}
}

func TestRecordCountersKeepsEachSampleOnceAndStaysBounded(t *testing.T) {
	live := &perfv1alpha1.LiveUsage{}
	at := func(s int) perfv1alpha1.CounterSample {
		return perfv1alpha1.CounterSample{Role: "serverSidecar", At: metav1.NewMicroTime(time.Unix(int64(s), 0)), CPUMillis: int64(s)}
	}
	s := at(1)
	RecordCounters(live, []perfv1alpha1.CounterSample{s, s})
	if len(live.Counters) != 1 {
		t.Fatalf("a sample recorded %d times", len(live.Counters))
	}
	for i := range 4000 {
		RecordCounters(live, []perfv1alpha1.CounterSample{at(i + 2)})
	}
	if n := len(live.Counters); n > maxCounterSamples || n < maxCounterSamples/2 {
		t.Errorf("%d samples kept, want at most %d and no fewer than half", n, maxCounterSamples)
	}
}

func TestCountersBehindWaitsOnlyForContainersThatStillRun(t *testing.T) {
	end := time.Date(2026, 11, 23, 10, 0, 20, 0, time.UTC)
	at := func(role string, s int) perfv1alpha1.CounterSample {
		return perfv1alpha1.CounterSample{Role: role, At: metav1.NewMicroTime(end.Add(time.Duration(s) * time.Second))}
	}
	samples := []perfv1alpha1.CounterSample{at("serverSidecar", -12), at("serverSidecar", 3), at("node/n", 1),
		at("clientSidecar", -8), at("loadTester", -8), at("serverApp", -2)}
	if got := CountersBehind(samples, end); got != "serverApp" {
		t.Errorf("behind = %q, want serverApp (the load tester's containers have ended: not waited for)", got)
	}
	samples = append(samples, at("serverApp", 4))
	if got := CountersBehind(samples, end); got != "" {
		t.Errorf("behind = %q, want none once every running container has a reading after the end", got)
	}
}
