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

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// printerRuns creates the runs the printer tests list, in namespaces of their own: two in
// printing (one started by a schedule, one regressed) and one in elsewhere. All carry the
// label suite=printers.
func printerRuns(t *testing.T) {
	t.Helper()
	for _, name := range []string{"printing", "elsewhere"} {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if err := k8s.Create(context.Background(), ns); client.IgnoreAlreadyExists(err) != nil {
			t.Fatal(err)
		}
	}
	suite := map[string]string{"suite": "printers"}
	createRunOf(t, metav1.ObjectMeta{Name: "print-a", Namespace: "printing", Labels: map[string]string{"suite": "printers", perfv1alpha1.LabelSchedule: "printers"},
		OwnerReferences: []metav1.OwnerReference{ownerRef(createScheduleIn(t, "printing", "printers"), true)}}, clitest.SampleResult("12ms", "11ms", "13ms", "390m"), false)
	createRunIn(t, "printing", "print-b", suite, nil, clitest.SampleResult("16ms", "15ms", "17ms", "450m"), true)
	other := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "print-c", Namespace: "elsewhere", Labels: suite},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioActorActivation, Load: perfv1alpha1.LoadSpec{QPS: 200}}}
	if err := k8s.Create(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = k8s.DeleteAllOf(context.Background(), &perfv1alpha1.PerfRun{}, client.InNamespace("printing"))
		_ = k8s.DeleteAllOf(context.Background(), &perfv1alpha1.PerfRun{}, client.InNamespace("elsewhere"))
	})
}

func lineWith(t *testing.T, out, prefix string) []string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == prefix {
			return f
		}
	}
	t.Fatalf("no line starting %q in:\n%s", prefix, out)
	return nil
}

func TestListPrintsRunsAsKubectlGetDoes(t *testing.T) {
	printerRuns(t)

	out, err := runIn(t, "printing", "list")
	if err != nil {
		t.Fatal(err)
	}
	header := lineWith(t, out, "NAME")
	if strings.Join(header, " ") != "NAME SCENARIO QPS PHASE ADDED P90 ADDED P99 VERDICT AGE" {
		t.Errorf("header %q", strings.Join(header, " "))
	}
	if got := lineWith(t, out, "print-a"); strings.Join(got[:7], " ") != "print-a ServiceInvocation 1000 Succeeded 12ms 26ms Passed" {
		t.Errorf("print-a: %q", got)
	}
	if got := lineWith(t, out, "print-b"); got[6] != "Regressed" {
		t.Errorf("print-b's verdict is %q, want Regressed", got[6])
	}
	if strings.Contains(out, "print-c") {
		t.Errorf("a run of another namespace is listed without -A:\n%s", out)
	}

	wide, err := runIn(t, "printing", "list", "-o", "wide")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"BASELINE P90", "ADDED P90 INTERVAL", "SIDECAR CPU/1K", "11ms..13ms (95%)", "printers"} {
		if !strings.Contains(wide, want) {
			t.Errorf("-o wide lacks %q:\n%s", want, wide)
		}
	}

	all, err := runIn(t, "printing", "list", "-A", "-l", "suite=printers")
	if err != nil {
		t.Fatal(err)
	}
	if got := lineWith(t, all, "elsewhere"); got[1] != "print-c" || got[2] != "ActorActivation" {
		t.Errorf("-A: %q", got)
	}
	if lineWith(t, all, "NAMESPACE")[1] != "NAME" {
		t.Errorf("-A has no NAMESPACE column:\n%s", all)
	}

	selected, err := runIn(t, "printing", "list", "-l", perfv1alpha1.LabelSchedule+"=printers", "--no-headers")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(selected) == "" || strings.Count(strings.TrimSpace(selected), "\n") != 0 || !strings.HasPrefix(selected, "print-a ") {
		t.Errorf("-l selects print-a alone, without a header:\n%s", selected)
	}
}

func TestListPrintsObjectsWithKubectlsPrinters(t *testing.T) {
	printerRuns(t)

	names, err := runIn(t, "printing", "list", "-o", "name")
	if err != nil {
		t.Fatal(err)
	}
	if names != "perfrun.perf.daprbench.io/print-a\nperfrun.perf.daprbench.io/print-b\n" {
		t.Errorf("-o name:\n%s", names)
	}

	jp, err := runIn(t, "printing", "list", "-o", `jsonpath={range .items[*]}{.kind}/{.metadata.name}={.status.result.added.p90}{"\n"}{end}`)
	if err != nil {
		t.Fatal(err)
	}
	if jp != "PerfRun/print-a=12ms\nPerfRun/print-b=16ms\n" {
		t.Errorf("-o jsonpath:\n%s", jp)
	}

	tmpl, err := runIn(t, "printing", "list", "perfrun", "-A", "-l", "suite=printers", "-o", "go-template", "--template", `{{range .items}}{{.metadata.namespace}} {{end}}`)
	if err != nil {
		t.Fatal(err)
	}
	if tmpl != "elsewhere printing printing " {
		t.Errorf("-o go-template: %q", tmpl)
	}

	doc, err := runIn(t, "printing", "list", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Kind  string `json:"kind"`
		Items []perfv1alpha1.PerfRun
	}
	if err := json.Unmarshal([]byte(doc), &list); err != nil {
		t.Fatalf("%v:\n%s", err, doc)
	}
	if list.Kind != "List" || len(list.Items) != 2 || list.Items[0].APIVersion != perfv1alpha1.GroupVersion.String() || list.Items[0].Kind != "PerfRun" {
		t.Errorf("-o json is not a v1 List of PerfRuns with their kinds: %s", doc)
	}
}

func TestFiguresPrintThroughJSONPathAndTemplates(t *testing.T) {
	printerRuns(t)

	p90, err := runIn(t, "printing", "report", "print-a", "--dir", t.TempDir(), "-o", "jsonpath={.result.added.p90}")
	if err != nil {
		t.Fatal(err)
	}
	if p90 != "12ms" {
		t.Errorf("report -o jsonpath: %q", p90)
	}

	rows, err := runIn(t, "printing", "history", "printers", "--dir", t.TempDir(), "-o", "go-template={{range .items}}{{.run}}={{.addedP90}} {{end}}")
	if err != nil {
		t.Fatal(err)
	}
	if rows != "print-a=12ms " {
		t.Errorf("history -o go-template: %q", rows)
	}

	if _, err := runIn(t, "printing", "compare", "print-a", "print-b", "-o", "name"); err == nil || !strings.Contains(err.Error(), "prints figures") {
		t.Errorf("compare -o name: %v, want an error saying it prints figures", err)
	}
	if _, err := runIn(t, "printing", "list", "-o", "xml"); err == nil || !strings.Contains(err.Error(), "table, wide, csv, json, yaml") {
		t.Errorf("-o xml: %v, want an error listing the formats", err)
	}
}

func TestRunPrintsTheCreatedObjectAlone(t *testing.T) {
	var out, errOut bytes.Buffer
	cmd := newCommand(Streams{Out: &out, ErrOut: &errOut}, func() (client.WithWatch, error) { return k8s, nil })
	cmd.SetArgs([]string{"run", "-f", writeRunFile(t, "named"), "-n", "default", "-o", "name"})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	name, found := strings.CutPrefix(out.String(), "perfrun.perf.daprbench.io/named-")
	if !found || strings.Count(name, "\n") != 1 || errOut.Len() != 0 {
		t.Errorf("run -o name printed %q (stderr %q), want one perfrun.perf.daprbench.io/named-… line", out.String(), errOut.String())
	}
	_ = k8s.Delete(context.Background(), &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "named-" + strings.TrimSpace(name), Namespace: "default"}})
}

// TestContextFlagPicksTheKubeconfigsNamespace runs the plugin as a user does, with no test
// client: --kubeconfig and --context choose the cluster and the context's namespace.
func TestContextFlagPicksTheKubeconfigsNamespace(t *testing.T) {
	printerRuns(t)
	kubeconfig := envtestKubeconfig(t, "home", map[string]string{"home": "printing", "away": "elsewhere"})
	list := func(args ...string) string {
		var out bytes.Buffer
		cmd := NewCommand(Streams{Out: &out, ErrOut: os.Stderr})
		cmd.SetArgs(append([]string{"list", "--kubeconfig", kubeconfig, "-o", "name"}, args...))
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got := list(); got != "perfrun.perf.daprbench.io/print-a\nperfrun.perf.daprbench.io/print-b\n" {
		t.Errorf("the current context's namespace: %q", got)
	}
	if got := list("--context", "away"); got != "perfrun.perf.daprbench.io/print-c\n" {
		t.Errorf("--context away: %q", got)
	}
	if got := list("--context", "away", "-n", "printing"); !strings.Contains(got, "print-a") {
		t.Errorf("-n overrides the context's namespace: %q", got)
	}
}

// envtestKubeconfig writes a kubeconfig reaching envtest's API server as its admin, with a
// context for each name (its namespace the map's value), current the one named.
func envtestKubeconfig(t *testing.T, current string, contexts map[string]string) string {
	t.Helper()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["envtest"] = &clientcmdapi.Cluster{Server: restConfig.Host, CertificateAuthorityData: restConfig.CAData}
	cfg.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: restConfig.CertData, ClientKeyData: restConfig.KeyData}
	for name, ns := range contexts {
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "admin", Namespace: ns}
	}
	cfg.CurrentContext = current
	if err := clientcmd.WriteToFile(*cfg, kubeconfig); err != nil {
		t.Fatal(err)
	}
	return kubeconfig
}
