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

// Package exporter publishes finished runs' results as Prometheus metrics on the manager's
// metrics endpoint (controller-runtime's registry).
package exporter

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/retry"
)

// The latest result of every PerfRun, on the manager's metrics endpoint (controller-runtime's
// registry), so Prometheus keeps the history of scheduled runs and Grafana plots it. A run's
// series go when the run is deleted; its schedule's (schedules.go) stay.

var runLabels = []string{"namespace", "perfrun", "schedule"}

var (
	// runGauge is every family's per-run gauge, daprbench_perfrun_<name>.
	runGauge = func() map[*family]*prometheus.GaugeVec {
		out := map[*family]*prometheus.GaugeVec{}
		for _, f := range families {
			out[f] = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "daprbench_perfrun_" + f.name, Help: f.help},
				append(append([]string{}, runLabels...), f.labels...))
		}
		return out
	}()
	metricScheduleInterval = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "daprbench_perfschedule_interval_seconds", Help: "Time between a PerfSchedule's upcoming slots; absent while it is suspended or invalid.",
	}, []string{"namespace", "schedule"})
	metricOutcomesTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "daprbench_perfrun_outcomes_total", Help: "Finished runs by namespace, phase and reason, since the manager started.",
	}, []string{"namespace", "phase", "reason"})

	registerOnce sync.Once
)

func Register() {
	registerOnce.Do(func() { metrics.Registry.MustRegister(Collectors()...) })
}

// RecordScheduleInterval exports the time between a schedule's upcoming slots.
func RecordScheduleInterval(namespace, schedule string, interval time.Duration) {
	metricScheduleInterval.WithLabelValues(namespace, schedule).Set(interval.Seconds())
}

// ForgetScheduleInterval drops a schedule's interval: suspended or invalid, it is stopped on
// purpose (its history stays: ForgetSchedule is for a deleted schedule).
func ForgetScheduleInterval(namespace, schedule string) {
	metricScheduleInterval.DeleteLabelValues(namespace, schedule)
}

// Forget drops every series of a run.
func Forget(namespace, name string) {
	for _, f := range families {
		runGauge[f].DeletePartialMatch(prometheus.Labels{"namespace": namespace, "perfrun": name})
	}
	recorded.Delete(runKey{namespace, name})
}

// recorded is, per run, what its series were made of (its status's resource version), so a
// finished run reconciled again is not read again.
var recorded sync.Map // runKey → string

type runKey struct{ namespace, name string }

// Collectors are every metric the manager can export, series or not.
func Collectors() []prometheus.Collector {
	out := []prometheus.Collector{metricOutcomesTotal, metricScheduleInterval, scheduleCollector}
	for _, f := range families {
		out = append(out, runGauge[f])
	}
	return out
}

// Record exports a finished run's result, read from its document through c; it replaces
// whatever the run exported before. A run whose series are of its current status already
// is not read again. A read that failed for a moment (retry.Transient) changes nothing and
// is returned, for the caller to try again; a document that cannot be read at all leaves
// the run's state figures alone exported (its outcome, completion, disturbances), and the
// error is returned.
func Record(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun) error {
	if !run.Finished() {
		return nil
	}
	if v, ok := recorded.Load(runKey{run.Namespace, run.Name}); ok && v == run.ResourceVersion && run.ResourceVersion != "" {
		return nil
	}
	res, err := resultOf(ctx, c, run)
	if retry.Transient(err) {
		return err
	}
	Forget(run.Namespace, run.Name)
	identity := []string{run.Namespace, run.Name, run.Labels[perfv1alpha1.LabelSchedule]}
	for _, f := range figuresOf(run, res) {
		runGauge[f.fam].WithLabelValues(append(append([]string{}, identity...), f.values...)...).Set(f.value)
	}
	if err == nil {
		recorded.Store(runKey{run.Namespace, run.Name}, run.ResourceVersion)
	}
	return err
}

// resultOf is a finished run's result from its document; nil, without an error, for a run
// that has none (it failed before measuring).
func resultOf(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun) (*perfv1alpha1.Result, error) {
	if h := run.Status.Result; h == nil || h.Document == "" || h.Generation != run.Generation {
		return nil, nil
	}
	doc, _, err := document.Read(ctx, c, run)
	if err != nil {
		return nil, err
	}
	return doc.Result, nil
}

// CountOutcome counts a run that has just finished.
func CountOutcome(run *perfv1alpha1.PerfRun) {
	metricOutcomesTotal.WithLabelValues(run.Namespace, string(run.Status.Phase), outcomeReason(run)).Inc()
}

// outcomeReason is the reason of the Failed or Succeeded condition that is True (Succeeded
// or Saturated), or Succeeded.
func outcomeReason(run *perfv1alpha1.PerfRun) string {
	for _, t := range []string{perfv1alpha1.ConditionFailed, perfv1alpha1.ConditionSucceeded} {
		if c := meta.FindStatusCondition(run.Status.Conditions, t); c != nil && c.Status == metav1.ConditionTrue {
			return c.Reason
		}
	}
	return perfv1alpha1.ReasonSucceeded
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
