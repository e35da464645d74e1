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

package usage

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/roles"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// Sampler reads the metrics API for a run.
type Sampler struct {
	Client metricsclient.Interface
	// ControlPlaneNamespace is where Dapr's control plane runs (the operator's setting).
	ControlPlaneNamespace string
}

// Sample lists the pod metrics of the run's pods (and, with Dapr, of the control plane) and
// records every window not seen before, ending from since on, in live. It returns how many
// windows were new; an error is the metrics API's own, for the condition that reports it.
func (s *Sampler) Sample(ctx context.Context, run *perfv1alpha1.PerfRun, live *perfv1alpha1.LiveUsage, since time.Time) (int, error) {
	sel := labels.SelectorFromSet(labels.Set{workload.LabelRun: run.Name}).String()
	pods, err := s.Client.MetricsV1beta1().PodMetricses(run.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return 0, fmt.Errorf("listing pod metrics in %s: %w", run.Namespace, err)
	}
	readings := map[string]Reading{}
	for role, r := range DataPlane(pods.Items, since) {
		readings[string(role)] = r
	}
	if run.Spec.DaprEnabled() {
		ns := s.ControlPlaneNamespace
		cp, err := s.Client.MetricsV1beta1().PodMetricses(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return Record(live, readings), fmt.Errorf("listing pod metrics of the control plane in %s: %w", ns, err)
		}
		for component, r := range ControlPlane(cp.Items, since) {
			readings[roles.ControlPlanePrefix+component] = r
		}
	}
	return Record(live, readings), nil
}
