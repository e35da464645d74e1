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
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// teamConfiguration is a team's own Dapr Configuration: its tracing, a middleware in each
// pipeline, a preview feature on and one off, an API allowlist.
func teamConfiguration(ns, name string) *unstructured.Unstructured {
	cfg := daprObj("Configuration", ns, name)
	cfg.Object["spec"] = map[string]any{
		"tracing":         map[string]any{"samplingRate": "0.5"},
		"httpPipeline":    map[string]any{"handlers": []any{map[string]any{"name": "ratelimit", "type": "middleware.http.ratelimit"}}},
		"appHttpPipeline": map[string]any{"handlers": []any{map[string]any{"name": "upper", "type": "middleware.http.uppercase"}}},
		"features": []any{map[string]any{"name": "SchedulerReminders", "enabled": true},
			map[string]any{"name": "ServiceInvocationStreaming", "enabled": false}},
		"api": map[string]any{"allowed": []any{map[string]any{"name": "invoke", "version": "v1.0", "protocol": "http"}}},
	}
	Expect(k8sClient.Create(suiteCtx, cfg)).To(Succeed())
	return cfg
}

// daprConfigOf is the Configuration a Deployment's pods name to their sidecar injector.
func daprConfigOf(ns, name string) func() string {
	return func() string {
		d := &appsv1.Deployment{}
		if err := k8sClient.Get(suiteCtx, client.ObjectKey{Namespace: ns, Name: name}, d); err != nil {
			return ""
		}
		return d.Spec.Template.Annotations["dapr.io/config"]
	}
}

var _ = Describe("PerfRun on a Dapr Configuration the team runs", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("fails with ConfigurationNotFound, creating nothing, when the named Configuration is not in the run's namespace", func() {
		// One of that name elsewhere does not count: daprd reads it from the pod's namespace.
		teamConfiguration(newNamespace(), "appconfig")
		run := createRun(ns, "nocfg", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Configuration = "appconfig"
		})
		c := failedWith(run, perfv1alpha1.ReasonConfigurationNotFound)
		Expect(c.Message).To(ContainSubstring(`Dapr Configuration "appconfig", which does not exist in namespace "` + ns + `"`))
		Expect(exists(deployment(ns, "nocfg-target"))()).To(BeFalse())
		Expect(conditionOf(run, perfv1alpha1.ConditionDaprReady).Reason).To(Equal(perfv1alpha1.ReasonConfigurationNotFound))
	})

	It("puts every sidecar on the named Configuration, writes none of its own and records what shapes the figure", func() {
		cfg := teamConfiguration(ns, "appconfig")
		run := createRun(ns, "owncfg", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Dapr.Configuration = "appconfig"
		})
		Eventually(daprConfigOf(ns, "owncfg-target")).Should(Equal("appconfig"))
		markAvailable(ns, "owncfg-target")
		job := currentJobOf(run)
		Expect(job.Spec.Template.Annotations).To(HaveKeyWithValue("dapr.io/config", "appconfig"), "the load tester's sidecar too")
		Expect(exists(daprObj("Configuration", ns, "owncfg-tracing"))()).To(BeFalse(), "the run writes no Configuration of its own")

		Eventually(func() []perfv1alpha1.DaprConfigurationRecord {
			if env := latest(run).Status.Environment; env != nil {
				return env.DaprConfigurations
			}
			return nil
		}).Should(Equal([]perfv1alpha1.DaprConfigurationRecord{{
			Name: "appconfig", Generation: cfg.GetGeneration(), TracingSamplingRate: "0.5",
			Middleware: []string{"ratelimit (middleware.http.ratelimit)", "app: upper (middleware.http.uppercase)"},
			Features:   []string{"SchedulerReminders"}, APIAllowlist: true,
		}}))

		By("the run never writes to it")
		after := daprObj("Configuration", ns, "appconfig")
		Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(after), after)).To(Succeed())
		Expect(after.GetResourceVersion()).To(Equal(cfg.GetResourceVersion()))
		Expect(after.GetOwnerReferences()).To(BeEmpty())
	})

	It("records the Resiliencies that apply to its sidecars: unscoped or scoped to one of its app ids, not one scoped to other apps", func() {
		resiliency := func(name string, scopes []any, targets map[string]any, timeouts ...string) *unstructured.Unstructured {
			r := daprObj("Resiliency", ns, name)
			if scopes != nil {
				r.Object["scopes"] = scopes
			}
			policies := map[string]any{"short": "50ms"}
			for _, t := range timeouts {
				policies[t] = "1s"
			}
			r.Object["spec"] = map[string]any{
				"policies": map[string]any{"timeouts": policies,
					"retries": map[string]any{"DaprBuiltInServiceRetries": map[string]any{"policy": "constant", "duration": "5ms", "maxRetries": int64(2)}}},
				"targets": targets,
			}
			Expect(k8sClient.Create(suiteCtx, r)).To(Succeed())
			return r
		}
		team := resiliency("team-wide", nil, map[string]any{
			"components": map[string]any{"statestore": map[string]any{"outbound": map[string]any{"timeout": "short"}}},
			"apps":       map[string]any{"orders": map[string]any{"timeout": "short"}, "billing": map[string]any{"timeout": "short"}},
		}, "DefaultAppTimeoutPolicy")
		mine := resiliency("for-the-target", []any{"other-app", "res-target"}, map[string]any{
			"apps": map[string]any{"res-target": map[string]any{"timeout": "short"}},
		})
		resiliency("elsewhere", []any{"other-app"}, map[string]any{"apps": map[string]any{"res-target": map[string]any{"timeout": "short"}}})

		run := createRun(ns, "res", perfv1alpha1.ScenarioServiceInvocation)
		Eventually(func() []perfv1alpha1.DaprResiliencyRecord {
			if env := latest(run).Status.Environment; env != nil {
				return env.DaprResiliencies
			}
			return nil
		}).Should(Equal([]perfv1alpha1.DaprResiliencyRecord{
			{Name: "for-the-target", Generation: mine.GetGeneration(), Scopes: []string{"res-target"},
				Targets: []string{"app res-target", "built-in DaprBuiltInServiceRetries"}},
			{Name: "team-wide", Generation: team.GetGeneration(),
				Targets: []string{"app billing", "app orders", "component statestore", "default DefaultAppTimeoutPolicy", "built-in DaprBuiltInServiceRetries"}},
		}))
		env := latest(run).Status.Environment
		Expect(env.DescribeResiliencies("")).To(HavePrefix("for-the-target (generation 1): scoped to res-target; targets app res-target, built-in DaprBuiltInServiceRetries; "))
		Expect(env.DescribeResiliencies("res")).To(HavePrefix("for-the-target (generation 1): scoped to the run's target; "), "compare's form, without the run's name")
	})

	It("compares two Configurations as two variants, each sidecar on its own, the run's own Configuration beside", func() {
		teamConfiguration(ns, "with-middleware")
		run := createRun(ns, "cfgab", perfv1alpha1.ScenarioServiceInvocation, func(s *perfv1alpha1.PerfRunSpec) {
			s.Variants = []perfv1alpha1.SidecarVariant{{Name: "plain"}, {Name: "mw", Configuration: "with-middleware"}}
		})
		Eventually(daprConfigOf(ns, "cfgab-target")).Should(Equal("cfgab-tracing"))
		Eventually(daprConfigOf(ns, "cfgab-target-mw")).Should(Equal("with-middleware"))
		Eventually(func() []string {
			var out []string
			if env := latest(run).Status.Environment; env != nil {
				for _, c := range env.DaprConfigurations {
					out = append(out, c.Name+" owned="+map[bool]string{true: "yes", false: "no"}[c.OwnedByRun]+" rate="+c.TracingSamplingRate+" variants="+strings.Join(c.Variants, ","))
				}
			}
			return out
		}).Should(Equal([]string{"cfgab-tracing owned=yes rate=0.1 variants=plain", "with-middleware owned=no rate=0.5 variants=mw"}))
	})
})
