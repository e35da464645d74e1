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

package regression

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// history judges each run of levels in turn, as a schedule does, against the runs before
// it (each marked Regressed as it was judged) once three exist (the controller's
// minReferenceRuns), and returns which runs were flagged. Each
// level is added p90 in µs, times Gaussian noise of the given share.
func history(levels []float64, noise float64, rng *rand.Rand) []bool {
	var earlier []Earlier
	flagged := make([]bool, len(levels))
	for i, level := range levels {
		v := level * (1 + noise*rng.NormFloat64())
		r := res(int64(v), 4400, "999.0", 0)
		r.Latency = nil // one figure judged: added p90 (p99 follows it)
		if i >= 3 {
			flagged[i], _, _ = Compare(r, earlier, 10)
		}
		earlier = append(earlier, Earlier{Result: r, Regressed: flagged[i]})
	}
	return flagged
}

func steps(n int, f func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// A +30% step in a history with 5% noise is flagged on every run after it — the runs
// flagged Regressed never become the reference, so the step is not absorbed as the new
// normal (the outlier rule did that after about three runs).
func TestAStepStaysFlagged(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 5))
	const seeds = 40
	missed := 0
	for range seeds {
		flags := history(steps(20, func(i int) float64 {
			if i >= 10 {
				return 1300
			}
			return 1000
		}), 0.05, rng)
		for i := 10; i < 20; i++ {
			if !flags[i] {
				missed++
			}
		}
	}
	if share := float64(missed) / float64(seeds*10); share > 0.02 {
		t.Errorf("%d of %d runs after a +30%% step not flagged (%.1f%%), want every one", missed, seeds*10, 100*share)
	}
}

// A drift of +3% per run, after ten steady runs, is flagged by its sixth run (+18%) in 38 of
// 40 histories at 3% run-to-run noise (about what five unchanged runs of the published
// scenario showed); at 5% noise in 28 of 40 by its sixth run and 35 of 40 by its eighth
// (+24%). The bounds below sit just under those measured shares.
func TestADriftIsFlaggedByItsSixthRun(t *testing.T) {
	for _, tc := range []struct {
		noise   float64
		by      int // flagged at or before this drift run
		atLeast float64
	}{{0.03, 6, 0.9}, {0.05, 6, 0.6}, {0.05, 8, 0.8}} {
		rng := rand.New(rand.NewPCG(3, uint64(tc.noise*100)))
		const seeds = 40
		caught := 0
		for range seeds {
			flags := history(steps(10+tc.by, func(i int) float64 {
				if i < 10 {
					return 1000
				}
				return 1000 * (1 + 0.03*float64(i-9))
			}), tc.noise, rng)
			if slices.Contains(flags[10:], true) {
				caught++
			}
		}
		share := float64(caught) / seeds
		t.Logf("%.0f%% noise: %d of %d drifting histories flagged by drift run %d", 100*tc.noise, caught, seeds, tc.by)
		if share < tc.atLeast {
			t.Errorf("%.0f%% noise: %.0f%% of drifting histories flagged by drift run %d, want at least %.0f%%",
				100*tc.noise, 100*share, tc.by, 100*tc.atLeast)
		}
	}
}

// Noise alone: over 20-run histories with 5% and with 12% run-to-run noise, at most 5% of
// the runs judged are flagged.
func TestNoiseAloneRarelyRegresses(t *testing.T) {
	for _, noise := range []float64{0.05, 0.12} {
		rng := rand.New(rand.NewPCG(12, uint64(noise*100)))
		const seeds = 60
		flagged, judged := 0, 0
		for range seeds {
			for _, f := range history(steps(20, func(int) float64 { return 1000 }), noise, rng)[3:] {
				judged++
				if f {
					flagged++
				}
			}
		}
		share := float64(flagged) / float64(judged)
		t.Logf("%.0f%% noise: %d of %d runs flagged (%.1f%%)", 100*noise, flagged, judged, 100*share)
		if share > 0.05 {
			t.Errorf("%.0f%% noise: %.1f%% of runs flagged, want at most 5%%", 100*noise, 100*share)
		}
	}
}

// An improvement becomes the new normal: after a step down, a return to the old level is a
// regression against the new one, not "better than the old reference".
func TestAnImprovementBecomesTheReference(t *testing.T) {
	var earlier []Earlier
	for i := range 20 {
		level := int64(1000)
		if i >= 8 {
			level = 500
		}
		earlier = append(earlier, Earlier{Result: res(level+int64(i%3)*10, 4400, "999.0", 0)})
	}
	regressed, findings, _ := Compare(res(800, 4400, "999.0", 0), earlier, 10)
	if !regressed {
		t.Errorf("800 µs after twelve runs at ~500 µs (and eight at ~1000 before them) not flagged: %s", Message(findings))
	}
	if f := findings[0]; f.Median != "510µs" {
		t.Errorf("reference median %s, want the improved level's 510µs: %s", f.Median, Message(findings))
	}
}

// E-divisive finds a clear step where it is, and nothing in a flat history.
func TestChangePoints(t *testing.T) {
	flat := []float64{10, 11, 9, 10, 10.5, 9.5, 10, 11, 9, 10}
	if cps := ChangePoints(flat, 1); len(cps) != 0 {
		t.Errorf("flat history: change points %v", cps)
	}
	step := append(append([]float64{}, flat...), 14, 15, 13.5, 14, 14.5, 13, 14)
	if cps := ChangePoints(step, 1); len(cps) != 1 || cps[0] != 10 {
		t.Errorf("a step at 10: change points %v", cps)
	}
}

// Calibrations more than 10% apart are said; closer ones, or none, are not.
func TestCalibrationWarning(t *testing.T) {
	if w := CalibrationWarning(8000, []float64{10_000, 10_200, 9_900}); w == "" || !strings.Contains(w, "-20%") {
		t.Errorf("a node 20%% slower: %q", w)
	}
	if w := CalibrationWarning(9500, []float64{10_000, 10_200, 9_900}); w != "" {
		t.Errorf("5%% apart: %q", w)
	}
	if w := CalibrationWarning(0, []float64{10_000}); w != "" {
		t.Errorf("no score: %q", w)
	}
}

// A run of a persisting step stays flagged while it is worse than the reference at all: the
// step's level carries the tolerance, not each of its runs. Ten runs at ~1000 µs, ten at
// ~1120 µs (+12%), then one at 1070 µs: +7%, under the 10% tolerance, yet of the shifted
// segment. Before, it read ok — a step's runs flickered between flagged and not — and over
// 100 modelled histories with 5% noise, 965 of 2,000 runs after a +12% step were flagged
// against 1,204 now (and 15 of 2,000 without a step, alike).
func TestAStepsRunsUnderTheToleranceStayFlagged(t *testing.T) {
	var earlier []Earlier
	for i := range 20 {
		level := int64(1000)
		if i >= 10 {
			level = 1120
		}
		earlier = append(earlier, Earlier{Result: res(level+int64(i%3-1)*15, 4400, "999.0", 0)})
	}
	current := res(1070, 4400, "999.0", 0)
	current.Latency = nil
	regressed, findings, _ := Compare(current, earlier, 10)
	if !regressed || !findings[0].Shifted {
		t.Errorf("1070 µs in a +12%% step's segment not flagged: %s", Message(findings))
	}
	// Once the step is fixed (six runs back at the reference's level), a run +3% over the
	// reference is no step's run: the shifted segment is the step's, not the current one's.
	for i := range 6 {
		earlier = append(earlier, Earlier{Result: res(1000+int64(i%3-1)*15, 4400, "999.0", 0)})
	}
	back := res(1030, 4400, "999.0", 0)
	back.Latency = nil
	if regressed, findings, _ := Compare(back, earlier, 10); regressed {
		t.Errorf("1030 µs after the step returned to the reference's level, flagged: %s", Message(findings))
	}
}
