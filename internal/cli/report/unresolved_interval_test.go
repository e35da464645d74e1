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

package report

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/clitest"
)

// A tail interval wider than its point reaches below zero: the run cannot tell whether Dapr
// adds anything there. The tables say "<0" and why, not "-44.858ms".
func TestAnAddedIntervalBelowZeroIsShownUnresolved(t *testing.T) {
	d := func(s string) *metav1.Duration {
		v, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		return &metav1.Duration{Duration: v}
	}
	in := &perfv1alpha1.LatencyInterval{ConfidencePercent: 95, Basis: perfv1alpha1.IntervalBetweenRepetitions, Repetitions: 3,
		Low:  perfv1alpha1.LatencySummary{P50: d("3.2ms"), P90: d("4.7ms"), P999: d("-44.858ms")},
		High: perfv1alpha1.LatencySummary{P50: d("3.9ms"), P90: d("6ms"), P999: d("80ms")}}
	run := clitest.WithResult(&perfv1alpha1.PerfRun{Spec: perfv1alpha1.PerfRunSpec{Scenario: perfv1alpha1.ScenarioServiceInvocation},
		Status: perfv1alpha1.PerfRunStatus{Phase: perfv1alpha1.PhaseSucceeded}}, &perfv1alpha1.Result{
		Latency: &perfv1alpha1.LatencySummary{P50: d("4ms"), P90: d("6ms"), P999: d("24ms")},
		Added:   &perfv1alpha1.LatencySummary{P50: d("3.5ms"), P90: d("5.3ms"), P999: d("21ms")}, AddedInterval: in})

	text := runTables(run)
	if strings.Contains(text, "-44.858ms") {
		t.Errorf("the table prints the negative low end:\n%s", text)
	}
	for _, want := range []string{"<0", "p99.9: the interval reaches below zero (<0), so this run does not resolve whether anything is added there", "4.7ms"} {
		if !strings.Contains(text, want) {
			t.Errorf("the table lacks %q:\n%s", want, text)
		}
	}
	notes := strings.Join(intervalNotes("The added latency's", in), "\n")
	if !strings.Contains(notes, "Unresolved: the p99.9 intervals reach below zero") || strings.Contains(notes, "p90 intervals reach") {
		t.Errorf("report.html's notes: %s", notes)
	}
	cells := map[string]string{}
	for _, f := range perfv1alpha1.LatencyFigures {
		cells[f.Name] = latencyIntervalDetail(in)(f)
	}
	if cells["p99.9"] != "95%: <0 – 80ms" || cells["p90"] != "95%: 4.7ms – 6ms" {
		t.Errorf("report.html's cells: %q, want p99.9 95%%: <0 – 80ms and p90 unchanged", cells)
	}
	// A path's own latency (a delivery, a completion) says so in report.html as the text
	// tables do.
	own := latencyFiguresTable("delivery", []latencyRow{{"delivery", run.Result().Latency, in}})
	p999 := 1 + slices.IndexFunc(perfv1alpha1.LatencyFigures, func(f perfv1alpha1.LatencyFigure) bool { return f.Name == "p99.9" }) // after the path's name
	if got := own.Rows[0][p999].Detail; got != "95%: <0 – 80ms" {
		t.Errorf("report.html's delivery table: p99.9 cell %q, want 95%%: <0 – 80ms", got)
	}
}
