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
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// A State run has no target app: its report names the store the load ended at, in the text
// and in report.html, where an invocation run names its target.
func TestAStateRunsReportNamesItsStore(t *testing.T) {
	spec := perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioState, Load: perfv1alpha1.LoadSpec{QPS: 1000}}
	createRunWithSpec(t, metav1.ObjectMeta{Name: "kv-report", Namespace: "default"}, spec, clitest.SampleResult("1ms", "900us", "1.1ms", "139m"), false)
	stored := &perfv1alpha1.PerfRun{}
	if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "kv-report"}, stored); err != nil {
		t.Fatal(err)
	}
	const store = "kv-report-statestore (state.redis, deployed by the run) at kv-report-store:6379"
	stored.Status.Environment = &perfv1alpha1.Environment{Store: store, TargetNode: "node-a"}
	if err := k8s.Status().Update(context.Background(), stored); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := run(t, "report", "kv-report", "--dir", dir)
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "PerfRun default/kv-report: Succeeded, State\nstate store: "+store+"\n") {
		t.Errorf("the report does not name the store:\n%s", out)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	for _, want := range []string{"State store", "kv-report-store:6379", "Store node"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(page, "Target image") || strings.Contains(page, "Target node") {
		t.Error("report.html names a target a State run does not have")
	}
}
