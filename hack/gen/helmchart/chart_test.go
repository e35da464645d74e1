//go:build chart

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

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/daprbench/daprbench/internal/testenv"
)

// The chart and the kustomize build must install the same objects. Run by `make test-chart`
// (HELM and KUSTOMIZE name the pinned binaries it builds).

func tool(t *testing.T, env, fallback string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		bin = filepath.Join(testenv.RepoRoot(), "bin", fallback)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s: %v (run the test with `make test-chart`, which builds it)", fallback, err)
	}
	return bin
}

func render(t *testing.T, name string, args ...string) map[string]map[string]any {
	t.Helper()
	objects := map[string]map[string]any{}
	for _, obj := range renderList(t, name, args...) {
		objects[obj["kind"].(string)+"/"+obj["metadata"].(map[string]any)["name"].(string)] = obj
	}
	return objects
}

// renderList runs a renderer and returns its objects in order, app.kubernetes.io/managed-by
// normalised (kustomize and Helm each write their own).
func renderList(t *testing.T, name string, args ...string) []map[string]any {
	t.Helper()
	return renderObjects(t, true, name, args...)
}

// minKubeVersion is Chart.yaml's kubeVersion bound. helm template assumes Kubernetes 1.20
// (its offline default), which the chart refuses: every render says the oldest it supports.
const minKubeVersion = "1.29.0"

// helmArgs adds --kube-version to a helm template that does not choose one.
func helmArgs(name string, args []string) []string {
	if filepath.Base(name) == "helm" && len(args) > 0 && args[0] == "template" && !slices.Contains(args, "--kube-version") {
		return append(append([]string{}, args...), "--kube-version", minKubeVersion)
	}
	return args
}

func renderObjects(t *testing.T, normalise bool, name string, args ...string) []map[string]any {
	t.Helper()
	cmd := exec.Command(name, helmArgs(name, args)...)
	cmd.Dir = testenv.RepoRoot()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, errOut.String())
	}
	var objects []map[string]any
	for _, doc := range strings.Split(out.String(), "\n---") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		if obj == nil || obj["kind"] == "Namespace" {
			continue // the release's namespace, made by --create-namespace
		}
		meta := obj["metadata"].(map[string]any)
		if labels, ok := meta["labels"].(map[string]any); ok && labels["app.kubernetes.io/managed-by"] != nil && normalise {
			labels["app.kubernetes.io/managed-by"] = "(installer)" // kustomize, or Helm
		}
		objects = append(objects, obj)
	}
	return objects
}

// standardLabels are the labels the chart puts on every object it makes (templates/_helpers.tpl's
// daprbench.labels and each template's component); TestChartStandardLabelsOnEveryObject
// checks them.
var standardLabels = []string{"helm.sh/chart", "app.kubernetes.io/name", "app.kubernetes.io/instance",
	"app.kubernetes.io/version", "app.kubernetes.io/managed-by", "app.kubernetes.io/component"}

// withoutChartOnlyMetadata returns a copy of the chart's object h without the metadata only a
// chart gives: a standard label the kustomize object k does not carry (helm.sh/chart,
// instance and version always; name, managed-by and component on the objects config/ leaves
// without them, such as controller-gen's manager-role and the CRDs), and Helm's
// helm.sh/resource-policy annotation. A standard label both carry must still be equal
// (managed-by is normalised by renderList), and every other label and field is compared.
func withoutChartOnlyMetadata(h, k map[string]any) map[string]any {
	h = deepCopy(h)
	meta := h["metadata"].(map[string]any)
	kMeta := k["metadata"].(map[string]any)
	kLabels, _ := kMeta["labels"].(map[string]any)
	if labels, ok := meta["labels"].(map[string]any); ok {
		for _, l := range standardLabels {
			if _, inKustomize := kLabels[l]; !inKustomize {
				delete(labels, l)
			}
		}
		if len(labels) == 0 && kLabels == nil {
			delete(meta, "labels")
		}
	}
	if annotations, ok := meta["annotations"].(map[string]any); ok {
		delete(annotations, "helm.sh/resource-policy")
		if len(annotations) == 0 && kMeta["annotations"] == nil {
			delete(meta, "annotations")
		}
	}
	return h
}

func deepCopy(obj map[string]any) map[string]any {
	b, err := yaml.Marshal(obj)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := yaml.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

func compare(t *testing.T, helm, kustomize map[string]map[string]any) {
	t.Helper()
	for key, k := range kustomize {
		if strings.HasPrefix(key, "ValidatingAdmissionPolicy") {
			// kustomize's schema does not know these kinds are cluster-scoped and gives them
			// its namespace, which the API server drops; the chart writes none.
			delete(k["metadata"].(map[string]any), "namespace")
		}
		h, ok := helm[key]
		if !ok {
			t.Errorf("the chart lacks %s", key)
			continue
		}
		if h = withoutChartOnlyMetadata(h, k); !reflect.DeepEqual(h, k) {
			hy, _ := yaml.Marshal(h)
			ky, _ := yaml.Marshal(k)
			t.Errorf("%s differs\n--- chart:\n%s\n--- kustomize:\n%s", key, hy, ky)
		}
	}
	for key := range helm {
		if _, ok := kustomize[key]; !ok {
			t.Errorf("the chart has %s, kustomize does not", key)
		}
	}
}

func TestChartInstallsWhatKustomizeDoes(t *testing.T) {
	helm, kustomize := tool(t, "HELM", "helm"), tool(t, "KUSTOMIZE", "kustomize")
	// The CRDs are templates (crds.install, on by default): no --include-crds.
	chart := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "daprbench-system",
		"--set", "image.repository=daprbench", "--set", "image.tag=dev",
		// kustomize's install: cluster-wide, the kubelet's counters, no namespace bound
		"--set", "rbac.namespaced=false", "--set", "kubeletCounters=true", "--set", "maxRunsPerNamespace=0",
		// a cluster that serves admission policies (Kubernetes 1.30+)
		"--kube-version", "1.31.0", "--api-versions", "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy")
	compare(t, chart, render(t, kustomize, "build", "config/default"))
	if len(chart) < 10 {
		t.Errorf("only %d objects rendered", len(chart))
	}
}

// On a cluster that does not serve ValidatingAdmissionPolicy (Kubernetes 1.29, which the
// chart allows) the chart installs without its policy rather than failing; where it is
// served, the policy exempts exactly the release's ServiceAccount.
func TestChartInstallsTheOwnedRunsPolicyWhereTheClusterServesIt(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	for _, obj := range renderList(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf") {
		if kind := obj["kind"].(string); strings.HasPrefix(kind, "ValidatingAdmissionPolicy") {
			t.Errorf("a cluster without admission policies is given a %s", kind)
		}
	}
	var account, exemption string
	for _, obj := range renderList(t, helm, "template", "bench", "charts/daprbench", "--namespace", "perf", "--kube-version", "1.31.0",
		"--api-versions", "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy") {
		switch obj["kind"] {
		case "ServiceAccount":
			account = obj["metadata"].(map[string]any)["name"].(string)
		case "ValidatingAdmissionPolicy":
			if conditions := obj["spec"].(map[string]any)["matchConditions"]; conditions != nil { // owned-runs exempts the operator
				b, _ := yaml.Marshal(conditions)
				exemption = string(b)
			}
		}
	}
	if want := "'system:serviceaccount:perf:" + account + "'"; account == "" || !strings.Contains(exemption, want) {
		t.Errorf("the policy's exemption %q is not the release's ServiceAccount %s", exemption, want)
	}
}

func TestChartMonitoringMatchesThePrometheusComponent(t *testing.T) {
	helm, kustomize := tool(t, "HELM", "helm"), tool(t, "KUSTOMIZE", "kustomize")
	chart := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "daprbench-system",
		"--show-only", "templates/metrics.yaml", "--show-only", "templates/servicemonitor.yaml", "--show-only", "templates/prometheusrule.yaml",
		"--show-only", "templates/metrics-scraper.yaml", "--set", "serviceMonitor.enabled=true", "--set", "prometheusRule.enabled=true")
	dir := t.TempDir()
	component, err := filepath.Rel(dir, filepath.Join(testenv.RepoRoot(), "config", "prometheus"))
	if err != nil {
		t.Fatal(err)
	}
	// The metrics-reader ClusterRole too, so that the scraper's binding refers to it by its
	// prefixed name as in config/default's build (it is compared there, not here).
	reader := filepath.Join(component, "..", "rbac", "metrics_reader_role.yaml")
	overlay := "namespace: daprbench-system\nnamePrefix: daprbench-\nresources:\n- " + reader + "\ncomponents:\n- " + component + "\n"
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	built := render(t, kustomize, "build", "--load-restrictor=LoadRestrictionsNone", dir)
	if _, ok := built["ClusterRole/daprbench-metrics-reader"]; !ok {
		t.Fatal("the overlay built no metrics-reader ClusterRole")
	}
	delete(built, "ClusterRole/daprbench-metrics-reader")
	compare(t, chart, built)
	if _, ok := chart["Secret/daprbench-metrics-scraper-token"]; !ok {
		t.Error("the ServiceMonitor's token Secret is not compared")
	}
}

func TestChartValuesReachTheManager(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	out := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf", "--show-only", "templates/deployment.yaml",
		"--set", "image.repository=registry.example/daprbench", "--set", "image.tag=1.2.3", "--set", "usageInterval=10s",
		"--set", "leaderElection=false", "--set-json", `extraArgs=["--poll-interval=2s"]`, "--set", "resources.limits.cpu=1",
		"--set-json", `allowedLoadTesterImagePrefixes=["registry.example/bench","quay.io/x"]`, "--set", "preflightFit=false",
		"--set", "redisImage=registry.example/redis:7")
	b, _ := yaml.Marshal(out["Deployment/daprbench-controller-manager"])
	for _, want := range []string{"image: registry.example/daprbench:1.2.3", "value: registry.example/daprbench:1.2.3",
		"--usage-interval=10s", "--poll-interval=2s", "cpu: 1\n", "namespace: perf",
		"--allowed-load-tester-image-prefixes=registry.example/bench,quay.io/x", "--preflight-fit=false", "--redis-image=registry.example/redis:7"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the Deployment lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), "--leader-elect") {
		t.Error("leaderElection=false still passes --leader-elect")
	}
	pinned := render(t, helm, "template", "daprbench", "charts/daprbench", "--show-only", "templates/deployment.yaml",
		"--set", "image.repository=registry.example/daprbench", "--set", "image.digest=sha256:0123")
	b, _ = yaml.Marshal(pinned["Deployment/daprbench-controller-manager"])
	if strings.Count(string(b), "registry.example/daprbench@sha256:0123") != 2 {
		t.Errorf("a digest pins neither the manager nor the runs' image:\n%s", b)
	}
}

// The manager creates its runs' token Secrets and never reads one, in either mode: a
// Secret's name is the API server's, recorded in the run's status, so no existence check
// needs secrets get (Dapr's sentry keys are Secrets too).
func TestChartNeverLetsTheManagerReadASecret(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	for _, mode := range [][]string{{"--set", "rbac.namespaced=false"}, {"--set", "rbac.namespaces={team-a}"}} {
		objects := renderList(t, helm, append([]string{"template", "daprbench", "charts/daprbench", "--namespace", "perf"}, mode...)...)
		granted := 0
		for _, obj := range objects {
			if obj["kind"] != "ClusterRole" && obj["kind"] != "Role" {
				continue
			}
			rules, _ := obj["rules"].([]any)
			for _, r := range rules {
				rule := r.(map[string]any)
				resources, _ := rule["resources"].([]any)
				for _, res := range resources {
					if res != "secrets" {
						continue
					}
					granted++
					if verbs, _ := rule["verbs"].([]any); len(verbs) != 1 || verbs[0] != "create" {
						t.Errorf("%v: %s %v grants secrets %v, want create only", mode, obj["kind"], obj["metadata"].(map[string]any)["name"], verbs)
					}
				}
			}
		}
		if granted == 0 {
			t.Errorf("%v: no role lets the manager create its runs' token Secrets", mode)
		}
	}
}

// In the namespaced mode nothing cluster-wide lets the manager touch a pod, a Secret or a
// workload: those rights come from a Role in each listed namespace, and the manager is told
// which namespaces those are.
func TestChartNamespacedModeGrantsWorkloadRightsOnlyInItsNamespaces(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	objects := renderList(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf",
		"--set", "rbac.namespaces={team-a,team-b}", "--set", "daprNamespace=dapr")
	roles := map[string][]string{} // namespace → Role names
	for _, obj := range objects {
		meta := obj["metadata"].(map[string]any)
		b, _ := yaml.Marshal(obj["rules"])
		switch obj["kind"] {
		case "ClusterRole":
			for _, forbidden := range []string{"secrets", "pods", "jobs", "deployments", "serviceaccounts", "networkpolicies", "components", "delete", "nodes/proxy"} {
				if strings.Contains(string(b), "- "+forbidden+"\n") && meta["name"] != "daprbench-perfrun-editor-role" {
					t.Errorf("ClusterRole %s grants %s:\n%s", meta["name"], forbidden, b)
				}
			}
		case "Role":
			ns := meta["namespace"].(string)
			roles[ns] = append(roles[ns], meta["name"].(string))
			if meta["name"] == "daprbench-control-plane-reader" && (strings.Contains(string(b), "- create") || strings.Contains(string(b), "- patch")) {
				t.Errorf("the control plane's Role writes:\n%s", b)
			}
		case "Deployment":
			d, _ := yaml.Marshal(obj)
			for _, want := range []string{"--watch-namespaces=team-a,team-b", "--dapr-namespace=dapr", "--kubelet-counters=false", "--max-runs-per-namespace=10"} {
				if !strings.Contains(string(d), want) {
					t.Errorf("the manager is not told %s:\n%s", want, d)
				}
			}
		}
	}
	want := map[string][]string{"perf": {"daprbench-leader-election-role"}, "team-a": {"daprbench-manager-role"},
		"team-b": {"daprbench-manager-role"}, "dapr": {"daprbench-control-plane-reader"}}
	if fmt.Sprint(roles) != fmt.Sprint(want) {
		t.Errorf("Roles by namespace %v, want %v", roles, want)
	}
}

// Deleting Dapr's control-plane pods is every tenant's outage: the namespaced mode grants it
// in Dapr's namespace, and the manager is told it may, only with faults.allowControlPlane.
func TestChartLetsTheManagerTakeTheControlPlaneDownOnlyWhenAllowed(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	args := []string{"template", "daprbench", "charts/daprbench", "--namespace", "perf", "--set", "rbac.namespaces={team-a}", "--set", "daprNamespace=dapr"}
	off := render(t, helm, args...)
	if _, ok := off["Role/daprbench-control-plane-killer"]; ok {
		t.Error("the default install may delete Dapr's control-plane pods")
	}
	if d, _ := yaml.Marshal(off["Deployment/daprbench-controller-manager"]); strings.Contains(string(d), "--allow-control-plane-faults") {
		t.Error("the default install passes --allow-control-plane-faults")
	}
	on := render(t, helm, append(args, "--set", "faults.allowControlPlane=true")...)
	role, ok := on["Role/daprbench-control-plane-killer"]
	if !ok {
		t.Fatal("faults.allowControlPlane=true grants no pod deletion in Dapr's namespace")
	}
	meta := role["metadata"].(map[string]any)
	if b, _ := yaml.Marshal(role["rules"]); meta["namespace"] != "dapr" || string(b) != "- apiGroups:\n  - \"\"\n  resources:\n  - pods\n  verbs:\n  - delete\n" {
		t.Errorf("the killer Role in %v grants\n%s", meta["namespace"], b)
	}
	if d, _ := yaml.Marshal(on["Deployment/daprbench-controller-manager"]); !strings.Contains(string(d), "--allow-control-plane-faults") {
		t.Error("faults.allowControlPlane=true does not reach the manager")
	}
}

// The kubelet's API (nodes/proxy) is granted only when asked for, in a ClusterRole of its
// own, and the platform team's lists reach the manager.
func TestChartGrantsTheKubeletsAPIOnlyWithKubeletCounters(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	off := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf")
	if _, ok := off["ClusterRole/daprbench-kubelet-reader"]; ok {
		t.Error("the default install grants nodes/proxy")
	}
	clusterWide := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf", "--set", "rbac.namespaced=false")
	if b, _ := yaml.Marshal(clusterWide["ClusterRole/daprbench-manager-role"]); !strings.Contains(string(b), "pods/log") || strings.Contains(string(b), "nodes/proxy") {
		t.Errorf("the cluster-wide mode without kubeletCounters grants nodes/proxy, or lost pods/log:\n%s", b)
	}
	on := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf", "--set", "kubeletCounters=true",
		"--set-json", `placement={"allowedTolerations":["bench"],"allowedNodeLabels":["pool"]}`, "--set-json", `allowedStateStores=["redis"]`, "--set", "allowNamedTopics=true",
		"--set", "maxSchedulerHeldBytes=16777216")
	role, ok := on["ClusterRole/daprbench-kubelet-reader"]
	if !ok {
		t.Fatal("kubeletCounters=true grants no kubelet reader")
	}
	if b, _ := yaml.Marshal(role["rules"]); string(b) != "- apiGroups:\n  - \"\"\n  resources:\n  - nodes/proxy\n  verbs:\n  - get\n" {
		t.Errorf("the kubelet reader grants\n%s", b)
	}
	d, _ := yaml.Marshal(on["Deployment/daprbench-controller-manager"])
	for _, want := range []string{"--allowed-tolerations=bench", "--allowed-node-labels=pool", "--allowed-state-stores=redis", "--allow-named-topics",
		"--max-scheduler-held-bytes=16777216"} {
		if !strings.Contains(string(d), want) {
			t.Errorf("the manager is not told %s", want)
		}
	}
	if strings.Contains(string(d), "--kubelet-counters") {
		t.Error("kubeletCounters=true still passes --kubelet-counters=false")
	}
}

// The values a Kubernetes user expects of a chart reach the manager's pod, and the run's
// pull secrets reach the manager as a flag.
func TestChartPodValuesAndDashboard(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	out := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf",
		"--set-json", `imagePullSecrets=[{"name":"regcred"},{"name":"mirror"}]`, "--set", "podLabels.team=perf",
		"--set", "podAnnotations.note=bench", "--set", "priorityClassName=high", "--set", "grafanaDashboard.enabled=true")
	b, _ := yaml.Marshal(out["Deployment/daprbench-controller-manager"])
	for _, want := range []string{"team: perf", "note: bench", "priorityClassName: high", "- name: regcred", "- name: mirror",
		"--image-pull-secrets=regcred,mirror"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the Deployment lacks %q:\n%s", want, b)
		}
	}
	cm := out["ConfigMap/daprbench-grafana-dashboard"]
	if cm == nil {
		t.Fatal("grafanaDashboard.enabled=true renders no dashboard ConfigMap")
	}
	if labels := cm["metadata"].(map[string]any)["labels"].(map[string]any); labels["grafana_dashboard"] != "1" {
		t.Errorf("dashboard labels %v: Grafana's sidecar looks for grafana_dashboard: \"1\"", labels)
	}
	dashboard, _ := os.ReadFile(filepath.Join(testenv.RepoRoot(), "config", "grafana", "daprbench-dashboard.json"))
	if got := cm["data"].(map[string]any)["daprbench-dashboard.json"]; strings.TrimSpace(got.(string)) != strings.TrimSpace(string(dashboard)) {
		t.Error("the ConfigMap's dashboard is not config/grafana's")
	}
}

// values.schema.json refuses a value of the wrong type and a misspelt key before anything
// is rendered.
func TestChartSchemaRefusesBadValues(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	for _, args := range [][]string{{"--set", "networkPolicies=yes"}, {"--set", "imagee.tag=x"}, {"--set", "metrics.port=http"}} {
		cmd := exec.Command(helm, helmArgs(helm, append([]string{"template", "daprbench", "charts/daprbench"}, args...))...)
		cmd.Dir = testenv.RepoRoot()
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "schema") && !strings.Contains(string(out), "want") {
			t.Errorf("helm template %v: err %v\n%s", args, err, out)
		}
	}
}

// everything renders every optional object of the chart (both RBAC modes' extras included via
// kubeletCounters), for the tests that look at all of them.
var everything = []string{"--set", "metrics.service.enabled=true", "--set", "serviceMonitor.enabled=true",
	"--set", "prometheusRule.enabled=true", "--set", "grafanaDashboard.enabled=true", "--set", "kubeletCounters=true"}

func helmTemplate(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	return renderObjects(t, false, tool(t, "HELM", "helm"), append([]string{"template", "rel", "charts/daprbench", "--namespace", "perf"}, args...)...)
}

func metadata(obj map[string]any) (name string, labels map[string]any) {
	meta := obj["metadata"].(map[string]any)
	labels, _ = meta["labels"].(map[string]any)
	return meta["name"].(string), labels
}

// serviceAccountRefs returns every place an object names the manager's ServiceAccount: its
// own name, the bindings' subjects and the Deployment's serviceAccountName.
func serviceAccountRefs(t *testing.T, obj map[string]any) []string {
	t.Helper()
	var refs []string
	if name, _ := metadata(obj); strings.HasSuffix(name, "-metrics-scraper") {
		return nil // the ServiceMonitor's own ServiceAccount and its binding
	}
	switch obj["kind"] {
	case "ServiceAccount":
		name, _ := metadata(obj)
		refs = append(refs, name)
	case "RoleBinding", "ClusterRoleBinding":
		for _, s := range obj["subjects"].([]any) {
			if s := s.(map[string]any); s["kind"] == "ServiceAccount" {
				refs = append(refs, s["name"].(string))
			}
		}
	case "Deployment":
		spec := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
		refs = append(refs, spec["serviceAccountName"].(string))
	}
	return refs
}

// chartMetadata is Chart.yaml's.
type chartMetadata struct {
	Version, AppVersion, Home, Icon string
	Sources                         []string
	Maintainers                     []struct{ Name, Email, URL string }
	Annotations                     map[string]string
}

func readChart(t *testing.T) chartMetadata {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "charts", "daprbench", "Chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta chartMetadata
	if err := yaml.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	return meta
}

// managerImages returns the manager's image and the runs' (DAPRBENCH_IMAGE) as rendered.
func managerImages(t *testing.T, args ...string) (manager, runs string) {
	t.Helper()
	objects := helmTemplate(t, append([]string{"--show-only", "templates/deployment.yaml"}, args...)...)
	if len(objects) != 1 {
		t.Fatalf("%d objects, want the Deployment", len(objects))
	}
	spec := objects[0]["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	c := spec["containers"].([]any)[0].(map[string]any)
	for _, e := range c["env"].([]any) {
		if e := e.(map[string]any); e["name"] == "DAPRBENCH_IMAGE" {
			runs, _ = e["value"].(string)
		}
	}
	return c["image"].(string), runs
}

// The chart's default image is the one a release publishes (hack/release/release.sh: the
// image $REGISTRY/daprbench, the registry ghcr.io/<the repository's owner>, daprbench's), at
// the chart's appVersion, which the release sets to its version; image.tag and image.digest
// override it. Artifact Hub's artifacthub.io/images names the same image.
func TestChartDefaultImageIsTheReleasesImage(t *testing.T) {
	meta := readChart(t)
	const published = "ghcr.io/daprbench/daprbench"
	release, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "hack", "release", "release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"registry=${REGISTRY:-ghcr.io/${GITHUB_REPOSITORY_OWNER:-daprbench}}", "image=$registry/daprbench",
		`"$HELM" package "$stage/daprbench" --version "$version" --app-version "$version"`} {
		if !strings.Contains(string(release), line) {
			t.Errorf("hack/release/release.sh no longer says %q: is %s:<version> still what a release publishes?", line, published)
		}
	}
	want := published + ":" + meta.AppVersion
	if manager, runs := managerImages(t); manager != want || runs != want {
		t.Errorf("the default image: manager %s, runs %s; want %s", manager, runs, want)
	}
	if manager, runs := managerImages(t, "--set", "image.repository=localhost:5000/daprbench", "--set", "image.tag=dev"); manager != "localhost:5000/daprbench:dev" || runs != manager {
		t.Errorf("image.repository and image.tag: manager %s, runs %s", manager, runs)
	}
	if manager, _ := managerImages(t, "--set", "image.tag=1.2.3", "--set", "image.digest=sha256:0123"); manager != published+"@sha256:0123" {
		t.Errorf("a digest does not pin the default repository: %s", manager)
	}
	var images []struct{ Name, Image string }
	if err := yaml.Unmarshal([]byte(meta.Annotations["artifacthub.io/images"]), &images); err != nil || len(images) != 1 || images[0].Image != want {
		t.Errorf("artifacthub.io/images %+v (%v), want [{daprbench %s}]", images, err, want)
	}
}

// Chart.yaml says what Artifact Hub and Helm users look for: its sources, an icon that
// exists in the repository, maintainers, and the Artifact Hub annotations, the CRDs and
// their examples equal to what the chart installs and config/samples holds.
func TestChartMetadataForArtifactHub(t *testing.T) {
	meta := readChart(t)
	if !slices.Contains(meta.Sources, meta.Home) {
		t.Errorf("sources %v lack the project's home %s", meta.Sources, meta.Home)
	}
	const raw = "https://raw.githubusercontent.com/daprbench/daprbench/main/"
	if icon, ok := strings.CutPrefix(meta.Icon, raw); !ok || !strings.HasSuffix(icon, ".svg") {
		t.Errorf("icon %q: want an SVG under %s", meta.Icon, raw)
	} else if _, err := os.Stat(filepath.Join(testenv.RepoRoot(), filepath.FromSlash(icon))); err != nil {
		t.Errorf("icon %s: %v", meta.Icon, err)
	}
	if len(meta.Maintainers) == 0 || meta.Maintainers[0].Name == "" {
		t.Errorf("maintainers %+v", meta.Maintainers)
	}
	if meta.Annotations["artifacthub.io/operator"] != "true" || meta.Annotations["artifacthub.io/license"] != "Apache-2.0" {
		t.Errorf("annotations operator %q, license %q", meta.Annotations["artifacthub.io/operator"], meta.Annotations["artifacthub.io/license"])
	}

	installed := map[string]map[string]any{} // kind → CRD
	for _, obj := range helmTemplate(t) {
		if obj["kind"] == "CustomResourceDefinition" {
			installed[obj["spec"].(map[string]any)["names"].(map[string]any)["kind"].(string)] = obj
		}
	}
	var crds []struct{ Kind, Version, Name, DisplayName, Description string }
	if err := yaml.Unmarshal([]byte(meta.Annotations["artifacthub.io/crds"]), &crds); err != nil || len(crds) != len(installed) {
		t.Fatalf("artifacthub.io/crds lists %d CRDs (%v), the chart installs %d", len(crds), err, len(installed))
	}
	for _, c := range crds {
		crd, ok := installed[c.Kind]
		if !ok {
			t.Errorf("artifacthub.io/crds lists %s, which the chart does not install", c.Kind)
			continue
		}
		versions, _ := yaml.Marshal(crd["spec"].(map[string]any)["versions"])
		if name, _ := metadata(crd); c.Name != name || c.Description == "" || !strings.Contains(string(versions), "name: "+c.Version+"\n") {
			t.Errorf("artifacthub.io/crds' %s: name %s, version %s (the CRD: %s)", c.Kind, c.Name, c.Version, name)
		}
	}

	samples := map[string]map[string]any{} // kind/name → sample
	files, _ := filepath.Glob(filepath.Join(testenv.RepoRoot(), "config", "samples", "*.yaml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(b, &obj); err != nil {
			t.Fatal(err)
		}
		if kind, ok := obj["kind"].(string); ok && kind != "Kustomization" {
			name, _ := metadata(obj)
			samples[kind+"/"+name] = obj
		}
	}
	var examples []map[string]any
	if err := yaml.Unmarshal([]byte(meta.Annotations["artifacthub.io/crdsExamples"]), &examples); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, ex := range examples {
		name, _ := metadata(ex)
		key := fmt.Sprint(ex["kind"]) + "/" + name
		kinds[fmt.Sprint(ex["kind"])] = true
		if sample, ok := samples[key]; !ok || !reflect.DeepEqual(sample, ex) {
			t.Errorf("artifacthub.io/crdsExamples' %s is not config/samples' (run make manifests)", key)
		}
	}
	for kind := range installed {
		if !kinds[kind] {
			t.Errorf("artifacthub.io/crdsExamples has no %s", kind)
		}
	}
}

// fullnameOverride names every object the chart makes (but the CRDs, whose names are their
// API's), what the bindings refer to, and the ServiceAccount everything binds and runs as.
func TestChartFullnameOverrideNamesEverything(t *testing.T) {
	for _, mode := range [][]string{{"--set", "rbac.namespaced=true"}, {"--set", "rbac.namespaced=false"}} {
		objects := helmTemplate(t, append(append([]string{"--set", "fullnameOverride=bench"}, everything...), mode...)...)
		var accounts int
		for _, obj := range objects {
			name, _ := metadata(obj)
			if obj["kind"] != "CustomResourceDefinition" && !strings.HasPrefix(name, "bench-") {
				t.Errorf("%v: %s %s does not follow fullnameOverride", mode, obj["kind"], name)
			}
			if ref, ok := obj["roleRef"].(map[string]any); ok && !strings.HasPrefix(ref["name"].(string), "bench-") {
				t.Errorf("%v: %s %s binds %s", mode, obj["kind"], name, ref["name"])
			}
			for _, sa := range serviceAccountRefs(t, obj) {
				accounts++
				if sa != "bench-controller-manager" {
					t.Errorf("%v: %s %s names ServiceAccount %s, want bench-controller-manager", mode, obj["kind"], name, sa)
				}
			}
		}
		if accounts < 4 { // the ServiceAccount, two bindings and the Deployment at least
			t.Errorf("%v: only %d references to the ServiceAccount", mode, accounts)
		}
	}
}

// serviceAccount.create=false renders no ServiceAccount, and every binding and the manager use
// the one given; without a name the render fails instead of binding "default".
func TestChartBringYourOwnServiceAccount(t *testing.T) {
	for _, mode := range []string{"rbac.namespaced=true", "rbac.namespaced=false"} {
		var refs int
		for _, obj := range helmTemplate(t, "--set", mode, "--set", "kubeletCounters=true",
			"--set", "serviceAccount.create=false", "--set", "serviceAccount.name=team-bench") {
			if obj["kind"] == "ServiceAccount" {
				t.Errorf("%s: serviceAccount.create=false renders a ServiceAccount", mode)
			}
			for _, sa := range serviceAccountRefs(t, obj) {
				refs++
				if name, _ := metadata(obj); sa != "team-bench" {
					t.Errorf("%s: %s %s names ServiceAccount %s, want team-bench", mode, obj["kind"], name, sa)
				}
			}
		}
		if refs < 3 { // two bindings and the Deployment at least
			t.Errorf("%s: only %d references to the ServiceAccount", mode, refs)
		}
	}
	helm := tool(t, "HELM", "helm")
	cmd := exec.Command(helm, helmArgs(helm, []string{"template", "rel", "charts/daprbench", "--set", "serviceAccount.create=false"})...)
	cmd.Dir = testenv.RepoRoot()
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "serviceAccount.name") {
		t.Errorf("serviceAccount.create=false without a name: err %v\n%s", err, out)
	}
	for _, obj := range helmTemplate(t, "--set", "serviceAccount.name=named", "--set", "serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn=arn:x") {
		if obj["kind"] == "ServiceAccount" {
			name, _ := metadata(obj)
			annotations, _ := obj["metadata"].(map[string]any)["annotations"].(map[string]any)
			if name != "named" || annotations["eks.amazonaws.com/role-arn"] != "arn:x" {
				t.Errorf("ServiceAccount %s, annotations %v", name, annotations)
			}
		}
	}
}

// kube-prometheus-stack's Prometheus selects ServiceMonitors and PrometheusRules by its
// release label: the chart's values reach the objects, and the ServiceMonitor still finds
// the metrics Service, which finds the manager.
func TestChartMonitoringValuesReachTheObjects(t *testing.T) {
	objects := helmTemplate(t, "--set", "serviceMonitor.enabled=true", "--set", "prometheusRule.enabled=true",
		"--set", "serviceMonitor.labels.release=kube-prometheus-stack", "--set", "serviceMonitor.interval=15s",
		"--set", "serviceMonitor.scrapeTimeout=10s", "--set", "prometheusRule.labels.release=kube-prometheus-stack",
		"--set-json", `serviceMonitor.relabelings=[{"targetLabel":"cluster","replacement":"perf"}]`,
		"--set-json", `serviceMonitor.metricRelabelings=[{"sourceLabels":["__name__"],"regex":"go_.*","action":"drop"}]`)
	byKind := map[string]map[string]any{}
	for _, obj := range objects {
		byKind[obj["kind"].(string)] = obj
	}
	sm, pr, svc, deploy := byKind["ServiceMonitor"], byKind["PrometheusRule"], byKind["Service"], byKind["Deployment"]
	if sm == nil || pr == nil || svc == nil {
		t.Fatalf("ServiceMonitor %v, PrometheusRule %v, Service %v", sm != nil, pr != nil, svc != nil)
	}
	for _, obj := range []map[string]any{sm, pr} {
		if _, labels := metadata(obj); labels["release"] != "kube-prometheus-stack" {
			t.Errorf("%s labels %v lack release: kube-prometheus-stack", obj["kind"], labels)
		}
	}
	b, _ := yaml.Marshal(sm["spec"])
	for _, want := range []string{"interval: 15s", "scrapeTimeout: 10s", "targetLabel: cluster", "replacement: perf",
		"metricRelabelings:\n", "regex: go_.*", "action: drop"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the ServiceMonitor lacks %q:\n%s", want, b)
		}
	}
	_, svcLabels := metadata(svc)
	for k, v := range sm["spec"].(map[string]any)["selector"].(map[string]any)["matchLabels"].(map[string]any) {
		if svcLabels[k] != v {
			t.Errorf("the ServiceMonitor selects %s=%v, the Service has %v", k, v, svcLabels[k])
		}
	}
	podLabels := deploy["spec"].(map[string]any)["template"].(map[string]any)["metadata"].(map[string]any)["labels"].(map[string]any)
	for k, v := range svc["spec"].(map[string]any)["selector"].(map[string]any) {
		if podLabels[k] != v {
			t.Errorf("the Service selects %s=%v, the manager's pod has %v", k, v, podLabels[k])
		}
	}
}

// monitoring.kubePrometheusStack.release alone makes everything that stack needs: the metrics
// Service, a ServiceMonitor and a PrometheusRule labelled release: <its release>, which its
// Prometheus selects, the dashboard its Grafana's sidecar picks up, and the ServiceMonitor's
// credentials (authorization from a token Secret of a ServiceAccount bound to the
// metrics-reader ClusterRole; no bearerTokenFile, no ClusterRoleBinding to make by hand).
// Without it the default install makes none of them.
func TestChartKubePrometheusStackInOneValue(t *testing.T) {
	byKey := func(args ...string) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, obj := range helmTemplate(t, args...) {
			name, _ := metadata(obj)
			out[obj["kind"].(string)+"/"+name] = obj
		}
		return out
	}
	monitoring := []string{"ServiceMonitor/daprbench-controller-manager-metrics", "PrometheusRule/daprbench-alerts",
		"Service/daprbench-controller-manager-metrics", "ConfigMap/daprbench-grafana-dashboard", "ServiceAccount/daprbench-metrics-scraper",
		"Secret/daprbench-metrics-scraper-token", "ClusterRoleBinding/daprbench-metrics-scraper"}
	defaults := byKey()
	for _, key := range monitoring {
		if _, ok := defaults[key]; ok {
			t.Errorf("the default install renders %s", key)
		}
	}
	objects := byKey("--set", "monitoring.kubePrometheusStack.release=kps")
	for _, key := range monitoring {
		if _, ok := objects[key]; !ok {
			t.Fatalf("monitoring.kubePrometheusStack.release renders no %s", key)
		}
	}
	sm, pr := objects[monitoring[0]], objects[monitoring[1]]
	for _, obj := range []map[string]any{sm, pr} {
		if _, labels := metadata(obj); labels["release"] != "kps" {
			t.Errorf("%s labels %v lack release: kps", obj["kind"], labels)
		}
	}
	if _, labels := metadata(objects["ConfigMap/daprbench-grafana-dashboard"]); labels["grafana_dashboard"] != "1" {
		t.Errorf("the dashboard's labels %v: kube-prometheus-stack's Grafana sidecar looks for grafana_dashboard: \"1\"", labels)
	}

	// The ServiceMonitor's credentials: a Secret in its namespace, the token of the scraper's
	// ServiceAccount, which is bound to the ClusterRole that grants GET /metrics.
	smNamespace := sm["metadata"].(map[string]any)["namespace"]
	endpoints := sm["spec"].(map[string]any)["endpoints"].([]any)
	if len(endpoints) != 1 {
		t.Fatalf("%d endpoints", len(endpoints))
	}
	endpoint := endpoints[0].(map[string]any)
	if _, ok := endpoint["bearerTokenFile"]; ok {
		t.Error("the ServiceMonitor still uses the deprecated bearerTokenFile")
	}
	auth, _ := endpoint["authorization"].(map[string]any)
	credentials, _ := auth["credentials"].(map[string]any)
	if auth["type"] != "Bearer" || credentials["key"] != "token" {
		t.Fatalf("the ServiceMonitor's authorization %v: want type Bearer, credentials {name: <the token Secret>, key: token}", auth)
	}
	secret := objects["Secret/"+fmt.Sprint(credentials["name"])]
	if secret == nil {
		t.Fatalf("the ServiceMonitor reads Secret %v, which the chart does not make", credentials["name"])
	}
	secretMeta := secret["metadata"].(map[string]any)
	annotations, _ := secretMeta["annotations"].(map[string]any)
	if secret["type"] != "kubernetes.io/service-account-token" || secretMeta["namespace"] != smNamespace ||
		annotations["kubernetes.io/service-account.name"] != "daprbench-metrics-scraper" {
		t.Errorf("the token Secret: type %v, namespace %v (the ServiceMonitor's: %v), annotations %v", secret["type"], secretMeta["namespace"], smNamespace, annotations)
	}
	if ns := objects["ServiceAccount/daprbench-metrics-scraper"]["metadata"].(map[string]any)["namespace"]; ns != secretMeta["namespace"] {
		t.Errorf("the scraper's ServiceAccount is in %v, its token Secret in %v", ns, secretMeta["namespace"])
	}
	binding := objects["ClusterRoleBinding/daprbench-metrics-scraper"]
	subjects, _ := yaml.Marshal(binding["subjects"])
	if want := "- kind: ServiceAccount\n  name: daprbench-metrics-scraper\n  namespace: " + fmt.Sprint(smNamespace) + "\n"; string(subjects) != want {
		t.Errorf("the scraper's binding's subjects:\n%s\nwant:\n%s", subjects, want)
	}
	role := objects["ClusterRole/"+fmt.Sprint(binding["roleRef"].(map[string]any)["name"])]
	if rules, _ := yaml.Marshal(role["rules"]); role == nil || string(rules) != "- nonResourceURLs:\n  - /metrics\n  verbs:\n  - get\n" {
		t.Errorf("the scraper is bound to %v, which grants\n%s", binding["roleRef"], rules)
	}

	// Each object's own labels win over the stack's release label.
	objects = byKey("--set", "monitoring.kubePrometheusStack.release=kps", "--set", "serviceMonitor.labels.release=other",
		"--set", "prometheusRule.labels.team=perf")
	if _, labels := metadata(objects[monitoring[0]]); labels["release"] != "other" {
		t.Errorf("serviceMonitor.labels.release does not win: %v", labels)
	}
	if _, labels := metadata(objects[monitoring[1]]); labels["release"] != "kps" || labels["team"] != "perf" {
		t.Errorf("the PrometheusRule's labels %v: want release: kps and team: perf", labels)
	}
}

// grafanaDashboard.namespace puts the ConfigMap where a Grafana sidecar watches, and
// grafanaDashboard.folder annotates it with the folder, under the annotation the sidecar is
// told to read (grafana_folder unless folderAnnotation says otherwise).
func TestChartDashboardNamespaceAndFolder(t *testing.T) {
	dashboard := func(args ...string) map[string]any {
		t.Helper()
		objects := helmTemplate(t, append([]string{"--show-only", "templates/grafana-dashboard.yaml", "--set", "grafanaDashboard.enabled=true"}, args...)...)
		if len(objects) != 1 {
			t.Fatalf("%d objects, want the dashboard's ConfigMap", len(objects))
		}
		return objects[0]["metadata"].(map[string]any)
	}
	if meta := dashboard(); meta["namespace"] != "perf" || meta["annotations"] != nil {
		t.Errorf("by default the dashboard is in namespace %v (want the release's, perf), annotated %v (want none)", meta["namespace"], meta["annotations"])
	}
	meta := dashboard("--set", "grafanaDashboard.namespace=monitoring", "--set", "grafanaDashboard.folder=Benchmarks")
	if annotations, _ := meta["annotations"].(map[string]any); meta["namespace"] != "monitoring" || len(annotations) != 1 || annotations["grafana_folder"] != "Benchmarks" {
		t.Errorf("namespace %v, annotations %v: want monitoring, {grafana_folder: Benchmarks}", meta["namespace"], annotations)
	}
	meta = dashboard("--set", "grafanaDashboard.folder=Benchmarks", "--set", "grafanaDashboard.folderAnnotation=k8s-sidecar-target-directory")
	if annotations, _ := meta["annotations"].(map[string]any); len(annotations) != 1 || annotations["k8s-sidecar-target-directory"] != "Benchmarks" {
		t.Errorf("annotations %v: want {k8s-sidecar-target-directory: Benchmarks}", annotations)
	}
}

// Every object the chart makes carries the standard labels, whatever is enabled.
func TestChartStandardLabelsOnEveryObject(t *testing.T) {
	chart, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "charts", "daprbench", "Chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct{ Version, AppVersion string }
	if err := yaml.Unmarshal(chart, &meta); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"helm.sh/chart": "daprbench-" + meta.Version, "app.kubernetes.io/name": "daprbench",
		"app.kubernetes.io/instance": "rel", "app.kubernetes.io/version": meta.AppVersion, "app.kubernetes.io/managed-by": "Helm"}
	var n int
	for _, mode := range []string{"rbac.namespaced=true", "rbac.namespaced=false"} {
		for _, obj := range helmTemplate(t, append([]string{"--set", mode}, everything...)...) {
			n++
			name, labels := metadata(obj)
			for k, v := range want {
				if labels[k] != v {
					t.Errorf("%s %s: label %s=%v, want %s", obj["kind"], name, k, labels[k], v)
				}
			}
			if c, _ := labels["app.kubernetes.io/component"].(string); c == "" {
				t.Errorf("%s %s has no app.kubernetes.io/component", obj["kind"], name)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d objects rendered", n)
	}
}

// The pod's and container's securityContext default to the hardened settings (the Pod
// Security restricted profile) and can be replaced.
func TestChartSecurityContexts(t *testing.T) {
	spec := func(args ...string) (pod, container string) {
		for _, obj := range helmTemplate(t, append([]string{"--show-only", "templates/deployment.yaml"}, args...)...) {
			s := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
			p, _ := yaml.Marshal(s["securityContext"])
			c, _ := yaml.Marshal(s["containers"].([]any)[0].(map[string]any)["securityContext"])
			return string(p), string(c)
		}
		t.Fatal("no Deployment")
		return "", ""
	}
	pod, container := spec()
	if pod != "runAsNonRoot: true\nseccompProfile:\n  type: RuntimeDefault\n" {
		t.Errorf("the default pod securityContext:\n%s", pod)
	}
	if container != "allowPrivilegeEscalation: false\ncapabilities:\n  drop:\n  - ALL\nreadOnlyRootFilesystem: true\n" {
		t.Errorf("the default container securityContext:\n%s", container)
	}
	pod, container = spec("--set-json", `podSecurityContext={"runAsNonRoot":true,"runAsUser":65532,"fsGroup":65532}`,
		"--set-json", `securityContext={"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]},"runAsUser":1000}`)
	if !strings.Contains(pod, "runAsUser: 65532") || !strings.Contains(pod, "fsGroup: 65532") || !strings.Contains(container, "runAsUser: 1000") {
		t.Errorf("the values do not reach the pod:\n%s\n%s", pod, container)
	}
}

// previousChart is the last commit of the chart 0.1.0, whose CRDs were in crds/ (installed by
// Helm once, never upgraded) and whose objects an upgrade replaces with this chart's.
const previousChart = "8fe3cae5b8c3ed9222e71e71b58e626d8f26577b"

func objectKey(obj map[string]any) string {
	meta := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	return fmt.Sprintf("%s %s/%s", obj["kind"], ns, meta["name"])
}

// The CRDs are the chart's templates, behind crds.install, kept by helm uninstall with
// crds.keep; each is config/crd/bases' CRD.
func TestChartCRDsSwitch(t *testing.T) {
	crds := func(args ...string) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, obj := range helmTemplate(t, args...) {
			if obj["kind"] == "CustomResourceDefinition" {
				name, _ := metadata(obj)
				out[name] = obj
			}
		}
		return out
	}
	bases, err := filepath.Glob(filepath.Join(testenv.RepoRoot(), "config", "crd", "bases", "*.yaml"))
	if err != nil || len(bases) != 3 {
		t.Fatalf("config/crd/bases: %v %v", bases, err)
	}
	installed := crds()
	for _, base := range bases {
		b, err := os.ReadFile(base)
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := yaml.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		name := want["metadata"].(map[string]any)["name"].(string)
		got, ok := installed[name]
		if !ok {
			t.Errorf("the default install renders no CRD %s: helm upgrade would never upgrade it", name)
			continue
		}
		if !reflect.DeepEqual(got["spec"], want["spec"]) {
			t.Errorf("CRD %s is not config/crd/bases' (run make manifests)", name)
		}
		if a, _ := got["metadata"].(map[string]any)["annotations"].(map[string]any); a["helm.sh/resource-policy"] != "keep" {
			t.Errorf("CRD %s is not kept by helm uninstall: annotations %v", name, a)
		}
	}
	if got := crds("--set", "crds.install=false"); len(got) != 0 {
		t.Errorf("crds.install=false renders %d CRDs", len(got))
	}
	for name, crd := range crds("--set", "crds.keep=false") {
		if a, _ := crd["metadata"].(map[string]any)["annotations"].(map[string]any); a["helm.sh/resource-policy"] != nil {
			t.Errorf("crds.keep=false: CRD %s is still kept", name)
		}
	}
}

// helm upgrade from 0.1.0 (the chart at previousChart) with the same values: every Deployment
// keeps its selector (immutable: a change fails the upgrade), every object 0.1.0 made is still
// made under the same kind, namespace and name (else Helm deletes it), and the CRDs, which
// 0.1.0 had in crds/ and no upgrade touched, are now templates that the upgrade applies.
func TestChartUpgradeFromThePreviousVersion(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	dir := t.TempDir()
	// A shallow clone lacks 0.1.0's commit: fetch it from where the clone came from.
	fetch := exec.Command("sh", "-c", "git cat-file -e "+previousChart+"^{commit} 2>/dev/null || git fetch --quiet origin "+previousChart)
	fetch.Dir = testenv.RepoRoot()
	if out, err := fetch.CombinedOutput(); err != nil {
		t.Fatalf("the chart 0.1.0 (commit %s) is not in this clone and cannot be fetched: clone with history: %v\n%s", previousChart, err, out)
	}
	archive := exec.Command("sh", "-c", "git archive "+previousChart+" charts/daprbench | tar -x -C "+dir)
	archive.Dir = testenv.RepoRoot()
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", previousChart, err, out)
	}
	old := filepath.Join(dir, "charts", "daprbench")
	if b, _ := os.ReadFile(filepath.Join(old, "Chart.yaml")); !strings.Contains(string(b), "version: 0.1.0") {
		t.Fatalf("%s's chart is not 0.1.0:\n%s", previousChart, b)
	}
	monitoring := []string{"--set", "metrics.service.enabled=true", "--set", "serviceMonitor.enabled=true",
		"--set", "prometheusRule.enabled=true", "--set", "grafanaDashboard.enabled=true"}
	for _, c := range []struct {
		name     string
		old, new []string
		// replaced: what the upgrade deletes of 0.1.0's objects → what takes its place.
		replaced map[string]string
	}{{
		name: "defaults",
		// The default became the namespaced mode (d39f6d2, the tenant guards): the manager's
		// workload rights move from a ClusterRole to a Role in the release's namespace.
		replaced: map[string]string{
			"ClusterRole /daprbench-manager-role":               "Role daprbench-system/daprbench-manager-role",
			"ClusterRoleBinding /daprbench-manager-rolebinding": "RoleBinding daprbench-system/daprbench-manager-rolebinding",
		},
	}, {
		name: "cluster-wide, monitoring",
		old:  append([]string{"--set", "rbac.namespaced=false"}, monitoring...),
		new:  append([]string{"--set", "rbac.namespaced=false", "--set", "kubeletCounters=true"}, monitoring...),
	}, {
		name: "namespaced, two namespaces",
		old:  []string{"--set", "rbac.namespaced=true", "--set-json", `rbac.namespaces=["team-a","team-b"]`},
		new:  []string{"--set", "rbac.namespaced=true", "--set-json", `rbac.namespaces=["team-a","team-b"]`},
	}} {
		args := []string{"template", "daprbench", "--namespace", "daprbench-system"}
		before := map[string]map[string]any{}
		for _, obj := range renderObjects(t, false, helm, append(append(append([]string{}, args...), old), c.old...)...) {
			before[objectKey(obj)] = obj
		}
		after := map[string]map[string]any{}
		for _, obj := range renderObjects(t, false, helm, append(append(append([]string{}, args...), "charts/daprbench"), c.new...)...) {
			after[objectKey(obj)] = obj
		}
		var gone []string
		for key, obj := range before {
			now, ok := after[key]
			if !ok {
				if by, replaced := c.replaced[key]; !replaced {
					gone = append(gone, key)
				} else if _, ok := after[by]; !ok {
					t.Errorf("%s: %s is gone and %s, which replaces it, is not made", c.name, key, by)
				}
				continue
			}
			if obj["kind"] == "Deployment" {
				was, is := obj["spec"].(map[string]any)["selector"], now["spec"].(map[string]any)["selector"]
				if !reflect.DeepEqual(was, is) {
					t.Errorf("%s: %s changes its selector %v → %v: the upgrade would fail", c.name, key, was, is)
				}
			}
		}
		for key := range c.replaced {
			if _, ok := before[key]; !ok {
				t.Errorf("%s: 0.1.0 did not make %s, which the test says is replaced", c.name, key)
			}
		}
		if len(gone) > 0 {
			t.Errorf("%s: the upgrade deletes what 0.1.0 made: %v", c.name, gone)
		}
		// 0.1.0 rendered no CRD (they were in crds/); this chart's upgrade applies each one
		// 0.1.0 installed.
		var crds int
		for _, obj := range renderObjects(t, false, helm, append(append(append([]string{}, args...), "--include-crds", old), c.old...)...) {
			if obj["kind"] != "CustomResourceDefinition" {
				continue
			}
			crds++
			if _, ok := before[objectKey(obj)]; ok {
				t.Errorf("%s was a template in 0.1.0: the test's premise is wrong", objectKey(obj))
			}
			if _, ok := after[objectKey(obj)]; !ok {
				t.Errorf("%s: an upgrade from 0.1.0 leaves %s as 0.1.0 installed it", c.name, objectKey(obj))
			}
		}
		if crds != 3 {
			t.Errorf("0.1.0 had %d CRDs, want 3", crds)
		}
	}
}

// Chart.yaml's kubeVersion refuses a cluster older than the CRDs' CEL rules need (1.29: see
// Chart.yaml) and admits the versions distributions report.
func TestChartKubeVersion(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	for version, ok := range map[string]bool{"1.28.15": false, "1.27.0": false, "1.29.0": true, "v1.29.3-eks-4f4795d": true,
		"v1.31.1+k3s1": true, "1.36.3": true} {
		cmd := exec.Command(helm, "template", "rel", "charts/daprbench", "--kube-version", version, "--show-only", "templates/deployment.yaml")
		cmd.Dir = testenv.RepoRoot()
		out, err := cmd.CombinedOutput()
		if ok && err != nil {
			t.Errorf("Kubernetes %s refused: %v\n%s", version, err, out)
		}
		if !ok && (err == nil || !strings.Contains(string(out), "kubeVersion")) {
			t.Errorf("Kubernetes %s admitted (err %v)", version, err)
		}
	}
}
