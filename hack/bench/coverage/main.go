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

// Command coverage prints, as a Markdown table, how often the added-latency interval
// holds the true difference under each synthetic tail model and repetition count
// (docs/measurement-coverage.md): the evidence behind the repetitions a tail percentile's
// interval needs (latency.MinRepetitionsForTail).
package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/daprbench/daprbench/internal/pods/latency"
)

func main() {
	trials := flag.Int("trials", 400, "experiments per cell")
	seed := flag.Uint64("seed", 42, "seed of the experiments")
	flag.Parse()
	ps := []float64{50, 90, 99, 99.9}
	models := []latency.TailModel{latency.ShiftModel, latency.EpisodicModel, latency.SharedRunModel}
	for _, m := range models {
		truth := m.TrueAdded(ps, *seed)
		fmt.Printf("true added, %s: p50 %.0f µs, p90 %.0f µs, p99 %.0f µs, p99.9 %.0f µs\n\n", m.Name, truth[50], truth[90], truth[99], truth[99.9])
	}
	fmt.Println("This run's interval (what a run reports):")
	fmt.Println()
	table(models, ps, *trials, *seed, 0)
	// A user comparing two runs reads an interval widened to cover a rerun (compare): with
	// the shared run effect's SD known, 1.96 × it.
	shared := latency.SharedRunModel
	fmt.Printf("\nThe interval widened to cover a rerun by 1.96 × the run effect's %.0f µs SD, as compare widens it:\n\n", shared.RunSDUs)
	table([]latency.TailModel{shared}, ps, *trials, *seed, 1.96*shared.RunSDUs)
}

// table prints how often each model's interval held the truth, per repetitions.
func table(models []latency.TailModel, ps []float64, trials int, seed uint64, widenUs float64) {
	fmt.Printf("| model | repetitions | %s |\n", strings.Join(headers(ps), " | "))
	fmt.Printf("|---|---|%s\n", strings.Repeat("---|", len(ps)))
	for _, m := range models {
		for _, reps := range []int{2, 3, 4, 5, 6, 8} {
			cov := latency.CoverageWidened(m, reps, trials, ps, seed, widenUs)
			cells := make([]string, len(ps))
			for i, p := range ps {
				cells[i] = fmt.Sprintf("%.1f%%", cov[p])
			}
			fmt.Printf("| %s | %d | %s |\n", m.Name, reps, strings.Join(cells, " | "))
		}
	}
}

func headers(ps []float64) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("p%v", p)
	}
	return out
}
