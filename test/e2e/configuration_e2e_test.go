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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Dapr's configuration API against a real Redis the run deploys: the baseline writes the
// items as configuration.redis keeps them and reads them with go-redis, the load tester's
// own daprd reads the same items through a configuration.redis Component. A functional check
// at a low rate, short, of the scenario built on the registry alone (#61). It rides on the
// State spec (state_e2e_test.go): both runs are shared (exclusive: false) and measure at once,
// so the suite pays for one store's start, not two.

// startConfigurationRun creates the Configuration run beside another shared run in ns.
func startConfigurationRun(ns string) *perfv1alpha1.PerfRun {
	return daprRun(ns, "cfg", perfv1alpha1.ScenarioConfiguration, configurationQPS, func(s *perfv1alpha1.PerfRunSpec) {
		s.Configuration = &perfv1alpha1.ConfigurationSpec{Keys: 50}
		s.Load.Duration, s.Load.Warmup = &metav1.Duration{Duration: 15 * time.Second}, &metav1.Duration{Duration: 2 * time.Second}
		s.Load.Connections = 4
		s.Exclusive = ptr.To(false)
	})
}

const configurationQPS = 100

// expectConfigurationMeasured checks the Configuration run measured both paths, every read
// finding its item, and that cleanup removed its store and Component.
func expectConfigurationMeasured(ns string, run *perfv1alpha1.PerfRun) {
	expectClaimed(run, 4*time.Minute)
	st := get(run).Status
	res := resultOf(run)
	GinkgoWriter.Printf("store %s\nconfiguration get: dapr %s\nbaseline %s\nadded %s\n", st.Environment.Store,
		summary(res.Latency), summary(res.Baseline), summary(res.Added))
	Expect(st.Environment.Store).To(Equal("cfg-configstore (configuration.redis, deployed by the run) at cfg-store:6379"))
	expectActualQPS(res, configurationQPS)
	Expect(res.Errors).To(BeZero(), "every read found its item: %v", res.ReturnCodes)
	Expect(res.ReturnCodes).To(HaveKeyWithValue("200", res.Requests))
	for name, l := range map[string]*perfv1alpha1.LatencySummary{"dapr": res.Latency, "baseline": res.Baseline, "added": res.Added} {
		Expect(l).NotTo(BeNil(), name)
		Expect(l.P50).NotTo(BeNil(), name)
		Expect(l.P99).NotTo(BeNil(), name)
	}
	// A read through daprd (HTTP in, Redis's protocol out) costs more than go-redis's own GET
	// of the same item: the interval lies above zero at the median.
	Expect(res.AddedInterval).NotTo(BeNil())
	Expect(res.AddedInterval.Low.P50.Duration).To(BeNumerically(">", 0))
	expectDaprdCost(res, "clientSidecar", 1, 0)

	By("cleanup removes the Configuration run's store and its Component")
	Eventually(func() bool {
		return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "cfg-store"}, &appsv1.Deployment{}))
	}, time.Minute).Should(BeTrue())
	component := &unstructured.Unstructured{}
	component.SetGroupVersionKind(workload.ComponentGVK)
	Eventually(func() bool {
		return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "cfg-configstore"}, component))
	}, time.Minute).Should(BeTrue())
}
