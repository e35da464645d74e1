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
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
)

// Modelled histories: referenceRuns unchanged runs, then stepRuns after a step, each run's
// added p90 (and p99, twice it) its level times Gaussian noise, judged in turn by the
// schedule's own judge as a schedule judges them: against the runs before it as the
// controller gathers them (back until window runs not judged Regressed and stepReach × window in all, controllers/perfrun
// regressionHistory), each marked Regressed as it was judged, once minReference of them
// exist. A model, not a measurement: the noise is a real set of runs' SD, its shape Gaussian.
const (
	referenceRuns = 10
	stepRuns      = 20
	window        = 10 // a schedule's regression.window default
	stepReach     = 3  // the history holds at least stepReach × window runs (controllers/perfrun)
)

// scheduleHistory is what the controller judges the next run against: the runs before it,
// newest first back until window of them were not flagged and stepReach × window in all,
// oldest first; and how many were not flagged.
func scheduleHistory(runs []regression.Earlier) (history []regression.Earlier, reference int) {
	for i := len(runs) - 1; i >= 0 && (reference < window || len(history) < stepReach*window); i-- {
		history = append(history, runs[i])
		if !runs[i].Regressed {
			reference++
		}
	}
	slices.Reverse(history)
	return history, reference
}

func model(noise, step float64, histories int, tolerance int32) {
	rng := rand.New(rand.NewPCG(60, uint64(noise*1e4+step*1e2)))
	caughtBy := make([]int, stepRuns+1) // histories flagged at or before the k-th run after the step
	falseAlarms, unchangedJudged, laterFlagged := 0, 0, 0
	for range histories {
		var earlier []regression.Earlier
		first := 0
		for i := range referenceRuns + stepRuns {
			level := 1000.0
			if i >= referenceRuns {
				level *= 1 + step
			}
			r := modelled(level * (1 + noise*rng.NormFloat64()))
			regressed := false
			history, reference := scheduleHistory(earlier)
			judged := reference >= minReference
			if judged {
				regressed, _, _ = regression.Compare(r, history, tolerance)
			}
			switch {
			case i < referenceRuns && judged:
				unchangedJudged++
				if regressed {
					falseAlarms++
				}
			case i >= referenceRuns && regressed:
				laterFlagged++
				if first == 0 {
					first = i - referenceRuns + 1
				}
			}
			earlier = append(earlier, regression.Earlier{Result: r, Regressed: regressed})
		}
		for k := first; first > 0 && k <= stepRuns; k++ {
			caughtBy[k]++
		}
	}
	fmt.Printf("%d modelled histories: %d unchanged runs (noise %.1f%%), then %d runs %+.0f%%; tolerance %d%%\n\n",
		histories, referenceRuns, 100*noise, stepRuns, 100*step, tolerance)
	fmt.Printf("false alarms: %d of %d unchanged runs judged (%.1f%%)\n", falseAlarms, unchangedJudged, pct(falseAlarms, unchangedJudged))
	fmt.Printf("runs after the step flagged: %d of %d (%.1f%%)\n\n", laterFlagged, histories*stepRuns, pct(laterFlagged, histories*stepRuns))
	fmt.Println("| flagged by the k-th run after the step | histories |")
	fmt.Println("|---|---|")
	for _, k := range []int{1, 2, 3, 5, 8, 10, 15, 20} {
		fmt.Printf("| %d | %.0f%% |\n", k, pct(caughtBy[k], histories))
	}
}

// modelled is a result whose added p90 is v µs (p99 twice it): one figure judged, as the
// package's own simulation judges it.
func modelled(v float64) *perfv1alpha1.Result {
	d := func(us float64) *metav1.Duration {
		return &metav1.Duration{Duration: time.Duration(us * float64(time.Microsecond))}
	}
	return &perfv1alpha1.Result{ActualQPS: "999.0", Added: &perfv1alpha1.LatencySummary{P90: d(v), P99: d(2 * v)}}
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
