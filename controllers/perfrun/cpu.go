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
	"bytes"
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/operator/usage"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// sampleCounters reads the kubelet's CPU counters of the nodes the run's pods are on into
// status.liveUsage.counters. Unreadable counters only set CPULimitBound Unknown: a run never
// fails for want of them.
func (r *Reconciler) sampleCounters(ctx context.Context, s *runScope, testers []corev1.Pod) {
	run := s.run
	if r.Counters == nil {
		return
	}
	targets, err := s.Pods(ctx, workload.RoleTarget, workload.RoleBaseline, workload.RoleStore)
	if err != nil {
		return
	}
	pods := append(slices.Clone(targets), testers...)
	containers := map[string]usage.Series{} // by container id
	var nodes []string
	for _, p := range pods {
		if p.Spec.NodeName != "" && !slices.Contains(nodes, p.Spec.NodeName) {
			nodes = append(nodes, p.Spec.NodeName)
		}
		// daprd is an init container when Dapr injects it as a native sidecar.
		for _, c := range append(slices.Clone(p.Status.InitContainerStatuses), p.Status.ContainerStatuses...) {
			if role, ok := usage.RoleOf(&p, c.Name); ok && c.ContainerID != "" {
				containers[usage.ContainerID(c.ContainerID)] = usage.Series{Role: role, Pod: p.Name}
			}
		}
	}
	if run.Status.LiveUsage == nil {
		run.Status.LiveUsage = &perfv1alpha1.LiveUsage{}
	}
	for _, node := range nodes {
		ctx, cancel := context.WithTimeout(ctx, metricsTimeout)
		text, err := r.Counters.Cadvisor(ctx, node)
		cancel()
		var samples []perfv1alpha1.CounterSample
		if err == nil {
			samples, err = usage.ParseCadvisor(bytes.NewReader(text), node, containers, r.Clock.Now())
		}
		if err != nil {
			log.FromContext(ctx).Info("Kubelet counters unavailable", "node", node, "error", err.Error())
			setCondition(run, perfv1alpha1.ConditionCPULimitBound, metav1.ConditionUnknown, perfv1alpha1.ReasonCountersUnavailable,
				fmt.Sprintf("%v; CPU throttling cannot be measured (CPU figures come from the metrics API alone)", err))
			return
		}
		usage.RecordCounters(run.Status.LiveUsage, samples)
	}
}
