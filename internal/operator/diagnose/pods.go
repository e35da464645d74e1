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

// Package diagnose reads what Kubernetes says about a run's pods and workloads — waiting
// reasons, restarts, termination messages, refusals — and puts it in a few words for a
// condition message.
package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/kit/textcut"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// StartFailure returns the kubelet's words for a container of pods that cannot start: at
// once for a reason that never resolves, after grace for a back-off. Empty: none.
func StartFailure(pods []corev1.Pod, now time.Time, grace time.Duration) string {
	for _, p := range pods {
		for _, cs := range allStatuses(&p) {
			w := cs.State.Waiting
			if w == nil {
				continue
			}
			stuck := now.Sub(p.CreationTimestamp.Time) > grace
			if slices.Contains(fatalWaiting, w.Reason) || stuck && slices.Contains(backoffWaiting, w.Reason) {
				return fmt.Sprintf("pod %s container %s (image %s): %s", p.Name, cs.Name, cs.Image, describeWaiting(cs))
			}
		}
	}
	return ""
}

// BackingOff names, at once, the first container of pods waiting in a back-off (an image
// it cannot pull, a crash loop), in the kubelet's words: while a run waits for its workloads
// a user sees why before StartFailure's grace ends it. Empty: none.
func BackingOff(pods []corev1.Pod) string {
	for _, p := range pods {
		for _, cs := range allStatuses(&p) {
			if w := cs.State.Waiting; w != nil && slices.Contains(backoffWaiting, w.Reason) {
				return fmt.Sprintf("pod %s container %s (image %s) is in %s", p.Name, cs.Name, cs.Image, describeWaiting(cs))
			}
		}
	}
	return ""
}

// Unschedulable names the first pod the scheduler has found no node for since longer than
// grace (a cluster autoscaler may add one meanwhile), in the scheduler's words, with a hint
// when CPU is short: Kubernetes makes a container with a limit and no request request its
// limit, so daprd with only dapr.io/sidecar-cpu-limit reserves all of it. Empty: none.
func Unschedulable(pods []corev1.Pod, now time.Time, grace time.Duration) string {
	for _, p := range pods {
		for _, c := range p.Status.Conditions {
			if c.Type != corev1.PodScheduled || c.Status != corev1.ConditionFalse || c.Reason != corev1.PodReasonUnschedulable ||
				now.Sub(c.LastTransitionTime.Time) <= grace {
				continue
			}
			msg := fmt.Sprintf("pod %s found no node for %v: %s", p.Name, now.Sub(c.LastTransitionTime.Time).Round(time.Second), c.Message)
			if strings.Contains(c.Message, "Insufficient cpu") && SidecarImage(&p) != "" {
				msg += "; a daprd with a cpuLimit and no cpuRequest requests its whole limit: set dapr.sidecar.cpuRequest " +
					"(or the variant's sidecar.cpuRequest), e.g. 100m"
			}
			return msg
		}
	}
	return ""
}

// MissingSidecar names the first pod that asked for a sidecar (dapr.io/enabled) and has no
// daprd container (init containers included: native sidecars live there). Empty: none.
func MissingSidecar(pods []corev1.Pod) string {
	for _, p := range pods {
		if p.Annotations[workload.AnnotationDaprEnabled] == "true" && SidecarImage(&p) == "" {
			return p.Name
		}
	}
	return ""
}

// SidecarImage is the image of p's daprd container, empty when it has none.
func SidecarImage(p *corev1.Pod) string {
	for _, c := range append(slices.Clone(p.Spec.InitContainers), p.Spec.Containers...) {
		if c.Name == workload.ContainerDaprd {
			return c.Image
		}
	}
	return ""
}

// Describe says where pods stand, in the kubelet's own words, for timeout messages.
func Describe(pods []corev1.Pod) string {
	if len(pods) == 0 {
		return "no pod was created (see the events of the Deployment or Job)"
	}
	var parts []string
	for _, p := range pods {
		var cs []string
		for _, s := range allStatuses(&p) {
			switch {
			case s.State.Waiting != nil:
				cs = append(cs, fmt.Sprintf("%s %s", s.Name, describeWaiting(s)))
			case s.State.Terminated != nil:
				cs = append(cs, fmt.Sprintf("%s terminated: %s (exit %d)", s.Name, s.State.Terminated.Reason, s.State.Terminated.ExitCode))
			case s.State.Running != nil && !s.Ready:
				cs = append(cs, s.Name+" running, not ready")
			}
		}
		if len(cs) == 0 {
			cs = append(cs, podConditionSummary(&p))
		}
		parts = append(parts, fmt.Sprintf("pod %s (%s): %s", p.Name, p.Status.Phase, strings.Join(cs, "; ")))
	}
	return strings.Join(parts, " | ")
}

func describeWaiting(s corev1.ContainerStatus) string {
	w := s.State.Waiting
	msg := w.Reason
	if w.Message != "" {
		msg += ": " + w.Message
	}
	if t := s.LastTerminationState.Terminated; t != nil {
		msg += fmt.Sprintf(" (last exit %d %s", t.ExitCode, t.Reason)
		if t.Message != "" {
			msg += ": " + textcut.Truncate(t.Message, 300)
		}
		msg += ")"
	}
	return msg
}

func podConditionSummary(p *corev1.Pod) string {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status != corev1.ConditionTrue {
			return "unschedulable: " + c.Message
		}
	}
	return "no container status yet"
}

// allStatuses returns init and regular container statuses: with native sidecars
// (dapr.io/enable-native-sidecar) daprd is an init container.
func allStatuses(p *corev1.Pod) []corev1.ContainerStatus {
	return append(slices.Clone(p.Status.InitContainerStatuses), p.Status.ContainerStatuses...)
}

// TerminationMessage is what container wrote to its termination log.
func TerminationMessage(p *corev1.Pod, container string) (msg string, terminated *corev1.ContainerStateTerminated) {
	for _, s := range p.Status.ContainerStatuses {
		if s.Name == container && s.State.Terminated != nil {
			return s.State.Terminated.Message, s.State.Terminated
		}
	}
	return "", nil
}

// Restarts counts container Restarts of the run's pods per role.
func Restarts(target, tester []corev1.Pod) *perfv1alpha1.Restarts {
	out := &perfv1alpha1.Restarts{}
	for _, p := range target {
		for _, s := range allStatuses(&p) {
			if s.Name == workload.ContainerDaprd {
				out.Sidecar += s.RestartCount
			} else {
				out.App += s.RestartCount
			}
		}
	}
	for _, p := range tester {
		for _, s := range allStatuses(&p) {
			out.LoadTester += s.RestartCount
		}
	}
	return out
}

// Waiting reasons that never resolve by themselves, and those that may (for a while).
var (
	fatalWaiting   = []string{"InvalidImageName", "ErrImageNeverPull"}
	backoffWaiting = []string{"ImagePullBackOff", "ErrImagePull", "CrashLoopBackOff",
		"CreateContainerConfigError", "CreateContainerError", "RunContainerError"}
)
