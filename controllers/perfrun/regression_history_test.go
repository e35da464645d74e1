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
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
)

// scheduleHistory is a schedule's runs as the regression judge sees them: each run made by
// the schedule at its own slot, judged in turn against the runs before it (regressionHistory
// and regression.Compare, as judgeRegression calls them) and marked Regressed as it was.
type scheduleHistory struct {
	sched *perfv1alpha1.PerfSchedule
	runs  []perfv1alpha1.PerfRun
	start time.Time
	// results are the runs' documents' results, by run name.
	results map[string]*perfv1alpha1.Result
}

func (h *scheduleHistory) resultOf(run *perfv1alpha1.PerfRun) *perfv1alpha1.Result {
	return h.results[run.Name]
}

func newScheduleHistory() *scheduleHistory {
	return &scheduleHistory{start: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), results: map[string]*perfv1alpha1.Result{},
		sched: &perfv1alpha1.PerfSchedule{ObjectMeta: metav1.ObjectMeta{Name: "nightly", UID: types.UID("sched"), Annotations: map[string]string{}}}}
}

// add judges a run whose added p90 is addedUs, with extra conditions (Saturated, …) already
// set, and returns whether it was judged Regressed (false while too few references exist).
func (h *scheduleHistory) add(addedUs float64, conditions ...string) bool {
	i := len(h.runs)
	us := func(v float64) *metav1.Duration {
		return &metav1.Duration{Duration: time.Duration(v) * time.Microsecond}
	}
	run := perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("nightly-%02d", i), UID: types.UID(fmt.Sprint("run-", i)),
		Annotations: map[string]string{perfv1alpha1.AnnotationTemplateHash: "t1",
			perfv1alpha1.AnnotationScheduledTime: h.start.Add(time.Duration(i) * 24 * time.Hour).Format(time.RFC3339)},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: perfv1alpha1.GroupVersion.String(), Kind: "PerfSchedule",
			Name: h.sched.Name, UID: h.sched.UID, Controller: ptr.To(true)}}},
		Status: perfv1alpha1.PerfRunStatus{Result: &perfv1alpha1.ResultHeadline{Document: fmt.Sprintf("nightly-%02d-result-x", i)}}}
	res := &perfv1alpha1.Result{ActualQPS: "999.0", Added: &perfv1alpha1.LatencySummary{P90: us(addedUs), P99: us(2 * addedUs)}}
	h.results[run.Name] = res
	for _, c := range append([]string{perfv1alpha1.ConditionSucceeded}, conditions...) {
		setCondition(&run, c, metav1.ConditionTrue, "Test", "")
	}
	run.Status.RegressionBaseline = h.sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline]
	history, _, reference := regressionHistory(&run, h.sched, h.runs, h.resultOf)
	regressed := false
	if reference >= min(regressionWindow(h.sched), minReferenceRuns) {
		regressed, _, _ = regression.Compare(res, history, 10)
	}
	if regressed {
		setCondition(&run, perfv1alpha1.ConditionRegressed, metav1.ConditionTrue, perfv1alpha1.ReasonRegressed, "")
	}
	h.runs = append(h.runs, run)
	return regressed
}

// A +30% step stays flagged on the later runs (at most 3% of them missed, never absorbed)
// until a user accepts it as the new baseline
// (the schedule's accepted-baseline annotation names the step's first run); from then on
// runs at the new level are not regressions, and a further step is judged against it.
func TestAStepStaysFlaggedUntilAccepted(t *testing.T) {
	falseAlarms, missed := 0, 0
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 30))
		noisy := func(level float64) float64 { return level * (1 + 0.05*rng.NormFloat64()) }
		h := newScheduleHistory()
		for range 10 {
			h.add(noisy(1000))
		}
		for i := range 8 {
			if !h.add(noisy(1300)) {
				missed++
				if i == 7 {
					t.Errorf("seed %d: the 8th run after a +30%% step not flagged: absorbed before it was accepted", seed)
				}
			}
		}
		h.sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline] = h.runs[10].Name
		for range 8 {
			if h.add(noisy(1300)) {
				falseAlarms++ // noise alone flags about 1% of runs (regression_sim_test.go)
			}
		}
		// A later step is flagged on its runs: the runs flagged after the accepted stretch
		// are not absorbed as the new normal (its last run is flagged as its first was).
		for i := range 6 {
			if !h.add(noisy(1700)) {
				missed++
				if i == 5 {
					t.Errorf("seed %d: the 6th run of a further step over the accepted level not flagged: absorbed", seed)
				}
			}
		}
	}
	if falseAlarms > 3 {
		t.Errorf("%d of 160 runs at the accepted level flagged, want at most 3 (noise's ~1%%)", falseAlarms)
	}
	// Measured: 7 of 280, in two of the 20 histories, where the step's first run passed (an
	// outlier test against 5% noise) and the misses then alternate. The bound is 3%; no step
	// is ever absorbed (checked above on each step's last run).
	t.Logf("%d of 280 runs after a step not flagged; %d of 160 at the accepted level flagged", missed, falseAlarms)
	if missed > 8 {
		t.Errorf("%d of 280 runs after a step not flagged, want at most 8 (3%%)", missed)
	}
}

// Saturated, CPU-limit-bound and disturbed runs measured their bound or a recovery: they are
// never reference. A history of them at half the level does not make a normal run a
// regression, and only the undisturbed runs count as references.
func TestBoundAndDisturbedRunsAreNoReference(t *testing.T) {
	h := newScheduleHistory()
	for range 6 {
		h.add(1000)
	}
	for _, c := range []string{perfv1alpha1.ConditionSaturated, perfv1alpha1.ConditionCPULimitBound, perfv1alpha1.ConditionDisturbed} {
		for range 4 {
			h.add(500, c)
		}
	}
	next := perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "next", UID: "next", Annotations: map[string]string{
		perfv1alpha1.AnnotationTemplateHash: "t1", perfv1alpha1.AnnotationScheduledTime: h.start.Add(100 * 24 * time.Hour).Format(time.RFC3339)}}}
	history, earlier, reference := regressionHistory(&next, h.sched, h.runs, h.resultOf)
	if reference != 6 || len(history) != 6 || len(earlier) != 6 {
		t.Fatalf("reference %d, history %d, earlier %d: want the six undisturbed runs only", reference, len(history), len(earlier))
	}
	if h.add(1050) {
		t.Errorf("a run at the normal level flagged against runs that measured their bound")
	}

	// A run of another template, or one the schedule does not control, is not history either.
	other := newScheduleHistory()
	other.add(1000)
	stranger := other.runs[0]
	stranger.OwnerReferences = nil
	changed := h.runs[0]
	changed.Annotations = map[string]string{perfv1alpha1.AnnotationTemplateHash: "t2", perfv1alpha1.AnnotationScheduledTime: changed.Annotations[perfv1alpha1.AnnotationScheduledTime]}
	changed.UID = "changed"
	if _, _, n := regressionHistory(&next, h.sched, []perfv1alpha1.PerfRun{stranger, changed}, h.resultOf); n != 0 {
		t.Errorf("%d references from a run the schedule does not own and one of another template", n)
	}
	// Nor one whose spec is not the run's: forged with the schedule's owner reference and
	// template hash, or edited after the schedule made it.
	forged := h.runs[1]
	forged.UID = "forged"
	forged.Spec.Load.QPS = 10
	if _, _, n := regressionHistory(&next, h.sched, []perfv1alpha1.PerfRun{forged}, h.resultOf); n != 0 {
		t.Errorf("%d references from a run of another spec", n)
	}
}

// Acceptance is of the runs judged before it: a step that starts right after it stays
// flagged (its runs were judged under the acceptance), and an accepted step whose first run
// passed keeps the rest of its runs as reference.
func TestAcceptanceCoversTheRunsJudgedBeforeIt(t *testing.T) {
	h := newScheduleHistory()
	for range 10 {
		h.add(1000)
	}
	h.add(1300)
	h.runs[10].Status.Conditions = nil // the step's first run passed
	setCondition(&h.runs[10], perfv1alpha1.ConditionSucceeded, metav1.ConditionTrue, "Test", "")
	for i := range 7 {
		if !h.add(1300 + float64(i)) {
			t.Fatalf("run %d of the step not flagged", i+2)
		}
	}
	h.sched.Annotations[perfv1alpha1.AnnotationAcceptedBaseline] = h.runs[10].Name
	next := perfv1alpha1.PerfRun{ObjectMeta: metav1.ObjectMeta{Name: "next", UID: "next", Annotations: map[string]string{
		perfv1alpha1.AnnotationTemplateHash: "t1", perfv1alpha1.AnnotationScheduledTime: h.start.Add(100 * 24 * time.Hour).Format(time.RFC3339)}}}
	if _, _, reference := regressionHistory(&next, h.sched, h.runs, h.resultOf); reference != 8 {
		t.Errorf("%d reference runs after accepting the step, want its 8", reference)
	}
	for i := range 6 {
		if !h.add(1700 + float64(i)) {
			t.Errorf("run %d of a step right after the acceptance not flagged", i+1)
		}
	}
}

// A run held on purpose (the known-answer annotation) is never history: ten held runs twice
// as slow leave the reference to the unheld ones, and an unheld run like them is no
// regression (issue #62 item 1).
func TestAKnownAnswerRunIsNoPartOfTheHistory(t *testing.T) {
	h := newScheduleHistory()
	for range 6 {
		h.add(1000)
	}
	for range 10 {
		h.add(2000)
		held := &h.runs[len(h.runs)-1]
		held.Annotations[perfv1alpha1.AnnotationKnownAnswerDelay] = "1ms"
	}
	run := h.runs[0].DeepCopy()
	run.Name, run.UID = "nightly-next", "run-next"
	run.Annotations[perfv1alpha1.AnnotationScheduledTime] = h.start.Add(30 * 24 * time.Hour).Format(time.RFC3339)
	history, _, reference := regressionHistory(run, h.sched, h.runs, h.resultOf)
	if reference != 6 || len(history) != 6 {
		t.Errorf("%d reference runs of %d in history, want the 6 unheld ones", reference, len(history))
	}
}

// A small step whose first runs pass unflagged is still flagged once its change point is
// significant: the history holds three windows of runs, so the runs before the step are not
// pushed out by the step's own unflagged runs. +10% at 3% noise, ten steady runs before it:
// flagged by the step's 10th run in at least 16 of 20 histories (the modelled share is 90%;
// with one window of history it stalled at 74%).
func TestASmallStepIsFlaggedBeforeItsRunsFillTheHistory(t *testing.T) {
	caught := 0
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 10))
		h := newScheduleHistory()
		for range 10 {
			h.add(1000 * (1 + 0.03*rng.NormFloat64()))
		}
		for range 10 {
			if h.add(1100 * (1 + 0.03*rng.NormFloat64())) {
				caught++
				break
			}
		}
	}
	t.Logf("%d of 20 histories flagged a +10%% step by its 10th run", caught)
	if caught < 16 {
		t.Errorf("%d of 20 histories flagged a +10%% step by its 10th run, want at least 16", caught)
	}
}
