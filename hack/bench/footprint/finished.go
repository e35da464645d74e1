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

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess"
	"github.com/daprbench/daprbench/internal/assess/report"
	"github.com/daprbench/daprbench/internal/contract/result"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/pods/latency"
)

// finishedDocument is the result document of a finished run as the operator writes one: a
// baseline and a Dapr path over three repetitions of 10,000 requests each, log-normal
// latencies, their histograms, the judged result. Every run gets the same figures; each
// document is its own ConfigMap.
func finishedDocument(run *perfv1alpha1.PerfRun) (*perfv1alpha1.ResultDocument, error) {
	rng := rand.New(rand.NewPCG(14, 59))
	sum := result.Summary{RequestedQPS: 1000, GapUs: 16_000}
	recs := map[latency.Key]*latency.Recorded{}
	start := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	for rep := range 3 {
		for i, v := range []result.Variant{result.Baseline, result.Dapr} {
			lat := result.NewHistogram()
			var block latency.Counts
			for range 10_000 {
				us := int64(math.Exp(math.Log(float64(600+2400*i))+0.6*rng.NormFloat64())) + 1
				_ = lat.RecordValue(us)
			}
			for _, bar := range lat.Distribution() {
				if bar.Count > 0 {
					block.Values, block.Counts = append(block.Values, bar.To), append(block.Counts, bar.Count)
				}
			}
			rec := &latency.Recorded{Latency: lat, Service: lat, Lag: result.NewHistogram(), TesterLag: result.NewHistogram(), Blocks: []latency.Counts{block}}
			_ = rec.Lag.RecordValues(50, lat.TotalCount())
			recs[latency.Key{Variant: v, Rep: rep}] = rec
			sum.Runs = append(sum.Runs, result.Run{Variant: v, Rep: rep, StartUnix: start.Add(time.Duration(len(sum.Runs)) * time.Minute).Unix(),
				Seconds: 10, ActualQPS: 999.9, Requests: 10_000, Scheduled: 10_000, Codes: map[string]int64{"200": 10_000}})
		}
	}
	latency.Summarize(&sum, recs, result.StandardPercentiles)
	h, err := latency.HistogramsOf(sum.Runs, recs)
	if err != nil {
		return nil, err
	}
	a := assess.Evaluate(run, assess.Evidence{Load: assess.Load{Terminated: &corev1.ContainerStateTerminated{}, Summary: &sum}})
	var paths []perfv1alpha1.PathHistograms
	for _, p := range h.Paths {
		paths = append(paths, perfv1alpha1.PathHistograms{Path: p.Variant.String(), Variant: string(p.Variant), Latency: p.Latency, Service: p.Service})
	}
	doc := perfv1alpha1.NewResultDocument(run, a.Result, paths, nil)
	return &doc, nil
}

// createFinished creates run i, finished, with its result document kept as the operator
// keeps it: the run then holds only its status's headline, the document its figures.
func createFinished(ctx context.Context, c client.Client, i int) (int, error) {
	run := &perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: fmt.Sprintf("done-%d", i)},
		Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation, Exclusive: ptr.To(false),
			Load: perfv1alpha1.LoadSpec{QPS: 1000}, Cleanup: perfv1alpha1.CleanupNever}}
	if err := c.Create(ctx, run); err != nil {
		return 0, err
	}
	now := metav1.Now()
	run.Status = perfv1alpha1.PerfRunStatus{ObservedGeneration: run.Generation, Phase: perfv1alpha1.PhaseSucceeded, StartTime: &now, CompletionTime: &now,
		Conditions: []metav1.Condition{{Type: perfv1alpha1.ConditionSucceeded, Status: metav1.ConditionTrue, Reason: perfv1alpha1.ReasonSucceeded,
			Message: "done", ObservedGeneration: run.Generation, LastTransitionTime: now}}}
	doc, err := finishedDocument(run)
	if err != nil {
		return 0, err
	}
	enc, err := document.Encode(doc)
	if err != nil {
		return 0, err
	}
	cm := document.ConfigMap(run, enc, map[string]string{"perf.daprbench.io/run": run.Name})
	if err := controllerutil.SetControllerReference(run, cm, c.Scheme()); err != nil {
		return 0, err
	}
	if err := c.Create(ctx, cm); err != nil {
		return 0, err
	}
	h := report.StatusHeadline(doc.Result)
	h.Document, h.Digest = cm.Name, enc.Digest
	status := run.Status
	status.Result = h
	// The running manager may have written the new run's status meanwhile (its queue's
	// decision): the finished status goes over the latest.
	return len(enc.Gzip), retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, client.ObjectKeyFromObject(run), run); err != nil {
			return err
		}
		run.Status = status
		return c.Status().Update(ctx, run)
	})
}

// waitExported waits until the manager exports the figures of want finished runs (each
// read from its document): its actual_qps series, one per run.
func waitExported(url string, want int, bound time.Duration) (int, error) {
	deadline := time.Now().Add(bound)
	for {
		n := 0
		if resp, err := http.Get(url); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			n = strings.Count(string(body), `daprbench_perfrun_actual_qps{namespace="bench",perfrun="done-`)
		}
		if n >= want {
			return n, nil
		}
		if time.Now().After(deadline) {
			return n, fmt.Errorf("the figures of %d of %d finished runs exported after %v", n, want, bound)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
