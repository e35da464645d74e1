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

// Command regression-replay judges runs' result documents as a PerfSchedule would judge
// them against a history of unchanged runs (regression.Compare, the schedule's own judge),
// without waiting for a schedule to make them: how often an unchanged run reads Regressed
// against the others (a false alarm), and how often a known slowdown does (its detection).
//
//	go run ./hack/bench/regression-replay -unchanged 'docs/inv-*.json' [-changed 'docs/ka-*.json' [-persisting]] [-tolerance 10]
//	go run ./hack/bench/regression-replay -model-noise 7.8 -model-step 10 [-histories 200]
//
// -model-noise judges modelled histories instead (see model.go): how many runs after a step
// a schedule takes to flag it, at a run-to-run noise a set of real runs measured.
//
// The history holds the unchanged runs in the order given (the files' names sorted), less
// those a schedule keeps out of its reference: Disturbed, Saturated or CPULimitBound.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
)

// minReference is a schedule's smallest reference (controllers/perfrun minReferenceRuns).
const minReference = 5

type run struct {
	name string
	res  *perfv1alpha1.Result
	kept bool // not Disturbed, Saturated or CPULimitBound: reference material
}

func main() {
	unchanged := flag.String("unchanged", "", "a glob of unchanged runs' documents (kubectl daprbench export -o json)")
	changed := flag.String("changed", "", "a glob of changed runs' documents (a known slowdown), each judged against all the unchanged")
	persisting := flag.Bool("persisting", false, "judge the changed runs as a schedule's later runs: each against the unchanged and the changed before it (a slowdown that persists), as the schedule marked them")
	tolerance := flag.Int("tolerance", 10, "the schedule's tolerancePercent")
	noise := flag.Float64("model-noise", 0, "model histories instead: the run-to-run SD of the added p90, in percent of its level")
	step := flag.Float64("model-step", 10, "with -model-noise: the step, in percent, after the modelled history's reference runs")
	histories := flag.Int("histories", 200, "with -model-noise: how many modelled histories")
	flag.Parse()
	if *noise > 0 {
		model(*noise/100, *step/100, *histories, int32(*tolerance))
		return
	}
	base, err := load(*unchanged)
	if err != nil || len(base) == 0 {
		fail("the unchanged runs: %v (%d found)", err, len(base))
	}
	fmt.Printf("%d unchanged runs, %d kept as reference material; tolerance %d%%\n\n", len(base), countKept(base), *tolerance)
	fmt.Println("| run | kind | judged against | regressed | findings |")
	fmt.Println("|---|---|---|---|---|")
	alarms, judged := 0, 0
	for i, r := range base {
		var history []regression.Earlier
		for j, o := range base {
			if j != i && o.kept {
				history = append(history, regression.Earlier{Result: o.res})
			}
		}
		if len(history) < minReference || !r.kept {
			continue
		}
		regressed := judge(r, history, "unchanged", int32(*tolerance))
		judged++
		if regressed {
			alarms++
		}
	}
	var history []regression.Earlier
	for _, o := range base {
		if o.kept {
			history = append(history, regression.Earlier{Result: o.res})
		}
	}
	caught, slowed := 0, 0
	if *changed != "" {
		changes, err := load(*changed)
		if err != nil {
			fail("the changed runs: %v", err)
		}
		for _, r := range changes {
			slowed++
			regressed := judge(r, history, "changed", int32(*tolerance))
			if regressed {
				caught++
			}
			if *persisting && r.kept {
				history = append(history, regression.Earlier{Result: r.res, Regressed: regressed})
			}
		}
	}
	fmt.Printf("\nfalse alarms: %d of %d unchanged runs read Regressed against the others\n", alarms, judged)
	if slowed > 0 {
		against := "the unchanged runs"
		if *persisting {
			against = "the unchanged runs and the changed ones before each"
		}
		fmt.Printf("detection: %d of %d changed runs read Regressed against %s\n", caught, slowed, against)
	}
}

// judge prints one run's verdict against history; true when Regressed.
func judge(r run, history []regression.Earlier, kind string, tolerance int32) bool {
	regressed, findings, _ := regression.Compare(r.res, history, tolerance)
	var said []string
	for _, f := range findings {
		if f.Regressed || strings.HasPrefix(f.Figure, "added p") {
			said = append(said, fmt.Sprintf("%s %s vs median %s (%+.1f%%%s)", f.Figure, f.Current, f.Median, f.ChangePercent, map[bool]string{true: ", REGRESSED"}[f.Regressed]))
		}
	}
	fmt.Printf("| %s | %s | %d runs | %v | %s |\n", r.name, kind, len(history), regressed, strings.Join(said, "; "))
	return regressed
}

func load(glob string) ([]run, error) {
	files, err := filepath.Glob(glob)
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var out []run
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var doc perfv1alpha1.ResultDocument
		if err := json.Unmarshal(b, &doc); err != nil || doc.Result == nil {
			return nil, fmt.Errorf("%s: not a result document (%v)", f, err)
		}
		kept := true
		for _, c := range doc.Conditions {
			switch c.Type {
			case perfv1alpha1.ConditionDisturbed, perfv1alpha1.ConditionSaturated, perfv1alpha1.ConditionCPULimitBound:
				kept = kept && c.Status != "True"
			}
		}
		out = append(out, run{name: doc.Run.Name, res: doc.Result, kept: kept})
	}
	return out, nil
}

func countKept(rs []run) (n int) {
	for _, r := range rs {
		if r.kept {
			n++
		}
	}
	return n
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "regression-replay: "+format+"\n", args...)
	os.Exit(1)
}
