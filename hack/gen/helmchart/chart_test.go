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

// renderList runs a renderer and returns its objects in order.
func renderList(t *testing.T, name string, args ...string) []map[string]any {
	t.Helper()
	cmd := exec.Command(name, args...)
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
		if labels, ok := meta["labels"].(map[string]any); ok && labels["app.kubernetes.io/managed-by"] != nil {
			labels["app.kubernetes.io/managed-by"] = "(installer)" // kustomize, or Helm
		}
		objects = append(objects, obj)
	}
	return objects
}

func compare(t *testing.T, helm, kustomize map[string]map[string]any) {
	t.Helper()
	for key, k := range kustomize {
		h, ok := helm[key]
		if !ok {
			t.Errorf("the chart lacks %s", key)
			continue
		}
		if !reflect.DeepEqual(h, k) {
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
	chart := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "daprbench-system", "--include-crds",
		"--set", "image.repository=daprbench", "--set", "image.tag=dev",
		// kustomize's install: cluster-wide, the kubelet's counters, no namespace bound
		"--set", "rbac.namespaced=false", "--set", "kubeletCounters=true", "--set", "maxRunsPerNamespace=0")
	compare(t, chart, render(t, kustomize, "build", "config/default"))
	if len(chart) < 10 {
		t.Errorf("only %d objects rendered", len(chart))
	}
}

func TestChartMonitoringMatchesThePrometheusComponent(t *testing.T) {
	helm, kustomize := tool(t, "HELM", "helm"), tool(t, "KUSTOMIZE", "kustomize")
	chart := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "daprbench-system",
		"--show-only", "templates/metrics.yaml", "--show-only", "templates/servicemonitor.yaml", "--show-only", "templates/prometheusrule.yaml",
		"--set", "serviceMonitor.enabled=true", "--set", "prometheusRule.enabled=true")
	dir := t.TempDir()
	component, err := filepath.Rel(dir, filepath.Join(testenv.RepoRoot(), "config", "prometheus"))
	if err != nil {
		t.Fatal(err)
	}
	overlay := "namespace: daprbench-system\nnamePrefix: daprbench-\ncomponents:\n- " + component + "\n"
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	compare(t, chart, render(t, kustomize, "build", "--load-restrictor=LoadRestrictionsNone", dir))
}

func TestChartValuesReachTheManager(t *testing.T) {
	helm := tool(t, "HELM", "helm")
	out := render(t, helm, "template", "daprbench", "charts/daprbench", "--namespace", "perf", "--show-only", "templates/deployment.yaml",
		"--set", "image.repository=registry.example/daprbench", "--set", "image.tag=1.2.3", "--set", "usageInterval=10s",
		"--set", "leaderElection=false", "--set-json", `extraArgs=["--poll-interval=2s"]`, "--set", "resources.limits.cpu=1")
	b, _ := yaml.Marshal(out["Deployment/daprbench-controller-manager"])
	for _, want := range []string{"image: registry.example/daprbench:1.2.3", "value: registry.example/daprbench:1.2.3",
		"--usage-interval=10s", "--poll-interval=2s", "cpu: 1\n", "namespace: perf"} {
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
		"--set-json", `placement={"allowedTolerations":["bench"],"allowedNodeLabels":["pool"]}`, "--set-json", `allowedStateStores=["redis"]`)
	role, ok := on["ClusterRole/daprbench-kubelet-reader"]
	if !ok {
		t.Fatal("kubeletCounters=true grants no kubelet reader")
	}
	if b, _ := yaml.Marshal(role["rules"]); string(b) != "- apiGroups:\n  - \"\"\n  resources:\n  - nodes/proxy\n  verbs:\n  - get\n" {
		t.Errorf("the kubelet reader grants\n%s", b)
	}
	d, _ := yaml.Marshal(on["Deployment/daprbench-controller-manager"])
	for _, want := range []string{"--allowed-tolerations=bench", "--allowed-node-labels=pool", "--allowed-state-stores=redis"} {
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
		cmd := exec.Command(helm, append([]string{"template", "daprbench", "charts/daprbench"}, args...)...)
		cmd.Dir = testenv.RepoRoot()
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "schema") && !strings.Contains(string(out), "want") {
			t.Errorf("helm template %v: err %v\n%s", args, err, out)
		}
	}
}
