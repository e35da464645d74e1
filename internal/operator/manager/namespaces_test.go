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

package manager

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// A namespace deleted with its Role, or never granted, is left out: its informers would
// hold the cache unsynced and the manager would restart forever, for every team.
func TestUsableNamespacesLeavesOutWhatCannotBeListed(t *testing.T) {
	c := fake.NewClientset(
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "no-role"}})
	c.PrependReactor("list", "jobs", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetNamespace() == "no-role" {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "batch", Resource: "jobs"}, "", nil)
		}
		return false, nil, nil
	})
	usable, skipped := UsableNamespaces(context.Background(), c, []string{"team-a", "gone", "no-role"})
	if len(usable) != 1 || usable[0] != "team-a" {
		t.Errorf("usable = %v, want team-a alone", usable)
	}
	if !strings.Contains(skipped["gone"], "not found") {
		t.Errorf("a deleted namespace: %q", skipped["gone"])
	}
	if !strings.Contains(skipped["no-role"], "listing Jobs") || !strings.Contains(skipped["no-role"], "forbidden") {
		t.Errorf("a namespace without the Role: %q", skipped["no-role"])
	}
}
