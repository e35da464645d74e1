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
	"context"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/diagnose"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// waitForWorkloads holds the run until the target (and baseline twin) are Available, and
// fails it when one of their containers cannot start.
func (r *Reconciler) waitForWorkloads(ctx context.Context, s *runScope) (stepResult, error) {
	run := s.run
	if run.ConditionTrue(perfv1alpha1.ConditionWorkloadsReady) {
		return proceed, nil
	}
	want := workload.WaitedDeployments(run)
	var waiting []string
	for _, name := range want {
		d := &appsv1.Deployment{}
		err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, d)
		switch {
		case apierrors.IsNotFound(err):
			waiting = append(waiting, name+" (not in the cache yet)")
		case err != nil:
			return proceed, err
		case !deploymentAvailable(d):
			if refusal := diagnose.DeploymentRefusal(d); refusal != "" {
				return r.refused(run, "Deployment "+name, refusal, d.CreationTimestamp, func(msg string) {
					setWorkloadsReady(run, false, perfv1alpha1.ReasonPodsRefused, msg)
				}), nil
			}
			waiting = append(waiting, fmt.Sprintf("%s (%d/%d available)", name, d.Status.AvailableReplicas, ptr.Deref(d.Spec.Replicas, 1)))
		}
	}
	pods, err := s.Pods(ctx, workload.RoleTarget, workload.RoleBaseline, workload.RoleStore)
	if err != nil {
		return proceed, err
	}
	if pod := diagnose.MissingSidecar(pods); pod != "" {
		setWorkloadsReady(run, false, perfv1alpha1.ReasonSidecarNotInjected, "pod "+pod+" has no "+workload.ContainerDaprd+" container")
		return r.failNotInjected(run, "target", pod), nil
	}
	if len(waiting) == 0 {
		r.recordNodes(run, pods, nil)
		setWorkloadsReady(run, true, perfv1alpha1.ReasonWorkloadsAvailable, "Deployments "+strings.Join(want, ", ")+" are Available")
		return proceed, nil
	}
	if reason, what, failure := r.cannotStart(pods); failure != "" {
		setWorkloadsReady(run, false, reason, failure)
		markFailed(run, r.now(), reason, "the target %s: %s", what, failure)
		return stopHere, nil
	}
	msg := "waiting for Deployments to become Available: " + strings.Join(waiting, ", ")
	if b := diagnose.BackingOff(pods); b != "" {
		msg += fmt.Sprintf("; %s (the run fails ImageNotStarting if it lasts %v)", b, r.ImageStartGrace)
	}
	setWorkloadsReady(run, false, perfv1alpha1.ReasonProvisioning, msg)
	return waitFor(r.PollInterval), nil
}

// deploymentAvailable is true once the current spec is rolled out and Available.
func deploymentAvailable(d *appsv1.Deployment) bool {
	if d.Status.ObservedGeneration < d.Generation {
		return false
	}
	replicas := ptr.Deref(d.Spec.Replicas, 1)
	if d.Status.UpdatedReplicas < replicas || d.Status.AvailableReplicas < replicas {
		return false
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentAvailable {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// recordNodes notes where the target (a State run's store) and the load tester run (placement is a methodology
// choice: it belongs in the result), and which sidecar image the target got.
// podPlace names a pod, its IP and its node, e.g. "run-target-7f9c (10.244.0.12) on node-a".
func podPlace(p *corev1.Pod) string {
	return fmt.Sprintf("%s (%s) on %s", p.Name, p.Status.PodIP, p.Spec.NodeName)
}

// firstTargetPod is the running pod of the first sidecar variant's target, which a same-pod
// baseline calls by IP; nil while there is none with an IP.
func firstTargetPod(pods []corev1.Pod) *corev1.Pod { return runningTargetPod(pods, result.Dapr) }

// variantTargetIPs are the IPs of the further sidecar variants' running target pods (d1,
// d2, …, in spec order); all is false while one has none with an IP.
func variantTargetIPs(run *perfv1alpha1.PerfRun, pods []corev1.Pod) (ips []string, all bool) {
	for i := 1; i < len(run.Spec.Variants); i++ {
		p := runningTargetPod(pods, result.DaprVariant(i))
		if p == nil {
			return nil, false
		}
		ips = append(ips, p.Status.PodIP)
	}
	return ips, true
}

// runningTargetPod is a running target pod with an IP of the variant whose path code is
// code; the first variant's pods carry no variant label in a run without spec.variants.
func runningTargetPod(pods []corev1.Pod, code result.Variant) *corev1.Pod {
	for i := range pods {
		p := &pods[i]
		if p.Labels[workload.LabelComponent] != string(workload.RoleTarget) || p.DeletionTimestamp != nil ||
			p.Status.Phase != corev1.PodRunning || p.Status.PodIP == "" {
			continue
		}
		if v := p.Labels[workload.LabelVariant]; v == string(code) || (v == "" && code == result.Dapr) {
			return p
		}
	}
	return nil
}

func (r *Reconciler) recordNodes(run *perfv1alpha1.PerfRun, targetPods, testerPods []corev1.Pod) {
	env := run.Status.Environment
	if env == nil {
		env = &perfv1alpha1.Environment{}
		run.Status.Environment = env
	}
	for _, p := range targetPods {
		if p.Labels[workload.LabelComponent] == string(workload.RoleStore) && p.Spec.NodeName != "" && env.TargetNode == "" {
			env.TargetNode = p.Spec.NodeName // a State run's load ends at its store
		}
		if p.Labels[workload.LabelComponent] == string(workload.RoleBaseline) && p.Spec.NodeName != "" && env.BaselinePod == "" {
			env.BaselinePod = podPlace(&p)
		}
		if p.Labels[workload.LabelComponent] != string(workload.RoleTarget) {
			continue // the baseline twin
		}
		if v := p.Labels[workload.LabelVariant]; v != "" && v != string(result.Dapr) {
			continue // a further sidecar variant's target: the first one's is recorded
		}
		if p.Spec.NodeName != "" && env.TargetNode == "" {
			env.TargetNode = p.Spec.NodeName
		}
		if img := diagnose.SidecarImage(&p); img != "" && env.SidecarImage == "" {
			env.SidecarImage = img
		}
	}
	for _, p := range testerPods {
		// A group's pods may sit on several nodes: loadTesterNodes has each (the queue holds
		// them all); loadTesterNode names the leader's.
		if p.Spec.NodeName == "" {
			continue
		}
		if leadsGroup(&p) && env.LoadTesterNode == "" {
			env.LoadTesterNode = p.Spec.NodeName
		}
		if !slices.Contains(env.LoadTesterNodes, p.Spec.NodeName) {
			env.LoadTesterNodes = append(env.LoadTesterNodes, p.Spec.NodeName)
			slices.Sort(env.LoadTesterNodes)
		}
	}
	if env.TargetNode != "" && env.LoadTesterNode != "" {
		env.SameNode = ptr.To(env.TargetNode == env.LoadTesterNode)
	}
	recordCalibration(env, run.Spec.Dapr.Sidecar, append(slices.Clone(targetPods), testerPods...))
}
