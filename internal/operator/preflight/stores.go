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

package preflight

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// ActorStoreRefusal refuses, with StateStoreNotFound, an actor state store the run names at
// field (spec.actors.stateStore, spec.workflow.stateStore) that does not exist in its
// namespace; an empty name is the in-memory store the run creates.
func ActorStoreRefusal(ctx context.Context, c Cluster, run *perfv1alpha1.PerfRun, field, name string) (reason, msg string, err error) {
	if name == "" {
		return "", "", nil
	}
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(workload.ComponentGVK)
	err = c.Cached.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, store)
	if apierrors.IsNotFound(err) {
		return perfv1alpha1.ReasonStateStoreNotFound, fmt.Sprintf("%s names Component %q, which does not exist in namespace %q: create it "+
			"(with metadata actorStateStore: \"true\") or leave stateStore empty for an in-memory one", field, name, run.Namespace), nil
	}
	return "", "", err
}
