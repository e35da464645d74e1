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
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/workload"
)

// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;create;patch;delete

// roleResult labels a run's result documents.
const roleResult workload.Role = "result"

// keepResult writes run's result document — res, the histograms and profiles, the run as
// it is judged — into a new ConfigMap the run owns, and points status.result at it with
// the headline and the digest (status.lastSuccessful too, for a run that succeeded). The
// ConfigMap's name is the API server's (generateName), so no object made before the run
// can stand in for its result, and it is never written again: an edited or replaced
// document no longer matches the digest, and readers refuse it. A document larger than a
// ConfigMap holds fails the run with ResultTooLarge, its headline kept in status.
func (r *Reconciler) keepResult(ctx context.Context, run *perfv1alpha1.PerfRun, res *perfv1alpha1.Result,
	histograms []perfv1alpha1.PathHistograms, profiles *perfv1alpha1.ProfilesStatus) (*perfv1alpha1.ResultDocument, error) {
	began := time.Now()
	doc := perfv1alpha1.NewResultDocument(run, res, histograms, profiles)
	enc, err := document.Encode(&doc)
	if tooLarge := (*document.TooLarge)(nil); errors.As(err, &tooLarge) {
		run.Status.Result = report.StatusHeadline(res)
		markFailed(run, r.now(), perfv1alpha1.ReasonResultTooLarge, "%v: its headline is in status.result, the rest is lost; "+
			"measure fewer repetitions, variants or paths per run", tooLarge)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cm := document.ConfigMap(run, enc, workload.Labels(run, roleResult))
	if err := controllerutil.SetControllerReference(run, cm, r.Scheme()); err != nil {
		return nil, err
	}
	if err := r.Create(ctx, cm); err != nil {
		return nil, fmt.Errorf("keeping the result document: %w", err)
	}
	log.FromContext(ctx).Info("Kept the result document", "configMap", cm.Name, "jsonBytes", len(enc.JSON), "gzipBytes", len(enc.Gzip),
		"took", time.Since(began).Round(time.Microsecond).String())
	h := report.StatusHeadline(res)
	h.Document, h.Digest = cm.Name, enc.Digest
	run.Status.Result = h
	if c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionSucceeded); c != nil && c.Status == metav1.ConditionTrue {
		run.Status.LastSuccessful = report.Digest(h, run.Status.CompletionTime, c.Message)
	}
	return &doc, nil
}

// retireDocuments deletes the run's result documents that neither status.result,
// status.lastSuccessful nor its sweep's point names: a generation's whose result a later
// one replaced, and one a pass wrote before its status write failed.
func (r *Reconciler) retireDocuments(ctx context.Context, run *perfv1alpha1.PerfRun) error {
	var cms corev1.ConfigMapList
	if err := r.APIReader.List(ctx, &cms, client.InNamespace(run.Namespace),
		client.MatchingLabels{workload.LabelRun: run.Name, workload.LabelComponent: string(roleResult)}); err != nil {
		return fmt.Errorf("listing the run's result documents: %w", err)
	}
	keep := map[string]bool{}
	if h := run.Status.Result; h != nil {
		keep[h.Document] = true
	}
	if d := run.Status.LastSuccessful; d != nil {
		keep[d.Document] = true
	}
	if err := r.keepPointDocuments(ctx, run, keep); err != nil {
		return err
	}
	for i := range cms.Items {
		if cm := &cms.Items[i]; !keep[cm.Name] {
			if err := r.deleteChild(ctx, run, cm); err != nil {
				return err
			}
		}
	}
	return nil
}

// keepPointDocuments adds to keep the documents the sweep that made run names in its
// points: a point keeps the figures its run had when the sweep recorded it, also after a
// thresholds edit judged the run again into a new document.
func (r *Reconciler) keepPointDocuments(ctx context.Context, run *perfv1alpha1.PerfRun, keep map[string]bool) error {
	ref := metav1.GetControllerOf(run)
	if ref == nil || ref.Kind != "PerfSweep" {
		return nil
	}
	sw := &perfv1alpha1.PerfSweep{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: ref.Name}, sw); err != nil {
		return client.IgnoreNotFound(err)
	}
	for _, p := range sw.Status.Points {
		if p.Run == run.Name && p.Document != "" {
			keep[p.Document] = true
		}
	}
	return nil
}
