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
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/config"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// tenantClient is a client acting as a ServiceAccount of ns that holds only the chart's
// PerfRun editor rights there, as a platform team would grant a team.
func tenantClient(ns string) client.Client {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "tenant", Namespace: ns}}
	Expect(k8sClient.Create(ctx, sa)).To(Succeed())
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "tenant-perfruns", Namespace: ns},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "daprbench-perfrun-editor-role"},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa.Name, Namespace: ns}}}
	Expect(k8sClient.Create(ctx, binding)).To(Succeed())
	cfg, err := config.GetConfig()
	Expect(err).NotTo(HaveOccurred())
	cfg = rest.CopyConfig(cfg)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + ns + ":tenant"}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// Issue #34, findings 3 and 7, on the chart's default (namespaced) install: what a team
// that may only create PerfRuns in its namespace cannot do to the cluster or other teams.
var _ = Describe("A tenant with only PerfRun rights", func() {
	It("can neither land load on nodes the platform team did not open nor pin a run beside another team's exclusive one", func() {
		mine, theirs := newNamespace(), newNamespace()
		tenant := tenantClient(mine)
		By("the tenant holds PerfRun rights only")
		Expect(apierrors.IsForbidden(tenant.Create(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: mine}}))).To(BeTrue())

		By("a toleration the platform team did not list fails before anything is created")
		tolerating := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "on-control-plane", Namespace: mine},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 50},
				Dapr: perfv1alpha1.DaprSpec{Enabled: ptr.To(false)},
				LoadTester: perfv1alpha1.LoadTesterSpec{WorkloadSpec: perfv1alpha1.WorkloadSpec{Tolerations: []corev1.Toleration{
					{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}}}}}
		Expect(tenant.Create(ctx, tolerating)).To(Succeed())
		Eventually(phase(tolerating), 30*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		Expect(meta.FindStatusCondition(get(tolerating).Status.Conditions, perfv1alpha1.ConditionFailed).Reason).To(Equal(perfv1alpha1.ReasonPlacementNotAllowed))
		Consistently(children(tolerating), 5*time.Second).Should(BeZero())

		By("another team's exclusive run measures; the tenant's shared run aimed at its node waits for it")
		holder := directRun(theirs, "holder", func(s *perfv1alpha1.PerfRunSpec) {
			s.Load.QPS, s.Load.Connections = 50, 2
			// Long enough to be measuring while the tenant's run is created and queued behind it.
			s.Load.Duration = &metav1.Duration{Duration: 20 * time.Second}
		})
		Eventually(phase(holder), 3*time.Minute).Should(Equal(perfv1alpha1.PhaseRunning), func() string { return describe(holder) })
		node := get(holder).Status.Environment.TargetNode
		Expect(node).NotTo(BeEmpty())
		pinned := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "pinned", Namespace: mine},
			Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Exclusive: ptr.To(false),
				Dapr: perfv1alpha1.DaprSpec{Enabled: ptr.To(false)},
				Load: perfv1alpha1.LoadSpec{QPS: 200, Connections: 8, Repetitions: 1,
					Duration: &metav1.Duration{Duration: 10 * time.Second}, Warmup: &metav1.Duration{Duration: 2 * time.Second}},
				Target:     perfv1alpha1.WorkloadSpec{NodeSelector: map[string]string{"kubernetes.io/hostname": node}},
				LoadTester: perfv1alpha1.LoadTesterSpec{WorkloadSpec: perfv1alpha1.WorkloadSpec{NodeSelector: map[string]string{"kubernetes.io/hostname": node}}}}}
		Expect(tenant.Create(ctx, pinned)).To(Succeed())
		queued := func() string {
			c := meta.FindStatusCondition(get(pinned).Status.Conditions, perfv1alpha1.ConditionQueued)
			if c == nil || c.Status != metav1.ConditionTrue {
				return ""
			}
			return c.Message
		}
		Eventually(queued, 2*time.Minute).Should(ContainSubstring("waiting for a run of another namespace (measuring on a node this run may use)"), func() string { return describe(pinned) })
		Expect(queued()).NotTo(Or(ContainSubstring("holder"), ContainSubstring(theirs), ContainSubstring(node)), "nothing of the other team is named")

		expectSucceeded(holder, 4*time.Minute)
		expectSucceeded(pinned, 4*time.Minute)
		Expect(get(pinned).Status.QueueWait).NotTo(BeNil())
		Expect(get(pinned).Status.QueueWait.Duration).To(BeNumerically(">", 0), "it waited for the other team's run")
	})
})
