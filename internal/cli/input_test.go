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
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

const sweepFile = `apiVersion: perf.daprbench.io/v1alpha1
kind: PerfSweep
metadata:
  name: %s
spec:
  template:
    spec:
      scenario: ServiceInvocation
      load: {qps: 100}
  points: {connections: [1, 2]}
`

// runsNamed lists the runs (or sweeps) whose generated name starts with base-.
func createdNamed(t *testing.T, list client.ObjectList, base string) int {
	t.Helper()
	if err := k8s.List(context.Background(), list, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	n := 0
	switch l := list.(type) {
	case *perfv1alpha1.PerfRunList:
		for _, r := range l.Items {
			if r.GenerateName == base+"-" {
				n++
			}
		}
	case *perfv1alpha1.PerfSweepList:
		for _, s := range l.Items {
			if s.GenerateName == base+"-" {
				n++
			}
		}
	}
	return n
}

func TestRunReadsFilesURLsDirectoriesKustomizationsAndStdin(t *testing.T) {
	doc := func(name string) string { return strings.Replace(runFile, "%s", name, 1) }
	dir := t.TempDir()
	write := func(path, text string) string {
		full := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return full
	}
	// One file, two documents: a run and a sweep.
	multi := write("multi.yaml", doc("in-multi")+"---\n"+strings.Replace(sweepFile, "%s", "in-multi-sweep", 1))
	// A directory, and a subdirectory read only with -R.
	write("tree/a.yaml", doc("in-dir"))
	write("tree/sub/b.yaml", doc("in-subdir"))
	write("kust/run.yaml", doc("in-kustomize"))
	write("kust/kustomization.yaml", "resources: [run.yaml]\n")
	served := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(doc("in-url"))) }))
	defer served.Close()

	for _, args := range [][]string{
		{"-f", multi},
		{"-f", filepath.Join(dir, "tree")},
		{"-f", filepath.Join(dir, "tree"), "-R"},
		{"-k", filepath.Join(dir, "kust")},
		{"-f", served.URL + "/perfrun.yaml"},
	} {
		if out, err := run(t, append([]string{"run"}, args...)...); err != nil {
			t.Fatalf("run %v: %v\n%s", args, err, out)
		}
	}
	for base, want := range map[string]int{"in-multi": 1, "in-dir": 2, "in-subdir": 1, "in-kustomize": 1, "in-url": 1} {
		if got := createdNamed(t, &perfv1alpha1.PerfRunList{}, base); got != want {
			t.Errorf("%s: %d runs, want %d", base, got, want)
		}
	}
	if got := createdNamed(t, &perfv1alpha1.PerfSweepList{}, "in-multi-sweep"); got != 1 {
		t.Errorf("the second document's sweep: %d, want 1", got)
	}

	// Stdin: the builder reads the process's own standard input.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	_, _ = w.WriteString(doc("in-stdin"))
	_ = w.Close()
	if out, err := run(t, "run", "-f", "-"); err != nil || createdNamed(t, &perfv1alpha1.PerfRunList{}, "in-stdin") != 1 {
		t.Errorf("run -f -: %v\n%s", err, out)
	}
}

func TestRunRefusesBadInputBeforeCreatingAnything(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo.yaml")
	_ = os.WriteFile(typo, []byte(strings.Replace(strings.Replace(runFile, "%s", "in-typo", 1), "qps:", "qsp:", 1)), 0o644)
	cm := filepath.Join(dir, "cm.yaml")
	_ = os.WriteFile(cm, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"), 0o644)
	two := filepath.Join(dir, "two.yaml")
	_ = os.WriteFile(two, []byte(strings.Replace(runFile, "%s", "in-two", 1)+"---\n"+strings.Replace(runFile, "%s", "in-two", 1)), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-f", typo}, `unknown field "spec.load.qsp"`},
		{[]string{"run", "-f", cm}, "a ConfigMap; run starts PerfRuns and PerfSweeps"},
		{[]string{"run", "-f", two, "--wait"}, "--wait follows one object; the input holds 2"},
		{[]string{"run", "-f", typo, "-k", dir}, "exactly one of -f, -k, --from and --preset"},
		{[]string{"run"}, "exactly one of -f, -k, --from and --preset"},
		{[]string{"run", "--from", "cronjob/x"}, "perfschedule/NAME"},
		{[]string{"run", "-f", typo, "--junit", "x.xml"}, "need --wait"},
		{[]string{"list", "-o", "bogus"}, `unknown output format "bogus"`},
		{[]string{"export", "x", "--format", "xml"}, `unknown --format "xml"`},
		{[]string{"compare", "a", "b", "--max-slowdown", "fast"}, "a percentage such as 10%"},
	} {
		out, err := runWithoutCluster(t, append(c.args, "-n", "default")...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q\n%s", c.args, err, c.want, out)
		}
	}
	if n := createdNamed(t, &perfv1alpha1.PerfRunList{}, "in-two"); n != 0 {
		t.Errorf("a refused input created %d runs", n)
	}
}

func TestUsageSaysKubectlDaprbench(t *testing.T) {
	var out bytes.Buffer
	cmd := newCommand(Streams{Out: &out, ErrOut: &out}, nil)
	cmd.SetArgs([]string{"run", "--help"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "kubectl daprbench run (-f") || strings.Contains(out.String(), "kubectl-daprbench") {
		t.Errorf("usage:\n%s", out.String())
	}
}

// run --from=perfschedule/NAME starts a run of the schedule's template, outside its history.
func TestRunFromASchedulesTemplate(t *testing.T) {
	s := &perfv1alpha1.PerfSchedule{ObjectMeta: metav1.ObjectMeta{Name: "from-me", Namespace: "default"}, Spec: perfv1alpha1.PerfScheduleSpec{
		Schedule: "0 3 * * *", Template: perfv1alpha1.PerfRunTemplate{
			Metadata: perfv1alpha1.TemplateMetadata{Labels: map[string]string{"team": "payments"}},
			Spec:     perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 321}}}}}
	if err := k8s.Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "run", "--from", "perfschedule/from-me", "-o", "name")
	if err != nil || !strings.HasPrefix(out, "perfrun.perf.daprbench.io/from-me-manual-") {
		t.Fatalf("run --from: %v\n%s", err, out)
	}
	got := &perfv1alpha1.PerfRun{}
	name := strings.TrimSpace(strings.TrimPrefix(out, "perfrun.perf.daprbench.io/"))
	if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: name}, got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Load.QPS != 321 || got.Labels["team"] != "payments" || got.Annotations[perfv1alpha1.AnnotationFromSchedule] != "from-me" ||
		got.Labels[perfv1alpha1.LabelSchedule] != "" || len(got.OwnerReferences) != 0 {
		t.Errorf("the run: qps %d, labels %v, annotations %v, owners %v", got.Spec.Load.QPS, got.Labels, got.Annotations, got.OwnerReferences)
	}
	if _, err := run(t, "run", "--from", "perfschedule/nope"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("a missing schedule: %v", err)
	}
}

// watch follows every kind run starts: a sweep too.
func TestWatchFollowsASweep(t *testing.T) {
	sw := &perfv1alpha1.PerfSweep{ObjectMeta: metav1.ObjectMeta{Name: "watched-sweep", Namespace: "default"}, Spec: perfv1alpha1.PerfSweepSpec{
		Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}}},
		Points:   &perfv1alpha1.SweepPoints{Connections: []int32{1}}}}
	if err := k8s.Create(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := run(t, "watch", "perfsweep/watched-sweep", "--timeout", "20s"); done <- err }()
	time.Sleep(300 * time.Millisecond)
	sw.Status.Phase = perfv1alpha1.PhaseFailed
	sw.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionFailed, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonNoPointMeasured,
		Message: "none", LastTransitionTime: metav1.Now()}}
	if err := k8s.Status().Update(context.Background(), sw); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if verdict.ExitCodeOf(err) != verdict.ExitFailed {
			t.Errorf("watch of a failed sweep: %v (exit %d)", err, verdict.ExitCodeOf(err))
		}
	case <-time.After(15 * time.Second):
		t.Fatal("watch did not end when the sweep finished")
	}
}

// report writes into a new temporary folder unless --dir names one: never the current
// directory (a checkout, in CI).
func TestReportWritesOutsideTheCurrentDirectory(t *testing.T) {
	createRun(t, "report-where", nil, nil, clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	cwd := t.TempDir()
	t.Chdir(cwd)
	out, err := run(t, "report", "report-where")
	if err != nil {
		t.Fatal(err, out)
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Errorf("report wrote %v into the current directory", entries)
	}
	tmp := filepath.Join(os.TempDir(), "daprbench-report-report-where-")
	if !strings.Contains(out, tmp) {
		t.Errorf("the output does not name the folder under %s:\n%s", tmp, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if written, ok := strings.CutPrefix(l, "written: "); ok {
			_ = os.RemoveAll(filepath.Dir(strings.Split(written, ", ")[0]))
		}
	}
}
