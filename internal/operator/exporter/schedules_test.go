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
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// series are the sample lines of an exposition, sorted, without HELP and TYPE.
func series(exposition string) []string {
	var out []string
	for _, l := range strings.Split(exposition, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// asSchedule is what a run's series become in its schedule's history: the schedule's
// metric, without the run's label.
func asSchedule(runSeries []string) []string {
	perfrun := regexp.MustCompile(`perfrun="[^"]*",?`)
	var out []string
	for _, s := range runSeries {
		s = perfrun.ReplaceAllString(strings.Replace(s, "daprbench_perfrun_", "daprbench_perfschedule_", 1), "")
		out = append(out, strings.Replace(s, ",}", "}", 1))
	}
	slices.Sort(out)
	return out
}

func resetSchedules() {
	resetRuns()
	for _, k := range []string{"nightly", "weekly"} {
		ForgetSchedule("perf", k)
	}
}

// A schedule's history is one series per figure, labelled by the schedule, not by the run:
// the latest finished run's figures, replaced by the next run's, kept after the runs are
// pruned, suspended or not, and gone with the schedule.
func TestScheduleHistoryIsOneSeriesPerFigureThatOutlivesItsRuns(t *testing.T) {
	resetSchedules()
	t.Cleanup(resetSchedules)
	first := finishedRun("nightly-1", time.Unix(1_800_000_000, 0), 400*time.Microsecond)
	second := finishedRun("nightly-2", time.Unix(1_800_086_400, 0), 500*time.Microsecond)
	second.Status.Conditions = second.Status.Conditions[:1] // not regressed

	Record(ctx, testDocs, second)
	want := asSchedule(series(exposition(t, Collectors()...)))
	resetRuns()

	RecordSchedule(ctx, testDocs, "perf", "nightly", first)
	RecordSchedule(ctx, testDocs, "perf", "nightly", second)
	RecordScheduleInterval("perf", "nightly", 24*time.Hour)
	got := series(exposition(t, scheduleCollector))
	if !slices.Equal(got, want) {
		t.Fatalf("the schedule's series are not its latest run's without the run's label:\ngot\n%s\nwant\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{
		`daprbench_perfschedule_latency_seconds{namespace="perf",quantile="0.9",schedule="nightly",variant="added"} 0.000502`,
		`daprbench_perfschedule_regressed{namespace="perf",schedule="nightly"} 0`,
	} {
		if !slices.Contains(got, s) {
			t.Errorf("no %s: the second run's figure replaces the first's", s)
		}
	}

	RecordSchedule(ctx, testDocs, "perf", "nightly", nil) // every run pruned: the history stays
	ForgetScheduleInterval("perf", "nightly")
	if got := series(exposition(t, scheduleCollector)); !slices.Equal(got, want) {
		t.Errorf("the history went with the runs or the suspension:\n%s", strings.Join(got, "\n"))
	}
	if got := exposition(t, metricScheduleInterval); got != "" {
		t.Errorf("a suspended schedule kept its interval:\n%s", got)
	}

	ForgetSchedule("perf", "nightly")
	if got := exposition(t, Collectors()...); got != "" {
		t.Errorf("a deleted schedule left series:\n%s", got)
	}
}

// Only a finished run is a schedule's latest; another schedule's history is its own.
func TestScheduleHistoryKeepsSchedulesApartAndIgnoresUnfinishedRuns(t *testing.T) {
	resetSchedules()
	t.Cleanup(resetSchedules)
	RecordSchedule(ctx, testDocs, "perf", "nightly", finishedRun("nightly-1", time.Unix(1_800_000_000, 0), 400*time.Microsecond))
	before := exposition(t, scheduleCollector)
	running := finishedRun("nightly-2", time.Unix(1_800_086_400, 0), 500*time.Microsecond)
	running.Status.Conditions = nil
	RecordSchedule(ctx, testDocs, "perf", "nightly", running)
	if got := exposition(t, scheduleCollector); got != before {
		t.Errorf("an unfinished run replaced the schedule's history:\n%s", got)
	}
	RecordSchedule(ctx, testDocs, "perf", "weekly", finishedRun("weekly-1", time.Unix(1_800_000_000, 0), 400*time.Microsecond))
	ForgetSchedule("perf", "weekly")
	if got := exposition(t, scheduleCollector); got != before {
		t.Errorf("forgetting one schedule changed another's history:\n%s", got)
	}
}
