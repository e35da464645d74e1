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

package v1alpha1

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// A run belongs to a schedule or sweep only by a controller reference of this group and
// that kind: a copied UID under another kind or group (which admission does not reserve)
// or a reference that is not the controller is not theirs.
func TestControlledByNeedsTheOwnersGroupKindAndUID(t *testing.T) {
	sched := &PerfSchedule{ObjectMeta: metav1.ObjectMeta{Name: "nightly", UID: types.UID("u-1")}}
	ref := func(apiVersion, kind string, uid types.UID, controller bool) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: "nightly", UID: uid, Controller: ptr.To(controller)}
	}
	for _, c := range []struct {
		name string
		ref  metav1.OwnerReference
		want bool
	}{
		{"the operator's reference", ref(GroupVersion.String(), "PerfSchedule", "u-1", true), true},
		{"another version of the group", ref("perf.daprbench.io/v1beta1", "PerfSchedule", "u-1", true), true},
		{"another group", ref("x.example/v1", "PerfSchedule", "u-1", true), false},
		{"the group in upper case", ref("PERF.daprbench.io/v1alpha1", "PerfSchedule", "u-1", true), false},
		{"another kind", ref(GroupVersion.String(), "PerfSweep", "u-1", true), false},
		{"another UID", ref(GroupVersion.String(), "PerfSchedule", "u-2", true), false},
		{"not the controller", ref(GroupVersion.String(), "PerfSchedule", "u-1", false), false},
	} {
		run := &PerfRun{ObjectMeta: metav1.ObjectMeta{OwnerReferences: []metav1.OwnerReference{c.ref}}}
		if got := run.ControlledBy(sched, "PerfSchedule"); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
