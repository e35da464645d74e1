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

package doctor

import (
	"context"
	"os"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/config/rbac"
	"github.com/daprbench/daprbench/internal/operator/rbacscope"
	"github.com/daprbench/daprbench/internal/testenv"
)

// The doctor is tested against a real API server (envtest, with Dapr's CRDs), whose cluster
// the tests build up row by row: each check is seen failing, then passing once its cause
// is fixed. envtest runs no controllers: a Deployment's status and a node are written here.

var (
	k8s     client.Client
	disco   discovery.DiscoveryInterface
	restCfg *rest.Config
	scheme  = runtime.NewScheme()
)

func TestMain(m *testing.M) {
	env, err := testenv.New(true)
	if err != nil {
		panic(err)
	}
	cfg, err := env.Start()
	if err != nil {
		panic(err)
	}
	restCfg = cfg
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := perfv1alpha1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if k8s, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		panic(err)
	}
	if disco, err = discovery.NewDiscoveryClientForConfig(cfg); err != nil {
		panic(err)
	}
	code := m.Run()
	_ = env.Stop()
	os.Exit(code)
}

func create(t *testing.T, obj client.Object) {
	t.Helper()
	if err := k8s.Create(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
}

// deployment creates a Deployment of one container and marks it Available, as the
// Deployment controller would.
func deployment(t *testing.T, ns, name string, labels map[string]string, image string, args ...string) *appsv1.Deployment {
	t.Helper()
	create(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager", Image: image, Args: args}}}}}}
	create(t, d)
	d.Status = appsv1.DeploymentStatus{Replicas: 1, ReadyReplicas: 1, AvailableReplicas: 1,
		Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue}}}
	if err := k8s.Status().Update(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	return d
}

func node(t *testing.T, name, cpu string) {
	t.Helper()
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	create(t, n)
	n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("16Gi"),
		corev1.ResourcePods: resource.MustParse("110")}
	n.Status.Capacity = n.Status.Allocatable
	if err := k8s.Status().Update(context.Background(), n); err != nil {
		t.Fatal(err)
	}
}

// rows runs the doctor for namespace ns and returns each check by name.
func rows(t *testing.T, ns string) (Report, map[string]Check) {
	t.Helper()
	r := Run(context.Background(), Cluster{Client: k8s, Discovery: disco, Namespace: ns, PluginVersion: "v0.2.0"})
	by := map[string]Check{}
	for _, c := range r.Checks {
		by[c.Name] = c
		t.Logf("%-16s %-4s %s | %s", c.Name, c.Status, c.Detail, c.Fix)
	}
	return r, by
}

func expect(t *testing.T, by map[string]Check, name string, status Status, detail string) {
	t.Helper()
	c, ok := by[name]
	if !ok {
		t.Fatalf("no %s row", name)
	}
	if c.Status != status || !strings.Contains(c.Detail, detail) {
		t.Errorf("%s: %s %q, want %s with %q", name, c.Status, c.Detail, status, detail)
	}
	if c.Status == Fail && c.Fix == "" {
		t.Errorf("%s fails without a fix", name)
	}
}

// One cluster, built up: every row fails first for its own reason, then passes.
func TestDoctorRowByRow(t *testing.T) {
	ns := "perf"
	create(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})

	report, by := rows(t, ns)
	expect(t, by, "kubernetes", Pass, "Kubernetes v1.")
	expect(t, by, "crds", Pass, "perfruns, perfschedules, perfsweeps served")
	expect(t, by, "operator", Fail, "no Deployment labelled app.kubernetes.io/name=daprbench")
	expect(t, by, "dapr", Fail, "no sidecar injector")
	expect(t, by, "metrics-api", Fail, "metrics.k8s.io/v1beta1 is not served")
	expect(t, by, "admission", Pass, "the smoke sample is admitted in perf")
	expect(t, by, "fit", Fail, "no nodes")
	expect(t, by, "quota", Pass, "no ResourceQuota")
	if report.Failed() == 0 {
		t.Fatal("a cluster without an operator passes")
	}

	By := func(what string) { t.Log("== " + what) }
	By("the operator, running benchmarks in another namespace only, with the chart's kubeletCounters=false")
	deployment(t, "daprbench-system", "daprbench-controller-manager", map[string]string{"app.kubernetes.io/name": "daprbench", "app.kubernetes.io/component": "manager"},
		"ghcr.io/daprbench/daprbench:v0.1.0", "--watch-namespaces=team-a", "--kubelet-counters=false", "--dapr-namespace=dapr-system")
	_, by = rows(t, ns)
	expect(t, by, "operator", Pass, "daprbench-system/daprbench-controller-manager available, image ghcr.io/daprbench/daprbench:v0.1.0")
	expect(t, by, "versions", Warn, "plugin v0.2.0, operator v0.1.0: they differ")
	expect(t, by, "namespace", Fail, "the operator runs benchmarks in team-a only")
	if fix := by["namespace"].Fix; !strings.Contains(fix, `rbac.namespaces=["team-a","perf"]`) {
		t.Errorf("the namespace fix keeps the operator's namespaces: %s", fix)
	}
	expect(t, by, "kubelet-counters", Warn, "off")

	By("Dapr 1.10, then 1.16 with mTLS off")
	injector := deployment(t, "dapr-system", "dapr-sidecar-injector", map[string]string{"app": "dapr-sidecar-injector"}, "ghcr.io/dapr/dapr:1.10.4")
	_, by = rows(t, ns)
	expect(t, by, "dapr", Fail, "Dapr 1.10.4 in dapr-system is older than 1.11")
	expect(t, by, "mtls", Pass, "enabled (no Configuration dapr-system/daprsystem: Dapr's default)")
	injector.Spec.Template.Spec.Containers[0].Image = "ghcr.io/dapr/dapr:1.16.0"
	if err := k8s.Update(context.Background(), injector); err != nil {
		t.Fatal(err)
	}
	system := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "dapr.io/v1alpha1", "kind": "Configuration",
		"metadata": map[string]any{"name": "daprsystem", "namespace": "dapr-system"}, "spec": map[string]any{"mtls": map[string]any{"enabled": false, "controlPlaneTrustDomain": "cluster.local", "sentryAddress": "dapr-sentry.dapr-system.svc:443"}}}}
	create(t, system)
	_, by = rows(t, ns)
	expect(t, by, "dapr", Pass, "Dapr 1.16.0 in dapr-system")
	expect(t, by, "mtls", Warn, "disabled")

	By("a node too small for the smoke sample's pods, then one with room; a quota too small")
	node(t, "tiny", "50m")
	_, by = rows(t, ns)
	expect(t, by, "fit", Fail, "the smoke sample: the ")
	node(t, "roomy", "4")
	create(t, &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "small"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("100m")}}})
	_, by = rows(t, ns)
	expect(t, by, "fit", Pass, "fits a node (2 nodes)")
	expect(t, by, "quota", Fail, "ResourceQuota small leaves 100m of requests.cpu")

	By("a namespace that does not exist")
	_, by = rows(t, "nowhere")
	expect(t, by, "namespace", Fail, "namespace nowhere does not exist")
}

// The rows envtest cannot fail: an old API server, and one without daprbench's kinds.
func TestDoctorOnAnOldClusterWithoutTheCRDs(t *testing.T) {
	fake := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}, FakedServerVersion: &version.Info{Major: "1", Minor: "28+", GitVersion: "v1.28.9-eks-1"}}
	c := Cluster{Discovery: fake}
	if got := kubernetesVersion(c); got.Status != Fail || !strings.Contains(got.Detail, "v1.28.9-eks-1 is older than 1.29") {
		t.Errorf("kubernetes 1.28: %+v", got)
	}
	fake.Resources = []*metav1.APIResourceList{{GroupVersion: "perf.daprbench.io/v1alpha1", APIResources: []metav1.APIResource{{Name: "perfruns"}}}}
	if got := crdsServed(c); got.Status != Fail || got.Detail != "perfschedules.perf.daprbench.io, perfsweeps.perf.daprbench.io not served at perf.daprbench.io/v1alpha1" {
		t.Errorf("two CRDs missing: %+v", got)
	}
	fake.FakedServerVersion = &version.Info{Major: "1", Minor: "29", GitVersion: "v1.29.0"}
	if got := kubernetesVersion(c); got.Status != Pass {
		t.Errorf("kubernetes 1.29: %+v", got)
	}
}

// A tenant who may only run benchmarks in their namespace cannot read the operator or Dapr's
// control plane: doctor says it cannot tell (warn), never that the cluster is broken.
func TestDoctorAsATenantWhoMayOnlyRunBenchmarks(t *testing.T) {
	ns := "tenant-a"
	create(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	create(t, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "perfrun-editor"},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{"perf.daprbench.io"}, Resources: []string{"perfruns"}, Verbs: []string{"create", "get", "list", "watch"}}}})
	create(t, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "tenant"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "perfrun-editor"},
		Subjects: []rbacv1.Subject{{Kind: "User", APIGroup: "rbac.authorization.k8s.io", Name: "tenant"}}})
	cfg := rest.CopyConfig(restCfg)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "tenant"}
	tenant, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	tenantDisco, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := Run(context.Background(), Cluster{Client: tenant, Discovery: tenantDisco, Namespace: ns, PluginVersion: "v0.2.0"})
	by := map[string]Check{}
	for _, c := range r.Checks {
		by[c.Name] = c
		t.Logf("%-16s %-4s %s | %s", c.Name, c.Status, c.Detail, c.Fix)
	}
	expect(t, by, "operator", Warn, "cannot tell: cannot list Deployments in any namespace")
	expect(t, by, "dapr", Warn, "cannot tell its version")
	expect(t, by, "admission", Pass, "the smoke sample is admitted in tenant-a")
	expect(t, by, "crds", Pass, "served")
}

// A Deployment anyone may create can carry the operator's labels. doctor reads the operator
// where it is installed, names one found elsewhere as unsure, and never pastes its flags'
// text into the command it suggests: a --watch-namespaces that is a shell command is not a
// namespace.
func TestDoctorDoesNotTrustALookAlikeOperator(t *testing.T) {
	ctx := context.Background()
	labels := map[string]string{"app.kubernetes.io/name": "daprbench", "app.kubernetes.io/component": "manager"}
	injection := `--watch-namespaces=team-a,x"]'; touch /tmp/pwned; echo '`
	// Sorted first: today's code took the first Deployment so labelled in any namespace.
	deployment(t, "a-lookalike", "daprbench-controller-manager", labels, "example.com/not-daprbench:v9", injection)
	ns := "perf-lookalike"
	create(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})

	var real appsv1.Deployment
	switch err := k8s.Get(ctx, client.ObjectKey{Namespace: DefaultOperatorNamespace, Name: "daprbench-controller-manager"}, &real); {
	case apierrors.IsNotFound(err): // this test alone: the operator as TestDoctorRowByRow installs it
		deployment(t, DefaultOperatorNamespace, "daprbench-controller-manager", labels, "ghcr.io/daprbench/daprbench:v0.1.0", "--watch-namespaces=team-a")
	case err != nil:
		t.Fatal(err)
	}
	_, by := rows(t, ns)
	expect(t, by, "operator", Pass, DefaultOperatorNamespace+"/daprbench-controller-manager available")
	if fix := by["namespace"].Fix; strings.Contains(fix, "touch") || !strings.Contains(fix, `'rbac.namespaces=["team-a","perf-lookalike"]'`) {
		t.Errorf("the namespace fix is the installed operator's: %s", fix)
	}

	// Told to read the look-alike (or finding only it): its text never reaches the command.
	r := Run(ctx, Cluster{Client: k8s, Discovery: disco, Namespace: ns, OperatorNamespace: "a-lookalike", PluginVersion: "v0.2.0"})
	for _, c := range r.Checks {
		if c.Name == "namespace" {
			if strings.Contains(c.Fix, "touch") || strings.Contains(c.Fix, `x"]`) || !strings.Contains(c.Detail, "1 more of its --watch-namespaces cannot be namespaces") {
				t.Errorf("the look-alike's flags: %s | %s", c.Detail, c.Fix)
			}
		}
	}
	if err := k8s.Delete(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: DefaultOperatorNamespace, Name: "daprbench-controller-manager"}}); err != nil {
		t.Fatal(err)
	}
	_, by = rows(t, ns)
	expect(t, by, "operator", Warn, "found in namespace a-lookalike, not daprbench-system, by its labels alone")
	deployment(t, "b-lookalike", "manager", labels, "example.com/not-daprbench:v9")
	_, by = rows(t, ns)
	expect(t, by, "operator", Warn, "2 Deployments carry the operator's labels (a-lookalike/daprbench-controller-manager, b-lookalike/manager)")
}

// A namespace the operator serves by its flag can still have lost the chart's Role (deleted
// and created again): doctor asks, by access reviews as the operator's ServiceAccount,
// whether it holds its rights there, and names what is missing until the Role is back.
func TestDoctorChecksTheOperatorsRightsInTheNamespace(t *testing.T) {
	ns, opNS := "perf-rights", "ops-rights"
	create(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	deployment(t, opNS, "daprbench-controller-manager", map[string]string{"app.kubernetes.io/name": "daprbench", "app.kubernetes.io/component": "manager"},
		"ghcr.io/daprbench/daprbench:v0.2.0", "--watch-namespaces="+ns)
	check := func() Check {
		r := Run(context.Background(), Cluster{Client: k8s, Discovery: disco, Namespace: ns, OperatorNamespace: opNS, PluginVersion: "v0.2.0"})
		for _, c := range r.Checks {
			if c.Name == "operator-rights" {
				t.Logf("%s %s | %s", c.Status, c.Detail, c.Fix)
				return c
			}
		}
		t.Fatalf("no operator-rights row: %+v", r.Checks)
		return Check{}
	}
	if c := check(); c.Status != Fail || !strings.Contains(c.Detail, "ops-rights/default may not") ||
		!strings.Contains(c.Detail, "create deployments.apps") || !strings.Contains(c.Fix, "helm upgrade daprbench charts/daprbench -n ops-rights") {
		t.Errorf("no Role in %s: %+v, want a failure naming the missing rights and the fix", ns, c)
	}

	rules, err := rbac.ManagerRules()
	if err != nil {
		t.Fatal(err)
	}
	create(t, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "daprbench-manager-role"}, Rules: rbacscope.Split(rules).Namespaced})
	create(t, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "daprbench-manager-rolebinding"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "daprbench-manager-role"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "default", Namespace: opNS}}})
	if c := check(); c.Status != Pass || !strings.Contains(c.Detail, "holds the") {
		t.Errorf("with the chart's Role: %+v, want a pass", c)
	}
}
