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

package perfrun

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
)

// A run's memory holds its sampling clock, report, applied children and admission
// in one place; a new run of the same name starts afresh, and Forget drops all of it.
func TestRunMemoryIsOnePlaceForgottenAtOnce(t *testing.T) {
	var m runMemory
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "r", UID: "1"}}
	key := types.NamespacedName{Namespace: "a", Name: "r"}
	now := time.Unix(1000, 0)
	child := &unstructured.Unstructured{}
	child.SetKind("Service")
	child.SetNamespace("a")
	child.SetName("r-target")
	child.SetResourceVersion("7")

	if !m.sampleDue(run, now, time.Second) || m.sampleDue(run, now.Add(time.Second/2), time.Second) || !m.sampleDue(run, now.Add(time.Second), time.Second) {
		t.Error("a read is due once per interval")
	}
	if tries, first := m.reportMiss(run, now); tries != 0 || !first.Equal(now) {
		t.Error("report tries count from 0")
	}
	if tries, first := m.reportMiss(run, now.Add(time.Minute)); tries != 1 || !first.Equal(now) {
		t.Error("the first miss is remembered")
	}
	m.keepReport(run, "sha256:1", &result.Report{Summary: result.Summary{RequestedQPS: 7}})
	if got := m.report(run, "sha256:1"); got == nil || got.Summary.RequestedQPS != 7 || m.report(run, "sha256:2") != nil {
		t.Error("a report is kept under its digest")
	}
	if tries, first := m.reportMiss(run, now.Add(time.Hour)); tries != 0 || !first.Equal(now.Add(time.Hour)) {
		t.Error("keeping a report resets the tries")
	}
	m.rememberApplied(run, child, "d1")
	if !m.unchanged(run, child, "d1", "7") || m.unchanged(run, child, "d2", "7") || m.unchanged(run, child, "d1", "8") || !m.appliedBefore(run, child) {
		t.Error("an apply is skipped only for the same state at the version it left")
	}
	m.admit(run, now)
	running := run.DeepCopy()
	if got, measuring := m.measuringSoon(running, now.Add(30*time.Second)); !measuring || got.UID != "1" {
		t.Error("an admitted run counts as measuring for admissionMemory")
	}

	again := run.DeepCopy()
	again.UID = "2" // deleted and created again under the same name
	if tries, _ := m.reportMiss(again, now); m.appliedBefore(again, child) || tries != 0 || m.report(again, "sha256:1") != nil {
		t.Error("a new run of the same name inherited the old one's memory")
	}
	if _, measuring := m.measuringSoon(run, now); measuring {
		t.Error("the old run's admission outlived it")
	}

	m.Forget(key)
	if m.remembers(key) {
		t.Error("Forget left the run's memory behind")
	}
}
