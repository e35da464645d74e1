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

package exporter

import (
	"context"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// A schedule's history, exported by the manager rather than left to recording rules: per
// schedule and figure, the figure of the schedule's latest finished run, as
// daprbench_perfschedule_<family>{namespace,schedule,<family's labels>}. One series per
// figure whatever run produced it, so Prometheus keeps one trend line per figure instead of
// a short flat line per run; it stays when the run is pruned or deleted, and goes only when
// the schedule is deleted. A recording rule could not do this: it sees only the runs'
// series, which vanish with the runs, and it cannot tell a pruned run from a deleted schedule.
//
// A collector of constant metrics rather than gauges, so that replacing one run's figures
// by the next run's is a single swap a concurrent scrape never sees half done.
type scheduleHistory struct {
	mu     sync.RWMutex
	latest map[scheduleKey][]figure
	// of is the run (name@resourceVersion) latest's figures are of.
	of    map[scheduleKey]string
	descs map[*family]*prometheus.Desc
}

type scheduleKey struct{ namespace, name string }

var scheduleCollector = func() *scheduleHistory {
	h := &scheduleHistory{latest: map[scheduleKey][]figure{}, of: map[scheduleKey]string{}, descs: map[*family]*prometheus.Desc{}}
	for _, f := range families {
		h.descs[f] = prometheus.NewDesc("daprbench_perfschedule_"+f.name,
			"Of the PerfSchedule's latest finished run, kept when its runs are pruned, until the schedule is deleted. "+f.help,
			append([]string{"namespace", "schedule"}, f.labels...), nil)
	}
	return h
}()

// RecordSchedule makes latest's figures, read from its document through c, the schedule's
// history. The caller passes the schedule's latest finished run (its slot order), or nil
// when none remains, which keeps what was exported: pruning the runs must not end the
// trend. An unfinished run changes nothing, and the history's run is not read again.
func RecordSchedule(ctx context.Context, c client.Reader, namespace, schedule string, latest *perfv1alpha1.PerfRun) error {
	if latest == nil || !latest.Finished() {
		return nil
	}
	key := scheduleKey{namespace, schedule}
	scheduleCollector.mu.RLock()
	was := scheduleCollector.of[key]
	scheduleCollector.mu.RUnlock()
	if was == latest.Name+"@"+latest.ResourceVersion && latest.ResourceVersion != "" {
		return nil
	}
	res, err := resultOf(ctx, c, latest)
	figs := figuresOf(latest, res)
	scheduleCollector.mu.Lock()
	defer scheduleCollector.mu.Unlock()
	scheduleCollector.latest[key] = figs
	if err == nil {
		scheduleCollector.of[key] = latest.Name + "@" + latest.ResourceVersion
	}
	return err
}

// ForgetSchedule drops everything a deleted schedule exported: its history and its interval.
func ForgetSchedule(namespace, schedule string) {
	ForgetScheduleInterval(namespace, schedule)
	scheduleCollector.mu.Lock()
	defer scheduleCollector.mu.Unlock()
	delete(scheduleCollector.latest, scheduleKey{namespace, schedule})
	delete(scheduleCollector.of, scheduleKey{namespace, schedule})
}

func (h *scheduleHistory) Describe(ch chan<- *prometheus.Desc) {
	for _, f := range families {
		ch <- h.descs[f]
	}
}

func (h *scheduleHistory) Collect(ch chan<- prometheus.Metric) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for k, figs := range h.latest {
		for _, f := range figs {
			ch <- prometheus.MustNewConstMetric(h.descs[f.fam], prometheus.GaugeValue, f.value,
				append([]string{k.namespace, k.name}, f.values...)...)
		}
	}
}
