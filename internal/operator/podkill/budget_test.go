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

package podkill

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A run gets as many kills as its measured phases, one at a time; a new generation measures
// again; a run's entry goes a day after its last kill.
func TestARunIsServedAsManyKillsAsItsPhasesOneAtATime(t *testing.T) {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "ns", UID: "u1", Generation: 1},
		Spec: perfv1alpha1.PerfRunSpec{Load: perfv1alpha1.LoadSpec{Repetitions: 2}}}
	var b budget
	now := time.Unix(1000, 0)
	release, err := b.take(run, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.take(run, now); err == nil || !strings.Contains(err.Error(), "a kill under way") {
		t.Errorf("a second kill while one is under way: %v", err)
	}
	release()
	release, err = b.take(run, now)
	if err != nil {
		t.Fatalf("the second phase's kill: %v", err)
	}
	release()
	if _, err := b.take(run, now); err == nil || !strings.Contains(err.Error(), "has had its 2 kills") {
		t.Errorf("a third kill of a 2-repetition run: %v", err)
	}
	next := run.DeepCopy()
	next.Generation = 2
	if release, err := b.take(next, now); err != nil {
		t.Errorf("a new generation's first kill: %v", err)
	} else {
		release()
	}
	other := run.DeepCopy()
	other.UID = "u2"
	if release, err := b.take(other, now.Add(25*time.Hour)); err != nil {
		t.Errorf("another run's kill: %v", err)
	} else {
		release()
	}
	if len(b.runs) != 1 {
		t.Errorf("%d runs kept, want the one killed in the last day", len(b.runs))
	}
}
