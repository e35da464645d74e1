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
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/testenv"
)

// operatorUser is the operator's identity as config/policy names it (the kustomize
// install's ServiceAccount); the chart's test holds its template to the release's.
const operatorUser = "system:serviceaccount:daprbench-system:daprbench-controller-manager"

// userClient is a client authenticated as name, with every right RBAC can give: an
// admission policy applies to every user alike.
func userClient(name string) client.Client {
	u, err := testEnv.AddUser(envtest.User{Name: name, Groups: []string{"system:masters"}}, restConfig)
	Expect(err).NotTo(HaveOccurred())
	c, err := client.New(u.Config(), client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// installPolicy applies one of config/policy's ValidatingAdmissionPolicies as shipped,
// bound to namespace ns alone (so the suite's manager and the other specs keep creating
// objects elsewhere), and waits until the API server enforces it: until enforced() is true.
func installPolicy(file, ns string, enforced func() bool) *admissionregistrationv1.ValidatingAdmissionPolicy {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "policy", file))
	Expect(err).NotTo(HaveOccurred())
	policy := &admissionregistrationv1.ValidatingAdmissionPolicy{}
	Expect(yaml.Unmarshal([]byte(strings.Split(string(b), "\n---\n")[0]), policy)).To(Succeed())
	policy.Name = policy.Name + "-" + ns
	binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: policy.Name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: policy.Name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
			MatchResources: &admissionregistrationv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}}}},
	}
	for _, obj := range []client.Object{policy, binding} {
		Expect(k8sClient.Create(suiteCtx, obj)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(suiteCtx, obj))).To(Succeed()) })
	}
	Eventually(enforced).Should(BeTrue(), "the policy %s is not enforced", file)
	return policy
}

// installOwnedRunsPolicy installs owned-runs.yaml, enforced once a forged run is refused.
func installOwnedRunsPolicy(ns string, tenant client.Client, forged func() *perfv1alpha1.PerfRun) {
	policy := installPolicy("owned-runs.yaml", ns, func() bool {
		return apierrors.IsForbidden(tenant.Create(suiteCtx, forged(), client.DryRunAll))
	})
	Expect(policy.Spec.MatchConditions[0].Expression).To(ContainSubstring(operatorUser))
}

// A schedule's history and a sweep's points are the runs they control: only the operator
// may put a run under their controller reference or stamp a schedule's time on it.
var _ = Describe("The owned-runs admission policy", Serial, func() {
	It("refuses a schedule's or a sweep's run, or its scheduled time, from anyone but the operator", func() {
		ns := newNamespace()
		tenant, operator := userClient("tenant-with-perfrun-rights"), userClient(operatorUser)
		under := func(kind string) metav1.OwnerReference {
			return metav1.OwnerReference{APIVersion: perfv1alpha1.GroupVersion.String(), Kind: kind, Name: "nightly",
				UID: types.UID("6d1f6a52-0000-4000-8000-00000000000" + kind[len(kind)-1:]), Controller: ptr.To(true)}
		}
		newRun := func(name string, mutate ...func(*perfv1alpha1.PerfRun)) *perfv1alpha1.PerfRun {
			run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
				Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 10},
					Exclusive: ptr.To(false)}}
			for _, m := range mutate {
				m(run)
			}
			return run
		}
		owned := func(kind string) func(*perfv1alpha1.PerfRun) {
			return func(r *perfv1alpha1.PerfRun) { r.OwnerReferences = []metav1.OwnerReference{under(kind)} }
		}
		stamped := func(r *perfv1alpha1.PerfRun) {
			r.Annotations = map[string]string{perfv1alpha1.AnnotationScheduledTime: "2026-11-25T03:00:00Z"}
		}
		installOwnedRunsPolicy(ns, tenant, func() *perfv1alpha1.PerfRun { return newRun("probe", owned("PerfSchedule")) })

		labelled := func(r *perfv1alpha1.PerfRun) { r.Labels = map[string]string{perfv1alpha1.LabelSchedule: "nightly"} }
		hashed := func(r *perfv1alpha1.PerfRun) {
			r.Annotations = map[string]string{perfv1alpha1.AnnotationTemplateHash: "5f2c9a"}
		}
		for name, forged := range map[string]*perfv1alpha1.PerfRun{
			"a schedule's run":   newRun("forged-slot", owned("PerfSchedule")),
			"a sweep's point":    newRun("forged-point", owned("PerfSweep")),
			"a scheduled time":   newRun("forged-time", stamped),
			"a schedule's label": newRun("forged-label", labelled),
			"a template's hash":  newRun("forged-hash", hashed),
		} {
			err := tenant.Create(suiteCtx, forged)
			Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%s: %v", name, err)
			Expect(err.Error()).To(ContainSubstring("only the daprbench operator may"), name)
		}
		// The group and kind in another case are the same reference.
		shouted := newRun("shouted", owned("PerfSchedule"))
		shouted.OwnerReferences[0].APIVersion, shouted.OwnerReferences[0].Kind = "PERF.daprbench.io/v1alpha1", "perfschedule"
		Expect(apierrors.IsForbidden(tenant.Create(suiteCtx, shouted))).To(BeTrue(), "a reference in another case")
		// A run of the tenant's own is admitted, and cannot be made a schedule's later: not by
		// adding the reference, nor by turning a reference of another kind with the schedule's
		// UID into the schedule's.
		own := newRun("own")
		Expect(tenant.Create(suiteCtx, own)).To(Succeed())
		own.OwnerReferences = []metav1.OwnerReference{under("PerfSchedule")}
		Expect(apierrors.IsForbidden(tenant.Update(suiteCtx, own))).To(BeTrue(), "an owner reference added by update")
		decoy := under("PerfSchedule")
		decoy.APIVersion, decoy.Kind = "x.example/v1", "Decoy"
		disguised := newRun("disguised", func(r *perfv1alpha1.PerfRun) { r.OwnerReferences = []metav1.OwnerReference{decoy} })
		Expect(tenant.Create(suiteCtx, disguised)).To(Succeed(), "a reference of another group is not the policy's")
		disguised.OwnerReferences[0].APIVersion, disguised.OwnerReferences[0].Kind = perfv1alpha1.GroupVersion.String(), "PerfSchedule"
		Expect(apierrors.IsForbidden(tenant.Update(suiteCtx, disguised))).To(BeTrue(), "a copied UID turned into the schedule's")

		// The operator creates the schedule's run; anyone may then edit it without touching
		// what the operator set, and may orphan it (as the garbage collector does).
		scheduled := newRun("nightly-29412180", owned("PerfSchedule"), stamped)
		Expect(operator.Create(suiteCtx, scheduled)).To(Succeed())
		scheduled.Labels = map[string]string{"team": "payments"}
		Expect(tenant.Update(suiteCtx, scheduled)).To(Succeed(), "an edit that keeps the operator's references")
		scheduled.Annotations[perfv1alpha1.AnnotationScheduledTime] = "2026-11-24T03:00:00Z"
		Expect(apierrors.IsForbidden(tenant.Update(suiteCtx, scheduled))).To(BeTrue(), "a scheduled time rewritten")
		Expect(tenant.Get(suiteCtx, client.ObjectKeyFromObject(scheduled), scheduled)).To(Succeed())
		// A calibration hold on a run the schedule judges: refused; on a run of one's own: admitted.
		scheduled.Annotations[perfv1alpha1.AnnotationKnownAnswerDelay] = "3ms"
		err := tenant.Update(suiteCtx, scheduled)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "a known-answer hold added to a schedule's run: %v", err)
		Expect(err.Error()).To(ContainSubstring("may not carry it"))
		Expect(tenant.Get(suiteCtx, client.ObjectKeyFromObject(scheduled), scheduled)).To(Succeed())
		held := newRun("held", func(r *perfv1alpha1.PerfRun) {
			r.Annotations = map[string]string{perfv1alpha1.AnnotationKnownAnswerDelay: "3ms"}
		})
		Expect(tenant.Create(suiteCtx, held)).To(Succeed(), "a known answer in a run of its own")
		scheduled.OwnerReferences = nil
		Expect(tenant.Update(suiteCtx, scheduled)).To(Succeed(), "orphaning a run")
	})
})

// A schedule's or a sweep's template labels every run it makes: a label Kubernetes would
// refuse on the run is refused on the schedule or sweep when it is applied, naming the field,
// and a valid twin is admitted. (The CRDs cannot afford this grammar in CEL.)
var _ = Describe("The template-labels admission policy", Serial, func() {
	It("refuses a template label Kubernetes would refuse on the runs, and admits its valid twin", func() {
		ns := newNamespace()
		schedule := func(name string, labels map[string]string) client.Object {
			return &perfv1alpha1.PerfSchedule{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Spec: perfv1alpha1.PerfScheduleSpec{
				Schedule: "0 3 * * *", Suspend: true, Template: perfv1alpha1.PerfRunTemplate{
					Metadata: perfv1alpha1.TemplateMetadata{Labels: labels},
					Spec:     perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 10}}}}}
		}
		sweep := func(name string, labels map[string]string) client.Object {
			return &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Spec: perfv1alpha1.PerfSweepSpec{
				Points: &perfv1alpha1.SweepPoints{Connections: []int32{1, 2}}, Template: perfv1alpha1.PerfRunTemplate{
					Metadata: perfv1alpha1.TemplateMetadata{Labels: labels},
					Spec:     perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 10}}}}}
		}
		refusal := func(obj client.Object) error { return k8sClient.Create(suiteCtx, obj, client.DryRunAll) }
		// Admitted before the policy existed: it can still be edited, until its labels are.
		older := schedule("older", map[string]string{"not a key!": "x"})
		Expect(k8sClient.Create(suiteCtx, older)).To(Succeed())
		installPolicy("template-labels.yaml", ns, func() bool {
			return apierrors.IsInvalid(refusal(schedule("probe", map[string]string{"not a key!": "x"})))
		})
		edit := func(mutate func(*perfv1alpha1.PerfSchedule)) error {
			var err error
			for range 10 { // the schedule's controller writes its status meanwhile: a stale read conflicts
				s := &perfv1alpha1.PerfSchedule{}
				Expect(k8sClient.Get(suiteCtx, client.ObjectKeyFromObject(older), s)).To(Succeed())
				mutate(s)
				if err = k8sClient.Update(suiteCtx, s, client.DryRunAll); !apierrors.IsConflict(err) {
					return err
				}
			}
			return err
		}
		Expect(edit(func(s *perfv1alpha1.PerfSchedule) { s.Spec.Schedule = "0 4 * * *" })).To(Succeed(), "an edit that leaves the labels")
		Expect(apierrors.IsInvalid(edit(func(s *perfv1alpha1.PerfSchedule) {
			s.Spec.Template.Metadata.Labels = map[string]string{"still not a key!": "x"}
		}))).To(BeTrue(), "an edit to another bad label")
		for _, c := range []struct {
			bad, good map[string]string
			words     string
		}{
			{map[string]string{"not a key!": "x"}, map[string]string{"team": "x"}, "a key must be a qualified name"},
			{map[string]string{"-team": "x"}, map[string]string{"team-a": "x"}, "a key must be a qualified name"},
			{map[string]string{"Example.com/team": "x"}, map[string]string{"example.com/team": "x"}, "a key must be a qualified name"},
			{map[string]string{strings.Repeat("k", 64): "x"}, map[string]string{strings.Repeat("k", 63): "x"}, "a key must be a qualified name"},
			{map[string]string{"team": "a b"}, map[string]string{"team": "a_b"}, "a value must be empty or"},
			{map[string]string{"team": "-x"}, map[string]string{"team": ""}, "a value must be empty or"},
		} {
			for _, build := range []func(string, map[string]string) client.Object{schedule, sweep} {
				err := refusal(build("bad", c.bad))
				Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v admitted: %v", c.bad, err)
				Expect(err.Error()).To(And(ContainSubstring("spec.template.metadata.labels"), ContainSubstring(c.words)))
				Expect(refusal(build("good", c.good))).To(Succeed(), "the valid twin %v", c.good)
			}
		}
	})
})
