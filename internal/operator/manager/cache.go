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
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"

	"github.com/daprbench/daprbench/internal/operator/workload"
)

// CacheOptions limits the manager's informers for the kinds a run creates to the objects
// that carry perf.daprbench.io/run (every child does), so the manager's memory follows its
// runs, not the cluster: unrelated pods, Deployments, Services and Jobs are never cached.
// Anything else of those kinds is read past the cache (APIReader).
//
// newInformer is LenientInformers' (nil: controller-runtime's own). namespaces, when
// given (--watch-namespaces, the chart's namespaced mode), limits those informers to the
// namespaces the manager's Roles cover; daprbench's own kinds stay cached cluster-wide,
// which its ClusterRole allows (see internal/operator/rbacscope).
func CacheOptions(newInformer func(toolscache.ListerWatcher, runtime.Object, time.Duration, toolscache.Indexers) toolscache.SharedIndexInformer, namespaces []string) cache.Options {
	req, err := labels.NewRequirement(workload.LabelRun, selection.Exists, nil)
	if err != nil {
		panic(err) // a constant label key: cannot fail
	}
	owned := cache.ByObject{Label: labels.NewSelector().Add(*req)}
	if len(namespaces) > 0 {
		owned.Namespaces = map[string]cache.Config{}
		for _, ns := range namespaces {
			owned.Namespaces[ns] = cache.Config{}
		}
	}
	// The manager never reads managedFields (it applies its own desired state), and they are
	// often the larger half of an object: not kept.
	return cache.Options{NewInformer: newInformer, DefaultTransform: cache.TransformStripManagedFields(), ByObject: map[client.Object]cache.ByObject{
		&corev1.Pod{}:                 owned,
		&appsv1.Deployment{}:          owned,
		&appsv1.ReplicaSet{}:          owned,
		&corev1.Service{}:             owned,
		&batchv1.Job{}:                owned,
		&corev1.ServiceAccount{}:      owned,
		&networkingv1.NetworkPolicy{}: owned,
	}}
}

// ControllerOptions are the manager's controller settings. Several workers, so one run
// whose reconcile is slow (a metrics API that hangs until metricsTimeout, a slow API
// server) never holds up the others; a bound on every reconcile, so a call that hangs
// past its own timeout still frees its worker.
func ControllerOptions(workers int) config.Controller {
	return config.Controller{MaxConcurrentReconciles: workers, ReconciliationTimeout: reconcileTimeout}
}

// reconcileTimeout bounds one reconcile: far above metricsTimeout plus a few API calls.
const reconcileTimeout = time.Minute
