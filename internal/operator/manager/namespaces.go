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
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// UsableNamespaces keeps those of namespaces (--watch-namespaces) in which the manager may
// list its runs' children, and says why it leaves out each other one. The cache starts one
// informer per namespace and kind, and waits for all of them: a namespace that was deleted
// (its Role with it) or never granted would hold the cache unsynced, and the manager would
// restart forever, for every team. Checked at start; a namespace deleted later only logs
// its informers' errors.
func UsableNamespaces(ctx context.Context, c kubernetes.Interface, namespaces []string) (usable []string, skipped map[string]string) {
	skipped = map[string]string{}
	for _, ns := range namespaces {
		if why := unusable(ctx, c, ns); why != "" {
			skipped[ns] = why
			continue
		}
		usable = append(usable, ns)
	}
	return usable, skipped
}

// unusable lists the kinds whose informers need a list right (Jobs and pods stand for the
// Role that grants them all); empty when both answer.
func unusable(ctx context.Context, c kubernetes.Interface, ns string) string {
	one := metav1.ListOptions{Limit: 1}
	if _, err := c.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); err != nil {
		// Namespaces are cluster-scoped: a manager without the right to read them goes on to
		// the lists, which say what matters.
		if !apierrors.IsForbidden(err) {
			return fmt.Sprintf("reading the namespace: %v", err)
		}
	}
	if _, err := c.BatchV1().Jobs(ns).List(ctx, one); err != nil {
		return fmt.Sprintf("listing Jobs: %v", err)
	}
	if _, err := c.CoreV1().Pods(ns).List(ctx, one); err != nil {
		return fmt.Sprintf("listing pods: %v", err)
	}
	return ""
}
