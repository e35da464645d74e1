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
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/retry"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// +kubebuilder:rbac:groups="",resources=pods/log,verbs=get

// PodLogs reads the end of a container's log: at most lines lines and limitBytes bytes.
type PodLogs interface {
	Tail(ctx context.Context, namespace, pod, container string, lines, limitBytes int64) ([]byte, error)
}

// APIServerLogs reads logs through the API server (pods/log), which has the kubelet serve
// them: the operator's own right, on the run's own pod, so no other pod can speak for it.
type APIServerLogs struct{ Client corev1client.CoreV1Interface }

// Tail reads the last lines of the log.
func (l APIServerLogs) Tail(ctx context.Context, namespace, pod, container string, lines, limitBytes int64) ([]byte, error) {
	return l.Client.Pods(namespace).GetLogs(pod, &corev1.PodLogOptions{Container: container,
		TailLines: ptr.To(lines), LimitBytes: ptr.To(limitBytes)}).DoRaw(ctx)
}

const (
	// ReportRetries is how many more polls a finished load waits for a report its log does
	// not hold whole or that does not check (a runtime may be slow to flush the log's end).
	ReportRetries = 3
	// ReportPatience is how long a log read that fails for a moment (the API server or the
	// kubelet unreachable, throttled) is tried again: a run concluded without its report
	// cannot get it back (its pods go), and the pods stay while it waits.
	ReportPatience = 10 * time.Minute
)

// readReport is the report the leader's termination message points to, read from the end
// of its log once and checked against the pointer (kept in the run's memory for the passes
// that follow). A pointer without a frame (the load tester failed before it measured
// anything) gives a report of its error alone. wait asks for another poll; lost says why
// the report cannot be had, after the retries.
func (r *Reconciler) readReport(ctx context.Context, run *perfv1alpha1.PerfRun, testers []corev1.Pod, p result.Pointer) (rep *result.Report, lost error, wait bool) {
	if p.Frame == nil {
		return &result.Report{Summary: result.Summary{Error: p.Error}}, nil, false
	}
	if rep := r.memory.report(run, p.Frame.Digest); rep != nil {
		return rep, nil, false
	}
	if p.Frame.Bytes > result.MaxReportBytes {
		return nil, &result.FrameTooLarge{Bytes: p.Frame.Bytes, Limit: result.MaxReportBytes}, false
	}
	pod, err := r.leaderPod(testers)
	var raw []byte
	if err == nil {
		raw, err = r.Logs.Tail(ctx, run.Namespace, pod, workload.ContainerTester, p.Frame.TailLines(), p.Frame.LimitBytes())
	}
	var got result.Report
	if err == nil {
		got, err = result.ReadFrame(raw, *p.Frame)
	}
	if err == nil {
		r.memory.keepReport(run, p.Frame.Digest, &got)
		return &got, nil, false
	}
	now := r.Clock.Now()
	tries, first := r.memory.reportMiss(run, now)
	log.FromContext(ctx).Info("Cannot read the load tester's report", "pod", pod, "try", tries+1, "error", err.Error())
	switch {
	case errors.As(err, new(*result.FrameTooLarge)):
	case retry.Transient(err) && now.Sub(first) < ReportPatience:
		return nil, nil, true
	case tries < ReportRetries:
		return nil, nil, true
	}
	return nil, fmt.Errorf("in %d tries: %w", tries+1, err), false
}

// leaderPod is the load-tester pod that holds the whole report (a group's pod 0).
func (r *Reconciler) leaderPod(testers []corev1.Pod) (string, error) {
	if r.Logs == nil {
		return "", errors.New("this operator reads no pod logs (no log reader is configured)")
	}
	for i := range testers {
		if leadsGroup(&testers[i]) {
			return testers[i].Name, nil
		}
	}
	return "", errors.New("the load tester's leader pod is gone")
}
