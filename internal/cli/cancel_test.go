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
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// confirmCancel plays the operator: once the run carries the cancel annotation, it ends
// the run Failed, reason Cancelled.
func confirmCancel(t *testing.T, key client.ObjectKey) {
	t.Helper()
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			run := &perfv1alpha1.PerfRun{}
			if err := k8s.Get(context.Background(), key, run); err != nil {
				continue
			}
			why, ok := perfv1alpha1.CancelRequested(run.Annotations)
			if !ok {
				continue
			}
			run.Status.Phase = perfv1alpha1.PhaseFailed
			run.Status.Conditions = []metav1.Condition{{Type: perfv1alpha1.ConditionFailed, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonCancelled,
				Message: "cancelled: " + why, ObservedGeneration: run.Generation, LastTransitionTime: metav1.Now()}}
			if err := k8s.Status().Update(context.Background(), run); err == nil {
				return
			}
		}
	}()
}

// A real SIGINT to the process during run --wait cancels the run and exits 7 within
// seconds: a CI job cancelled mid-run does not leave its run holding the queue.
func TestSIGINTDuringRunWaitCancelsTheRun(t *testing.T) {
	for _, operator := range []bool{true, false} {
		base := "sigint-confirmed"
		if !operator {
			base = "sigint-unconfirmed"
		}
		var out bytes.Buffer
		done := make(chan verdict.ExitCode, 1)
		go func() {
			done <- execute(Streams{Out: &out, ErrOut: &out}, []string{"run", "-f", writeRunFile(t, base), "--wait", "-n", "default"},
				func() (client.WithWatch, error) { return k8s, nil })
		}()
		run := waitForRun(t, base)
		if operator {
			confirmCancel(t, client.ObjectKeyFromObject(run))
		}
		time.Sleep(300 * time.Millisecond) // the watch is open
		signalled := time.Now()
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case code := <-done:
			if code != verdict.ExitCancelled {
				t.Errorf("%s: exit %d, want %d\n%s", base, code, verdict.ExitCancelled, out.String())
			}
			if took := time.Since(signalled); took > 5*time.Second+time.Second {
				t.Errorf("%s: exited %v after the signal", base, took)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still waiting 10s after SIGINT\n%s", base, out.String())
		}
		got := &perfv1alpha1.PerfRun{}
		if err := k8s.Get(context.Background(), client.ObjectKeyFromObject(run), got); err != nil {
			t.Fatal(err)
		}
		if why, ok := perfv1alpha1.CancelRequested(got.Annotations); !ok || !strings.Contains(why, "interrupted") {
			t.Errorf("%s: annotations %v", base, got.Annotations)
		}
		if want := "cancelled"; !strings.Contains(out.String(), want) {
			t.Errorf("%s: output lacks %q:\n%s", base, want, out.String())
		}
		if !operator && !strings.Contains(out.String(), "had not confirmed") {
			t.Errorf("without an operator it says the cancellation is not yet confirmed:\n%s", out.String())
		}
	}
}

func waitForRun(t *testing.T, base string) *perfv1alpha1.PerfRun {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var list perfv1alpha1.PerfRunList
		if err := k8s.List(context.Background(), &list, client.InNamespace("default")); err != nil {
			t.Fatal(err)
		}
		for i := range list.Items {
			if list.Items[i].GenerateName == base+"-" {
				return &list.Items[i]
			}
		}
	}
	t.Fatalf("no run %s-… was created", base)
	return nil
}

func TestCancelAsksTheOperatorToStop(t *testing.T) {
	toCancel := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "to-cancel", Namespace: "default"},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Load: perfv1alpha1.LoadSpec{QPS: 100}}}
	if err := k8s.Create(context.Background(), toCancel); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "cancel", "to-cancel", "--reason", "wrong image"); err != nil || !strings.Contains(out, "perfrun/to-cancel cancelled") {
		t.Fatalf("cancel: %v\n%s", err, out)
	}
	got := &perfv1alpha1.PerfRun{}
	_ = k8s.Get(context.Background(), client.ObjectKeyFromObject(toCancel), got)
	if got.Annotations[perfv1alpha1.AnnotationCancel] != "wrong image" {
		t.Errorf("annotations: %v", got.Annotations)
	}
	// Someone else's cancel ends a watch with 7 too.
	confirmCancel(t, client.ObjectKeyFromObject(toCancel))
	if out, err := run(t, "watch", "to-cancel"); verdict.ExitCodeOf(err) != verdict.ExitCancelled {
		t.Errorf("watch of a cancelled run: exit %d\n%s", verdict.ExitCodeOf(err), out)
	}
	if out, err := run(t, "cancel", "to-cancel"); err == nil || !strings.Contains(err.Error(), "already finished") {
		t.Errorf("cancelling a finished run: %v\n%s", err, out)
	}
}
