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

package workload_test

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	. "github.com/daprbench/daprbench/internal/operator/workload"
	"github.com/daprbench/daprbench/internal/operator/workload/workloadtest"
	"github.com/daprbench/daprbench/internal/pods/perfapp"

	// Every scenario registered, as the manager has them.
	_ "github.com/daprbench/daprbench/internal/scenario/all"
)

var opts = Options{Image: workloadtest.Image, PullPolicy: workloadtest.PullPolicy}

// newRun and envMap are the runs and settings every scenario's side test builds on too.
var newRun, envMap = workloadtest.NewRun, workloadtest.EnvMap

func TestNamesAreDeterministicAndCarryTheGeneration(t *testing.T) {
	n := NamesFor(newRun(perfv1alpha1.ScenarioServiceInvocation))
	want := Names{Target: "bench-target", Baseline: "bench-baseline", Tracing: "bench-tracing", StateStore: "bench-statestore",
		Job: "bench-load-3", Store: "bench-store", PubSub: "bench-pubsub", Subscription: "bench-subscription", ServiceAccount: "bench-runner", Histograms: "bench-histograms",
		Profiles: "bench-profiles", TargetAppID: "bench-target", TesterAppID: "bench-loadtester"}
	if n != want {
		t.Errorf("names = %+v, want %+v", n, want)
	}
}

func TestTargetAnnotations(t *testing.T) {
	cases := []struct {
		name   string
		run    *perfv1alpha1.PerfRun
		want   map[string]string
		absent []string
	}{
		{
			name: "invocation through Dapr",
			run: newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
				s.Dapr.Sidecar.MemoryLimit = ptr.To(resource.MustParse("256Mi"))
			}),
			want: map[string]string{"dapr.io/enabled": "true", "dapr.io/app-id": "bench-target", "dapr.io/app-port": "3000",
				"dapr.io/config": "bench-tracing", "dapr.io/log-level": "warn", "dapr.io/sidecar-cpu-limit": "500m",
				"dapr.io/sidecar-memory-limit": "256Mi"},
			absent: []string{"dapr.io/sidecar-cpu-request", "dapr.io/sidecar-memory-request"},
		},
		{
			name:   "Dapr disabled: no sidecar",
			run:    newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) { s.Dapr.Enabled = ptr.To(false) }),
			absent: []string{"dapr.io/enabled", "dapr.io/app-id"},
		},
		{
			name: "default log level",
			run:  newRun(perfv1alpha1.ScenarioActorActivation, func(s *perfv1alpha1.PerfRunSpec) { s.Dapr.LogLevel = "" }),
			want: map[string]string{"dapr.io/log-level": "info", "dapr.io/app-port": "3000"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := TargetDeployment(tc.run, opts).Spec.Template.Annotations
			for k, v := range tc.want {
				if a[k] != v {
					t.Errorf("%s = %q, want %q", k, a[k], v)
				}
			}
			for _, k := range tc.absent {
				if _, ok := a[k]; ok {
					t.Errorf("%s set, want absent", k)
				}
			}
		})
	}
}

func TestTargetAndBaselineAreTwins(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Target = perfv1alpha1.WorkloadSpec{Image: "custom:1", NodeSelector: map[string]string{"pool": "perf"},
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}
	})
	target, twin := TargetDeployment(run, opts), BaselineDeployment(run, opts)
	tc, bc := target.Spec.Template.Spec.Containers[0], twin.Spec.Template.Spec.Containers[0]
	if tc.Image != "custom:1" || bc.Image != "custom:1" || strings.Join(tc.Args, " ") != strings.Join(bc.Args, " ") {
		t.Errorf("images %s/%s args %v/%v", tc.Image, bc.Image, tc.Args, bc.Args)
	}
	if !tc.Resources.Limits.Cpu().Equal(resource.MustParse("1")) || !bc.Resources.Limits.Cpu().Equal(resource.MustParse("1")) {
		t.Error("resources not applied to both")
	}
	if twin.Spec.Template.Annotations != nil {
		t.Errorf("twin has annotations %v", twin.Spec.Template.Annotations)
	}
	if twin.Spec.Template.Spec.NodeSelector["pool"] != "perf" {
		t.Error("twin lost the node selector")
	}
	pref := twin.Spec.Template.Spec.Affinity.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	if len(pref) != 1 || pref[0].PodAffinityTerm.LabelSelector.MatchLabels[LabelComponent] != "target" {
		t.Errorf("twin should prefer the target's node: %+v", pref)
	}
	if target.Spec.Selector.MatchLabels[LabelComponent] == twin.Spec.Selector.MatchLabels[LabelComponent] {
		t.Error("target and twin select the same pods")
	}
	if svc := BaselineService(run); svc.Spec.Selector[LabelComponent] != "baseline" || svc.Spec.Ports[0].Port != AppPort {
		t.Errorf("baseline service = %+v", svc.Spec)
	}
	if c := TargetDeployment(newRun(perfv1alpha1.ScenarioServiceInvocation), opts).Spec.Template.Spec.Containers[0]; c.Image != opts.Image {
		t.Errorf("default image = %s, want the operator's", c.Image)
	}
}

func TestLoadTesterEnv(t *testing.T) {
	cases := []struct {
		name   string
		run    *perfv1alpha1.PerfRun
		host   string // the target pod's IP, for a same-pod baseline
		want   map[string]string
		absent []string
	}{
		{
			name: "invocation with a same-pod baseline: the target pod's app port by IP",
			run:  newRun(perfv1alpha1.ScenarioServiceInvocation),
			host: "10.244.0.7",
			want: map[string]string{"DAPRBENCH_QPS": "1000", "DAPRBENCH_CONNECTIONS": "16", "DAPRBENCH_DURATION": "1m0s",
				"DAPRBENCH_WARMUP": "10s", "DAPRBENCH_REPETITIONS": "2", "DAPRBENCH_PAYLOAD_BYTES": "1024",
				"DAPRBENCH_DAPR_URL":     "http://localhost:3500/v1.0/invoke/bench-target/method/test",
				"DAPRBENCH_BASELINE_URL": "http://10.244.0.7:3000/test", "DAPRBENCH_SIDECAR_URL": "http://localhost:3500",
				"DAPRBENCH_TERMINATION_LOG": "/dev/termination-log"},
			absent: []string{"DAPRBENCH_DIRECT_URL", "DAPRBENCH_PAYLOAD"},
		},
		{
			name: "a twin baseline: its Service",
			run: newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
				s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{BaselineTarget: perfv1alpha1.BaselineTwin}
			}),
			want: map[string]string{"DAPRBENCH_BASELINE_URL": "http://bench-baseline:3000/test"},
		},
		{
			name: "an IPv6 pod",
			run:  newRun(perfv1alpha1.ScenarioServiceInvocation),
			host: "fd00:10:244::7",
			want: map[string]string{"DAPRBENCH_BASELINE_URL": "http://[fd00:10:244::7]:3000/test"},
		},
		{
			name: "actors: fresh actor per call, literal body, no baseline",
			run: newRun(perfv1alpha1.ScenarioActorActivation, func(s *perfv1alpha1.PerfRunSpec) {
				s.Actors = &perfv1alpha1.ActorsSpec{ActorType: "Counter", Method: "bump"}
			}),
			want:   map[string]string{"DAPRBENCH_DAPR_URL": "http://localhost:3500/v1.0/actors/Counter/{uuid}/method/bump", "DAPRBENCH_PAYLOAD": "{}"},
			absent: []string{"DAPRBENCH_BASELINE_URL", "DAPRBENCH_PAYLOAD_BYTES"},
		},
		{
			name: "Dapr disabled: direct path, no sidecar",
			run: newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
				s.Dapr.Enabled = ptr.To(false)
				s.Load.PayloadBytes = ptr.To[int32](0)
			}),
			want:   map[string]string{"DAPRBENCH_DIRECT_URL": "http://bench-target:3000/test", "DAPRBENCH_PAYLOAD_BYTES": "0"},
			absent: []string{"DAPRBENCH_DAPR_URL", "DAPRBENCH_BASELINE_URL", "DAPRBENCH_SIDECAR_URL"},
		},
		{
			name: "explicit baseline off, literal payload",
			run: newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
				s.Baseline = ptr.To(false)
				s.Load.Payload = ptr.To(`{"k":"v"}`)
			}),
			want:   map[string]string{"DAPRBENCH_PAYLOAD": `{"k":"v"}`},
			absent: []string{"DAPRBENCH_BASELINE_URL", "DAPRBENCH_PAYLOAD_BYTES"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := envMap(LoadTesterJob(tc.run, opts, tc.host).Spec.Template.Spec.Containers[0].Env)
			for k, v := range tc.want {
				if env[k] != v {
					t.Errorf("%s = %q, want %q", k, env[k], v)
				}
			}
			for _, k := range tc.absent {
				if _, ok := env[k]; ok {
					t.Errorf("%s = %q, want absent", k, env[k])
				}
			}
		})
	}
}

// The load tester shares the node with the sidecars it measures: it gets a CPU request for
// its share of the rate unless the spec sets one, never above its own limit.
func TestLoadTesterGetsADefaultCPURequest(t *testing.T) {
	cpuOf := func(run *perfv1alpha1.PerfRun) string {
		q := LoadTesterJob(run, opts, "10.244.0.7").Spec.Template.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]
		return q.String()
	}
	if got := cpuOf(newRun(perfv1alpha1.ScenarioServiceInvocation)); got != "150m" {
		t.Errorf("1000 rps: request %s, want 150m", got)
	}
	split := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Load.QPS, s.LoadTester.Replicas = 40_000, 2
	})
	if got := cpuOf(split); got != "2" {
		t.Errorf("20000 rps per pod: request %s, want the 2 CPUs cap", got)
	}
	own := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.LoadTester.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("30m")}
	})
	if got := cpuOf(own); got != "30m" {
		t.Errorf("spec's own request: %s, want 30m kept", got)
	}
	capped := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.LoadTester.Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("120m")}
	})
	if got := cpuOf(capped); got != "120m" {
		t.Errorf("limit 120m: request %s, want the limit", got)
	}
}

// The target's and the load tester's pods score their node first, in the operator's own
// image, limited like the sidecar; the baseline twin does not.
func TestCalibrationRunsFirstUnderTheSidecarsLimit(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Target.Image = "example.com/my-app:1"
		s.Dapr.Sidecar.CPURequest = ptr.To(resource.MustParse("100m"))
	})
	for name, pod := range map[string]corev1.PodSpec{
		"target":      TargetDeployment(run, opts).Spec.Template.Spec,
		"load tester": LoadTesterJob(run, opts, "10.244.0.7").Spec.Template.Spec,
	} {
		if len(pod.InitContainers) != 1 {
			t.Fatalf("%s: init containers %+v, want the calibration", name, pod.InitContainers)
		}
		c := pod.InitContainers[0]
		lim, req := c.Resources.Limits[corev1.ResourceCPU], c.Resources.Requests[corev1.ResourceCPU]
		if c.Name != ContainerCalibrate || c.Image != opts.Image || lim.String() != "500m" || req.String() != "100m" ||
			strings.Join(c.Command, " ") != "/loadtester --calibrate=2s" || c.SecurityContext == nil {
			t.Errorf("%s: calibration %+v, want /loadtester --calibrate=2s in %s, 500m limit, 100m request, restricted", name, c, opts.Image)
		}
	}
	if n := len(BaselineDeployment(run, opts).Spec.Template.Spec.InitContainers); n != 0 {
		t.Errorf("the baseline twin has %d init containers", n)
	}
}

func TestLoadTesterJobRunsOnceWithinTheTimeout(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation)
	job := LoadTesterJob(run, opts, "10.244.0.7")
	spec := job.Spec.Template.Spec
	if *job.Spec.BackoffLimit != 0 || spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("backoffLimit %d restartPolicy %s", *job.Spec.BackoffLimit, spec.RestartPolicy)
	}
	// 10s warm-up + 2 reps x 2 variants x 1m + 5m margin.
	if got := *job.Spec.ActiveDeadlineSeconds; got != 10+240+300 {
		t.Errorf("activeDeadlineSeconds = %d", got)
	}
	c := spec.Containers[0]
	if c.TerminationMessagePolicy != corev1.TerminationMessageReadFile || c.TerminationMessagePath != TerminationLog {
		t.Errorf("termination message %s %s", c.TerminationMessagePolicy, c.TerminationMessagePath)
	}
	a := job.Spec.Template.Annotations
	if a["dapr.io/app-id"] != "bench-loadtester" || a["dapr.io/app-port"] != "" {
		t.Errorf("caller annotations = %v (no app-port for a Job-style caller)", a)
	}
	if job.Labels[LabelGeneration] != "3" || job.Spec.Template.Labels[LabelGeneration] != "3" {
		t.Error("generation label missing")
	}
}

func TestPlacement(t *testing.T) {
	for _, tc := range []struct {
		placement     perfv1alpha1.Placement
		affinity, ant int
	}{
		{perfv1alpha1.PlacementAny, 0, 0},
		{perfv1alpha1.PlacementSameNode, 1, 0},
		{perfv1alpha1.PlacementDifferentNodes, 0, 1},
	} {
		t.Run(string(tc.placement), func(t *testing.T) {
			run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
				s.Placement = tc.placement
				s.LoadTester.Affinity = &perfv1alpha1.Affinity{NodeAffinity: &perfv1alpha1.NodeAffinity{}}
			})
			aff := LoadTesterJob(run, opts, "10.244.0.7").Spec.Template.Spec.Affinity
			if aff.NodeAffinity == nil {
				t.Error("the user's own affinity was dropped")
			}
			var got, gotAnti int
			if aff.PodAffinity != nil {
				got = len(aff.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
			}
			if aff.PodAntiAffinity != nil {
				gotAnti = len(aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
			}
			if got != tc.affinity || gotAnti != tc.ant {
				t.Errorf("pod affinity terms %d, anti-affinity %d", got, gotAnti)
			}
			if run.Spec.LoadTester.Affinity.PodAffinity != nil || run.Spec.LoadTester.Affinity.PodAntiAffinity != nil {
				t.Error("the builder modified the PerfRun's spec")
			}
		})
	}
}

func TestEveryPodMeetsTheRestrictedPodSecurityStandard(t *testing.T) {
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	restricted := api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}
	for _, run := range []*perfv1alpha1.PerfRun{newRun(perfv1alpha1.ScenarioServiceInvocation), newRun(perfv1alpha1.ScenarioActorActivation)} {
		for name, tmpl := range map[string]corev1.PodTemplateSpec{
			"target":     TargetDeployment(run, opts).Spec.Template,
			"baseline":   BaselineDeployment(run, opts).Spec.Template,
			"loadtester": LoadTesterJob(run, opts, "10.244.0.7").Spec.Template,
		} {
			for _, r := range evaluator.EvaluatePod(restricted, &tmpl.ObjectMeta, &tmpl.Spec) {
				if !r.Allowed {
					t.Errorf("%s %s: %s: %s", run.Spec.Scenario, name, r.ForbiddenReason, r.ForbiddenDetail)
				}
			}
		}
	}
}

func TestDaprObjects(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioActorActivation)
	cfg := TracingConfiguration(run)
	if cfg.GetName() != "bench-tracing" || cfg.GetNamespace() != "perf" || cfg.GetKind() != "Configuration" {
		t.Errorf("configuration %s/%s %s", cfg.GetNamespace(), cfg.GetName(), cfg.GetKind())
	}
	if rate := cfg.Object["spec"].(map[string]any)["tracing"].(map[string]any)["samplingRate"]; rate != "0.25" {
		t.Errorf("samplingRate = %v", rate)
	}
	store := StateStoreComponent(run)
	spec := store.Object["spec"].(map[string]any)
	if spec["type"] != "state.in-memory" {
		t.Errorf("type = %v", spec["type"])
	}
	if md := spec["metadata"].([]any)[0].(map[string]any); md["name"] != "actorStateStore" || md["value"] != "true" {
		t.Errorf("metadata = %v", md)
	}
	if scopes := store.Object["scopes"].([]any); len(scopes) != 2 || scopes[0] != "bench-target" || scopes[1] != "bench-loadtester" {
		t.Errorf("scopes = %v", scopes)
	}
}

func TestGRPCCallerAndAppProtocols(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Protocol = perfv1alpha1.ProtocolSpec{Caller: perfv1alpha1.ProtocolGRPC, App: perfv1alpha1.ProtocolGRPC}
	})
	env := envMap(LoadTesterEnv(run, "10.244.0.7"))
	if got := env["DAPRBENCH_DAPR_URL"]; got != "dapr-grpc://localhost:50001/bench-target/test" {
		t.Errorf("dapr URL = %q, want daprd's gRPC API", got)
	}
	if got := env["DAPRBENCH_BASELINE_URL"]; got != "grpc://10.244.0.7:3001/test" {
		t.Errorf("baseline URL = %q, want the app's gRPC port", got)
	}
	a := TargetDeployment(run, opts).Spec.Template.Annotations
	if a["dapr.io/app-protocol"] != "grpc" || a["dapr.io/app-port"] != "3001" {
		t.Errorf("annotations = %v, want app-protocol grpc on port 3001", a)
	}
	if _, ok := TargetService(run).Spec.Selector[LabelVariant]; ok {
		t.Error("a run without variants selects by variant")
	}
}

func TestVariantsGetTargetsOfTheirOwn(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
		s.Variants = []perfv1alpha1.SidecarVariant{
			{Name: "release"},
			{Name: "debug", LogLevel: "debug", SidecarImage: "registry.example/daprd:dev", TracingSamplingRate: "1",
				AppProtocol: perfv1alpha1.ProtocolGRPC, Sidecar: &perfv1alpha1.SidecarSpec{MemoryLimit: ptr.To(resource.MustParse("256Mi"))},
				Annotations: map[string]string{"dapr.io/enable-api-logging": "true"}},
		}
	})
	ds := TargetDeployments(run, opts)
	if len(ds) != 2 || ds[0].Name != "bench-target" || ds[1].Name != "bench-target-debug" {
		t.Fatalf("deployments = %v", ds)
	}
	first, second := ds[0].Spec.Template.Annotations, ds[1].Spec.Template.Annotations
	if first["dapr.io/log-level"] != "warn" || first["dapr.io/config"] != "bench-tracing" || first["dapr.io/sidecar-cpu-limit"] != "500m" {
		t.Errorf("first variant = %v, want the run's own settings", first)
	}
	for k, want := range map[string]string{"dapr.io/app-id": "bench-target-debug", "dapr.io/log-level": "debug",
		"dapr.io/sidecar-image": "registry.example/daprd:dev", "dapr.io/app-protocol": "grpc", "dapr.io/app-port": "3001",
		"dapr.io/config": "bench-tracing-1", "dapr.io/sidecar-memory-limit": "256Mi", "dapr.io/enable-api-logging": "true"} {
		if second[k] != want {
			t.Errorf("second variant %s = %q, want %q", k, second[k], want)
		}
	}
	if _, ok := second["dapr.io/sidecar-cpu-limit"]; ok {
		t.Error("a variant's sidecar replaces the run's, but the run's cpu limit stayed")
	}
	// Selectors never overlap, and the direct Service picks the first variant.
	if ds[0].Spec.Selector.MatchLabels[LabelVariant] != "d" || ds[1].Spec.Selector.MatchLabels[LabelVariant] != "d1" ||
		TargetService(run).Spec.Selector[LabelVariant] != "d" {
		t.Errorf("selectors %v, %v", ds[0].Spec.Selector.MatchLabels, ds[1].Spec.Selector.MatchLabels)
	}
	confs := TracingConfigurations(run)
	if len(confs) != 2 || confs[1].GetName() != "bench-tracing-1" {
		t.Fatalf("configurations = %d", len(confs))
	}
	if rate, _, _ := unstructured.NestedString(confs[1].Object, "spec", "tracing", "samplingRate"); rate != "1" {
		t.Errorf("the variant's sampling rate = %q", rate)
	}
	env := envMap(LoadTesterEnv(run, ""))
	if env["DAPRBENCH_DAPR_URL"] != "http://localhost:3500/v1.0/invoke/bench-target/method/test" ||
		env["DAPRBENCH_VARIANT_URLS"] != "http://localhost:3500/v1.0/invoke/bench-target-debug/method/test" {
		t.Errorf("load tester URLs = %v", env)
	}
}

func TestInvokeMethodIsTheAppsOwn(t *testing.T) {
	if InvokeMethod != perfapp.InvokeMethod {
		t.Errorf("workload calls %q, the app serves %q", InvokeMethod, perfapp.InvokeMethod)
	}
}

func TestEveryPodPullsWithTheOperatorsPullSecrets(t *testing.T) {
	o := opts
	o.PullSecrets = []string{"registry-a", "registry-b"}
	run := newRun(perfv1alpha1.ScenarioServiceInvocation)
	for name, tmpl := range map[string]corev1.PodTemplateSpec{
		"target":     TargetDeployment(run, o).Spec.Template,
		"baseline":   BaselineDeployment(run, o).Spec.Template,
		"loadtester": LoadTesterJob(run, o, "10.244.0.7").Spec.Template,
	} {
		if got := tmpl.Spec.ImagePullSecrets; len(got) != 2 || got[0].Name != "registry-a" || got[1].Name != "registry-b" {
			t.Errorf("%s pulls with %v", name, got)
		}
	}
	if got := TargetDeployment(run, opts).Spec.Template.Spec.ImagePullSecrets; got != nil {
		t.Errorf("without pull secrets the target pulls with %v", got)
	}
}

// The known-answer annotation reaches the target's app only: the twin is what the baseline
// calls, and must not be held.
func TestKnownAnswerDelayReachesTheTargetOnly(t *testing.T) {
	run := newRun(perfv1alpha1.ScenarioServiceInvocation)
	run.Annotations = map[string]string{perfv1alpha1.AnnotationKnownAnswerDelay: "500us"}
	target, twin := TargetDeployment(run, opts), BaselineDeployment(run, opts)
	if args := target.Spec.Template.Spec.Containers[0].Args; !slices.Contains(args, "--dapr-delay=500µs") {
		t.Errorf("target args %v lack the delay", args)
	}
	if args := twin.Spec.Template.Spec.Containers[0].Args; slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--dapr-delay") }) {
		t.Errorf("twin args %v hold the delay", args)
	}
	for _, bad := range []string{"soon", "0s", "-1ms", "2s"} {
		run.Annotations[perfv1alpha1.AnnotationKnownAnswerDelay] = bad
		if _, err := run.KnownAnswerDelay(); err == nil || !strings.Contains(err.Error(), perfv1alpha1.AnnotationKnownAnswerDelay) {
			t.Errorf("%q: error %v, want one naming the annotation", bad, err)
		}
	}
	// Where Dapr marks nothing the app could tell apart, the knob would silently do nothing.
	for name, mutate := range map[string]func(*perfv1alpha1.PerfRunSpec){
		"actors": func(s *perfv1alpha1.PerfRunSpec) { s.Scenario = perfv1alpha1.ScenarioActorActivation },
		"four paths": func(s *perfv1alpha1.PerfRunSpec) {
			s.ServiceInvocation = &perfv1alpha1.ServiceInvocationSpec{Paths: perfv1alpha1.PathsFour}
		},
		"gRPC app": func(s *perfv1alpha1.PerfRunSpec) { s.Protocol.App = perfv1alpha1.ProtocolGRPC },
	} {
		r := newRun(perfv1alpha1.ScenarioServiceInvocation, mutate)
		r.Annotations = map[string]string{perfv1alpha1.AnnotationKnownAnswerDelay: "2ms"}
		if _, err := r.KnownAnswerDelay(); err == nil || !strings.Contains(err.Error(), "only a ServiceInvocation run") {
			t.Errorf("%s: error %v, want the knob refused", name, err)
		}
	}
}
