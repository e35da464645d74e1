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
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
	"github.com/daprbench/daprbench/internal/document"
)

// A history whose runs ran on nodes of different speed says which, and the rows carry each
// run's calibration and the server sidecar's cost in its units.
func TestHistoryNamesRunsOnADifferentMachine(t *testing.T) {
	var runs []document.Run
	for i, n := range []string{"mon", "tue", "wed"} {
		doc := []*perfv1alpha1.ResultDocument{clitest.CostedRun("50000", 200*time.Microsecond), clitest.CostedRun("51000", 196*time.Microsecond),
			clitest.CostedRun("30000", 330*time.Microsecond)}[i]
		runs = append(runs, document.With(&perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: n},
			Status: perfv1alpha1.PerfRunStatus{Environment: doc.Environment}}, doc))
	}
	w := calibrationSpread(runs)
	if !strings.Contains(w, "wed (-40%)") || strings.Contains(w, "mon") || strings.Contains(w, "tue") {
		t.Errorf("warning %q, want wed alone, 40%% under the median of 50000", w)
	}
	rows := trend(runs)
	if rows[2].Calibration != "30000" || rows[2].ServerCPUPerRequest != "330µs" {
		t.Errorf("row %+v", rows[2])
	}
	if w := calibrationSpread(runs[:2]); w != "" {
		t.Errorf("two runs 2%% apart: %q", w)
	}
	if w := calibrationSpread(append(runs[:1:1], document.Run{PerfRun: &perfv1alpha1.PerfRun{}})); w != "" {
		t.Errorf("one calibrated run: %q", w)
	}
	// A run of an older calibration workload is not compared with the newer ones.
	runs[2].Status.Environment.Calibration[0].Workload = "v1"
	runs[0], runs[2] = runs[2], runs[0]
	if w := calibrationSpread(runs); w != "" {
		t.Errorf("the -40%% run is of another workload version, yet: %q", w)
	}
}

// createSchedule creates a schedule in namespace default; its runs name it as their
// controlling owner, as the schedule controller sets it.
func createSchedule(t *testing.T, name string) *perfv1alpha1.PerfSchedule {
	t.Helper()
	return createScheduleIn(t, "default", name)
}

// createScheduleIn creates the schedule in namespace ns, or reads it when it exists.
func createScheduleIn(t *testing.T, ns, name string) *perfv1alpha1.PerfSchedule {
	t.Helper()
	s := &perfv1alpha1.PerfSchedule{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Spec: perfv1alpha1.PerfScheduleSpec{
		Schedule: "0 3 * * 5", Template: perfv1alpha1.PerfRunTemplate{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation,
			Load: perfv1alpha1.LoadSpec{QPS: 1000}}}}}
	if err := k8s.Create(context.Background(), s); client.IgnoreAlreadyExists(err) != nil {
		t.Fatal(err)
	}
	if err := k8s.Get(context.Background(), client.ObjectKeyFromObject(s), s); err != nil {
		t.Fatal(err)
	}
	return s
}

// scheduledRun creates a finished run of schedule s, as the schedule controller makes it:
// its label and s as its controlling owner.
func scheduledRun(t *testing.T, s *perfv1alpha1.PerfSchedule, name, at string, res *perfv1alpha1.Result, regressed bool) {
	t.Helper()
	createRunOf(t, metav1.ObjectMeta{Name: name, Namespace: s.Namespace, Labels: map[string]string{perfv1alpha1.LabelSchedule: s.Name},
		Annotations: map[string]string{perfv1alpha1.AnnotationScheduledTime: at}, OwnerReferences: []metav1.OwnerReference{ownerRef(s, true)}}, res, regressed)
}

// ownedRun creates a finished run carrying s's label and the given owner references.
func ownedRun(t *testing.T, s *perfv1alpha1.PerfSchedule, name string, owners ...metav1.OwnerReference) {
	t.Helper()
	createRunOf(t, metav1.ObjectMeta{Name: name, Namespace: s.Namespace, Labels: map[string]string{perfv1alpha1.LabelSchedule: s.Name},
		OwnerReferences: owners}, clitest.SampleResult("1ms", "1ms", "1ms", "1m"), false)
}

// ownerRef names s as an owner (the controlling one when controller is true).
func ownerRef(s *perfv1alpha1.PerfSchedule, controller bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: perfv1alpha1.GroupVersion.String(), Kind: "PerfSchedule", Name: s.Name, UID: s.UID, Controller: ptr.To(controller)}
}

// Finding 6 of issue 34: history selected runs by label, so anyone who may create a
// PerfRun could add one to a schedule's trend. A run counts only when the schedule
// controls it.
func TestHistoryCountsOnlyTheRunsTheScheduleControls(t *testing.T) {
	s := createSchedule(t, "owned")
	scheduledRun(t, s, "owned-1", "2026-11-20T03:00:00Z", clitest.SampleResult("12.1ms", "11.8ms", "12.4ms", "390m"), false)
	// The label alone, an owner that is not the controller, and a look-alike owner of
	// another UID.
	ownedRun(t, s, "owned-forged")
	ownedRun(t, s, "owned-shared", ownerRef(s, false))
	other := s.DeepCopy()
	other.UID = "00000000-0000-0000-0000-000000000000"
	ownedRun(t, s, "owned-lookalike", ownerRef(other, true))

	out, err := run(t, "history", s.Name, "-o", "csv")
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "owned-1,") {
		t.Errorf("the schedule's own run is missing:\n%s", out)
	}
	for _, forged := range []string{"owned-forged", "owned-shared", "owned-lookalike"} {
		if strings.Contains(out, forged) {
			t.Errorf("history counts %s, which the schedule does not control:\n%s", forged, out)
		}
	}
	if _, err := run(t, "history", "no-such-schedule"); err == nil || !strings.Contains(err.Error(), `no PerfSchedule "no-such-schedule"`) {
		t.Errorf("a missing schedule: %v", err)
	}
}
