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
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/rbacscope"
	"github.com/daprbench/daprbench/internal/testenv"
)

// The Helm chart's namespaced mode grants the manager what rbacscope.Split places: a
// smaller ClusterRole, a Role in each namespace it runs benchmarks in and a read-only Role
// in Dapr's control-plane namespace. The manager, run as a user holding exactly those
// rights (the API server enforces RBAC), syncs its cache and takes a run from creation to
// Succeeded and cleanup; a run in another namespace fails NamespaceNotWatched.
var _ = Describe("The manager in the namespaced RBAC mode", Serial, func() {
	It("runs benchmarks with only its namespaces' Roles, and refuses a run elsewhere", func() {
		watched, other := newNamespace(), newNamespace()
		const user = "daprbench-namespaced"
		authenticated, err := testEnv.AddUser(envtest.User{Name: user}, restConfig)
		Expect(err).NotTo(HaveOccurred())
		grantSplitRules(user, watched)

		stopManager()
		stopManager = startManagerAs(authenticated.Config(), []string{watched})
		DeferCleanup(func() {
			stopManager()
			stopManager = startManager()
		})

		run := createRun(watched, "scoped", perfv1alpha1.ScenarioServiceInvocation)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseProvisioning))
		markAvailable(watched, "scoped-target")
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseRunning))
		startLoad(run)
		finishLoad(run, result.Summary{RequestedQPS: 1000, Runs: []result.Run{
			summaryRun(result.Baseline, 0, 600), summaryRun(result.Dapr, 0, 1000)}}, true)
		Eventually(phaseOf(run)).Should(Equal(perfv1alpha1.PhaseSucceeded))
		Eventually(exists(deployment(watched, "scoped-target"))).Should(BeFalse(), "cleanup deletes the target")

		elsewhere := createRun(other, "elsewhere", perfv1alpha1.ScenarioServiceInvocation)
		Eventually(phaseOf(elsewhere)).Should(Equal(perfv1alpha1.PhaseFailed))
		msg := failedWith(elsewhere, perfv1alpha1.ReasonNamespaceNotWatched).Message
		Expect(msg).To(ContainSubstring(`does not run benchmarks in namespace "` + other + `"`))
		Expect(msg).NotTo(ContainSubstring(watched), "the namespaces it serves are other teams' names")
		Expect(exists(deployment(other, "elsewhere-target"))()).To(BeFalse())

		By("a served namespace that lost the manager's Role (deleted and created again) fails its runs at once, naming what is missing")
		for _, obj := range []client.Object{&rbacv1.RoleBinding{}, &rbacv1.Role{}} {
			obj.SetNamespace(watched)
			obj.SetName(user)
			Expect(k8sClient.Delete(suiteCtx, obj)).To(Succeed())
		}
		stranded := createRun(watched, "stranded", perfv1alpha1.ScenarioServiceInvocation)
		Eventually(phaseOf(stranded), 20*time.Second).Should(Equal(perfv1alpha1.PhaseFailed))
		msg = failedWith(stranded, perfv1alpha1.ReasonOperatorForbidden).Message
		Expect(msg).To(And(ContainSubstring("the operator may not"), ContainSubstring("create deployments.apps"),
			ContainSubstring(`in namespace "`+watched+`"`), ContainSubstring("helm upgrade")))
		Expect(exists(deployment(watched, "stranded-target"))()).To(BeFalse())
	})
})

// grantSplitRules gives user the namespaced mode's rights: the manager's ClusterRole
// (controller-gen's, from the markers) split by rbacscope, with the Role in ns.
func grantSplitRules(user, ns string) {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "rbac", "role.yaml"))
	Expect(err).NotTo(HaveOccurred())
	var role rbacv1.ClusterRole
	Expect(yaml.Unmarshal(b, &role)).To(Succeed())
	scopes := rbacscope.Split(role.Rules)
	subjects := []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: user}}
	create := func(objs ...client.Object) {
		for _, obj := range objs {
			Expect(k8sClient.Create(suiteCtx, obj)).To(Succeed())
			DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(suiteCtx, obj))).To(Succeed()) })
		}
	}
	name := metav1.ObjectMeta{Name: user}
	create(&rbacv1.ClusterRole{ObjectMeta: name, Rules: scopes.Cluster},
		&rbacv1.ClusterRoleBinding{ObjectMeta: name, Subjects: subjects,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: user}})
	for namespace, rules := range map[string][]rbacv1.PolicyRule{ns: scopes.Namespaced, "dapr-system": scopes.ControlPlane} {
		meta := metav1.ObjectMeta{Name: user, Namespace: namespace}
		create(&rbacv1.Role{ObjectMeta: meta, Rules: rules},
			&rbacv1.RoleBinding{ObjectMeta: meta, Subjects: subjects,
				RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: user}})
	}
}
