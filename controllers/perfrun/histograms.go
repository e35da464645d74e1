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
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// PodLogs reads the end of a container's log.
type PodLogs interface {
	Tail(ctx context.Context, namespace, pod, container string) ([]byte, error)
}

// APIServerLogs reads logs through the API server, which has the kubelet serve them.
type APIServerLogs struct{ Client corev1client.CoreV1Interface }

// runtimeLogLineBytes is the longest log line a container runtime writes whole (containerd's
// max_container_log_line_size, 16 KiB by default): a longer one is stored as several
// partial lines, and the kubelet counts each of them as a line of TailLines.
const runtimeLogLineBytes = 16 << 10

// histogramsTailLines is enough lines for the largest histograms line and the two profile
// lines before it (spec.profiling), split as the runtime splits them, and the stderr lines
// that may follow.
const histogramsTailLines = (result.MaxHistogramsBytes+2*result.MaxProfileLineBytes)/runtimeLogLineBytes + 32

// Tail reads the last lines of the log, at most a few MiB: the histograms line is last
// on stdout, and a few stderr lines may follow it.
func (l APIServerLogs) Tail(ctx context.Context, namespace, pod, container string) ([]byte, error) {
	return l.Client.Pods(namespace).GetLogs(pod, &corev1.PodLogOptions{Container: container,
		TailLines: ptr.To(int64(histogramsTailLines)), LimitBytes: ptr.To[int64](8 * result.MaxHistogramsBytes)}).DoRaw(ctx)
}

// +kubebuilder:rbac:groups="",resources=pods/log,verbs=get
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;create;patch

// keepHistograms copies each path's full histograms from the load tester leader's log into
// the ConfigMap <run>-histograms (owned by the run, deleted with it; cleanup keeps it, as it
// keeps status.result) and names it in status.histograms. It reports whether the run is
// done with its histograms: kept now or before, or no log source. A run whose log cannot
// be read keeps its result; only the raw export and the report's distribution chart go
// without.
func (r *Reconciler) keepHistograms(ctx context.Context, run *perfv1alpha1.PerfRun, testers []corev1.Pod) bool {
	name := workload.NamesFor(run).Histograms
	if r.Logs == nil || run.Status.Histograms == name && run.Status.HistogramsGeneration == run.Generation {
		return true
	}
	logger := log.FromContext(ctx)
	pod, raw, ok := r.leaderLog(ctx, run, testers, "histograms")
	if !ok {
		return false
	}
	h, ok, err := result.FindHistograms(raw)
	if err != nil || !ok {
		logger.Info("The load tester's log holds no histograms", "pod", pod, "error", err)
		return false
	}
	// The log is the load tester's word, and the variant codes become file names in the
	// plugin's export: only what the load tester can have written is kept.
	if err := h.Check(); err != nil {
		logger.Info("The load tester's histograms are not its own; not kept", "pod", pod, "error", err.Error())
		r.memory.histogramsDone(run)
		return true
	}
	if err := r.apply(ctx, run, histogramsConfigMap(run, name, h)); err != nil {
		logger.Info("Cannot keep the histograms", "configMap", name, "error", err.Error())
		return false
	}
	run.Status.Histograms, run.Status.HistogramsGeneration = name, run.Generation
	r.memory.histogramsDone(run)
	return true
}

// leaderLog reads the end of the log of the load tester that holds the whole result (a
// group's pod 0), for what, and says whether it could: false when no such pod is listed
// or its log cannot be read (logged).
func (r *Reconciler) leaderLog(ctx context.Context, run *perfv1alpha1.PerfRun, testers []corev1.Pod, what string) (pod string, raw []byte, ok bool) {
	for i := range testers {
		if !leadsGroup(&testers[i]) {
			continue
		}
		raw, err := r.Logs.Tail(ctx, run.Namespace, testers[i].Name, workload.ContainerTester)
		if err != nil {
			log.FromContext(ctx).Info("Cannot read the load tester's log for its "+what, "pod", testers[i].Name, "error", err.Error())
			return testers[i].Name, nil, false
		}
		return testers[i].Name, raw, true
	}
	return "", nil, false
}

// HistogramsRetries is how many more polls a finished load waits for its histograms: a
// log read through the API server and the kubelet can fail for a moment, and a run
// concluded without them cannot get them back (its pods go).
const HistogramsRetries = 3

// retryHistograms reports whether to look for run's histograms again on the next poll,
// counting the tries; after the last it forgets the run and the run concludes without.
func (r *Reconciler) retryHistograms(ctx context.Context, run *perfv1alpha1.PerfRun) bool {
	if r.memory.histogramTry(run) < HistogramsRetries {
		return true
	}
	r.memory.histogramsDone(run)
	log.FromContext(ctx).Info("Concluding the run without its histograms", "tries", HistogramsRetries+1)
	return false
}

// histogramsConfigMap is the ConfigMap, unstructured so applying it reads nothing through
// the cache (which holds no ConfigMaps).
func histogramsConfigMap(run *perfv1alpha1.PerfRun, name string, h result.Histograms) *unstructured.Unstructured {
	body, _ := h.Line() // bounded when read; re-encoding what was read cannot grow it
	cm := &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: run.Namespace,
			Labels:      map[string]string{workload.LabelRun: run.Name},
			Annotations: map[string]string{perfv1alpha1.GroupVersion.Group + "/generation": strconv.FormatInt(run.Generation, 10)}},
		Data: map[string]string{result.HistogramsKey: body[len(result.HistogramsPrefix):]},
	}
	obj, _ := runtime.DefaultUnstructuredConverter.ToUnstructured(cm)
	return &unstructured.Unstructured{Object: obj}
}
