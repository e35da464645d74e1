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

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/compare"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

type compareFlags struct {
	maxSlowdown      compare.MaxSlowdown
	rerunSpread      compare.RerunSpreadFlag
	rerunSpreadDF    int
	rerunSpreadFrom  string
	failInconclusive bool
	junit, summary   string
}

func newCompareCommand(o *options) *cobra.Command {
	f := compareFlags{maxSlowdown: compare.NoSlowdown(), rerunSpread: compare.AssumedRerunSpread()}
	cmd := &cobra.Command{
		Use:   "compare A B",
		Short: "Two results side by side (runs, sweep points or exported files): each figure's change with its interval, and a gate CI can fail on",
		Long: `A and B are each a RUN, perfrun/RUN, perfsweep/SWEEP/STEP (a sweep's point, by its step,
its run or its setting), or a file written by "kubectl daprbench export RUN -o json" (main's result kept as an
artifact of main's pipeline). A is the reference; B is the change under test.

Each figure's change (B - A) gets an interval from the two sides' uncertainty: the 95%
intervals of added latency (and of a PubSub run's delivery, a Workflow run's completion, a
Scheduler run's trigger lateness) combined as independent estimates, or the repetitions'
spread of measured latency. A run's own interval covers its repetitions, not a rerun: each is widened
by how far unchanged reruns move a percentile, so an unchanged rerun does not read as a change —
measured by --rerun-spread-from perfschedule/NAME (the schedule's unchanged runs since its last
change of level: their robust spread, with t for their degrees of freedom), given by
--rerun-spread (with --rerun-spread-df), or else assumed from the project's own reruns of the
scenario, and the note says which. The verdict is slower or faster when the interval excludes
zero, else "no difference shown".

The gated figures are the added-latency percentiles (the measured ones when either side has
no baseline), and likewise a PubSub run's added delivery latency (its delivery when a side has
none), a Workflow run's completion and a Scheduler run's trigger lateness (they have no
baseline). A gated figure fails when even the lowest change its interval allows is above
--max-slowdown (a duration, or a percentage of A's value); it is inconclusive when the limit
lies inside the interval or a side has no interval. Exit codes:
  0 no gated figure slower than allowed; 1 could not compare (bad argument, no result);
  3 inconclusive (--fail-inconclusive only); 4 slower than allowed.`,
		Example: `  # main's pipeline keeps its result; a pull request's pipeline compares against it
  kubectl daprbench export nightly-x7k2p -o json > main.json
  kubectl daprbench compare main.json perfrun/pr-123-9fj2c --max-slowdown 10% --junit compare.xml`,
		ValidArgsFunction: o.completeRuns(false),
		Args:              cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sides, err := o.readSides(cmd, args)
			if err != nil {
				return err
			}
			a, b := sides[0], sides[1]
			spread, err := o.rerunSpread(cmd, f, a.result.Scenario)
			if err != nil {
				return err
			}
			result := compare.Comparison{A: a.label, B: b.label, SettingsDiffer: compare.SettingsDiffer(a.result, b.result), Intervals: compare.RerunNote(spread) + methodNote(a, b),
				Differences: append(compare.Compare(a.result.Result, b.result.Result, &f.maxSlowdown, spread), compare.Cost(&a.result, &b.result)...)}
			outcome := compare.Outcome(result.Differences, f.failInconclusive)
			result.ExitCode, result.Verdict = outcome.Code, outcome.Reason
			if err := writeComparisonReports(result, f); err != nil {
				return err
			}
			if o.output.format() == "csv" {
				if _, err := o.printData(result.Differences); err != nil {
					return err
				}
			} else if ok, err := o.printData(result); ok && err != nil {
				return err
			} else if !ok {
				fprintf(o.streams.Out, "%s", compare.Table(result))
			}
			fprintf(o.streams.ErrOut, "compare: %s (exit %d)\n", textfmt.TerminalCell(outcome.Reason), outcome.Code)
			if outcome.Code != verdict.ExitPassed {
				return verdict.Exit(outcome.Code, outcome.Reason)
			}
			return nil
		},
	}
	cmd.Flags().Var(&f.maxSlowdown, "max-slowdown", "how much slower B's gated figures may be than A's: a percentage of A's value (10%) or a duration (200us); 0 fails any slowdown shown beyond noise")
	cmd.Flags().Var(&f.rerunSpread, "rerun-spread", "how far unchanged reruns move an added-latency percentile (its relative SD): widens each run's own interval so the change's covers a rerun; 0 for each run's own interval alone")
	cmd.Flags().IntVar(&f.rerunSpreadDF, "rerun-spread-df", 0, "the degrees of freedom of --rerun-spread (the reruns it was measured over, less one): the interval scales it by t for them; 0 takes it as known (1.96)")
	cmd.Flags().StringVar(&f.rerunSpreadFrom, "rerun-spread-from", "", "measure the rerun spread from a schedule's unchanged runs: perfschedule/NAME in the current namespace")
	cmd.MarkFlagsMutuallyExclusive("rerun-spread", "rerun-spread-from")
	cmd.Flags().BoolVar(&f.failInconclusive, "fail-inconclusive", false, "exit 3 when a gated figure cannot be shown within --max-slowdown (its interval straddles the limit, or a side has one repetition)")
	cmd.Flags().StringVar(&f.junit, "junit", "", "write a JUnit XML report here: one testcase per gated figure")
	cmd.Flags().StringVar(&f.summary, "summary", "", "append a Markdown summary here (e.g. \"$GITHUB_STEP_SUMMARY\")")
	return cmd
}

// readSides reads both sides, connecting to the cluster only when one of them lives there:
// two exported files compare without a cluster.
func (o *options) readSides(cmd *cobra.Command, args []string) ([2]side, error) {
	var sides [2]side
	var c client.WithWatch
	var ns string
	for i, arg := range args {
		var err error
		if !sideInCluster(arg) {
			if sides[i], err = readResultFile(arg); err != nil {
				return sides, err
			}
			continue
		}
		if c == nil {
			if c, ns, err = o.connect(); err != nil {
				return sides, err
			}
		}
		ctx, cancel := withTimeout(cmd.Context())
		sides[i], err = readClusterSide(ctx, c, ns, arg)
		cancel()
		if err != nil {
			return sides, err
		}
	}
	return sides, nil
}

// methodNote says when a side's added latency is against a baseline of another method (a
// bulk against a pipelining client): its change holds that method's too.
func methodNote(a, b side) string {
	for _, s := range []side{a, b} {
		if r := s.result.Result; r != nil && r.BaselineMethod != "" {
			return "; the added latency is " + r.BaselineMethod + ": a difference of method beside Dapr's cost"
		}
	}
	return ""
}

// side is one result compare reads: a run's, a sweep point's run's, or one exported with
// `export` (so main's result can be an artifact of main's pipeline). Each is a result
// document, so all three compare alike.
type side struct {
	label  string
	result perfv1alpha1.ResultDocument
}

// sideInCluster says where an argument is read from, without reading it: a kind prefix
// names the cluster; an existing file, a path (a slash) or a .json name is a file (so a
// mistyped path says "no such file", not "no such run"); any other word is a run's name.
func sideInCluster(arg string) bool {
	if kind, _, found := strings.Cut(arg, "/"); found {
		if _, ok := kindAliases[strings.ToLower(kind)]; ok {
			return true
		}
		return false
	}
	if strings.HasSuffix(strings.ToLower(arg), ".json") {
		return false
	}
	st, err := os.Stat(arg)
	return err != nil || !st.Mode().IsRegular()
}

// readResultFile reads an exported result (export -o json).
func readResultFile(path string) (side, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return side{}, err
	}
	var e perfv1alpha1.ResultDocument
	if err := json.Unmarshal(b, &e); err != nil {
		return side{}, fmt.Errorf("%s: not an exported result: %w", path, err)
	}
	if e.Schema != perfv1alpha1.ResultSchema {
		return side{}, fmt.Errorf("%s: schema %q, want %q (kubectl daprbench export RUN -o json)", path, e.Schema, perfv1alpha1.ResultSchema)
	}
	if e.Result == nil {
		return side{}, fmt.Errorf("%s: run %s/%s has no result (phase %s)", path, e.Run.Namespace, e.Run.Name, textfmt.OrDash(e.Run.Phase))
	}
	return side{label: path, result: e}, nil
}

// readClusterSide reads RUN, perfrun/RUN or perfsweep/SWEEP/STEP (a point by its step, its
// run's name, or its setting when one point has it).
func readClusterSide(ctx context.Context, c client.Client, ns, arg string) (side, error) {
	kind, rest, _ := strings.Cut(arg, "/")
	name := arg
	if rest != "" {
		name = rest
	}
	if kindAliases[strings.ToLower(kind)] == "perfsweeps" {
		sweepName, step, ok := strings.Cut(rest, "/")
		if !ok {
			return side{}, fmt.Errorf("%q: name a sweep's point, perfsweep/%s/STEP (its step, its run or its setting)", arg, rest)
		}
		sw := &perfv1alpha1.PerfSweep{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: sweepName}, sw); err != nil {
			return side{}, err
		}
		if name = pointRun(sw, step); name == "" {
			return side{}, fmt.Errorf("%q: sweep %s has no point %q with a run", arg, sweepName, step)
		}
	} else if kind != arg && kindAliases[strings.ToLower(kind)] != "perfruns" {
		return side{}, fmt.Errorf("%q: compare a RUN, perfrun/RUN, perfsweep/SWEEP/STEP or an exported result file", arg)
	}
	run := &perfv1alpha1.PerfRun{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, run); err != nil {
		return side{}, err
	}
	doc, _, err := readDocument(ctx, c, run)
	if err != nil {
		return side{}, err
	}
	return side{label: arg, result: *doc.Doc}, nil
}

// pointRun is the run of the sweep's point named by its step or its run's name.
func pointRun(sw *perfv1alpha1.PerfSweep, step string) string {
	bySetting := ""
	for _, p := range sw.Status.Points {
		if p.Run != "" && (p.Run == step || strconv.Itoa(int(p.Step)) == step) {
			return p.Run
		}
		if p.Run != "" && p.Setting == step {
			if bySetting != "" {
				return "" // the setting was crossed with another list: name the point by its step
			}
			bySetting = p.Run
		}
	}
	return bySetting
}

// writeComparisonReports writes compare's JUnit file and appends its Markdown summary, as
// asked, the way run --wait writes a run's.
func writeComparisonReports(r compare.Comparison, f compareFlags) error {
	if f.junit != "" {
		b, err := compare.JUnit(r, f.failInconclusive)
		if err != nil {
			return err
		}
		if err := os.WriteFile(f.junit, b, 0o644); err != nil {
			return err
		}
	}
	if f.summary != "" {
		return appendFile(f.summary, compare.Summary(r))
	}
	return nil
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text + "\n"); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// rerunSpread is the spread compare widens each run's interval by: measured from a
// schedule's runs (--rerun-spread-from), given (--rerun-spread), or assumed for scenario.
// The flags are checked before any connection is made.
func (o *options) rerunSpread(cmd *cobra.Command, f compareFlags, scenario perfv1alpha1.Scenario) (compare.RerunSpread, error) {
	if f.rerunSpreadDF < 0 {
		return compare.RerunSpread{}, fmt.Errorf("--rerun-spread-df %d: the degrees of freedom are 0 (the spread known) or more", f.rerunSpreadDF)
	}
	given, set := f.rerunSpread.Given()
	if f.rerunSpreadDF > 0 && !set {
		return compare.RerunSpread{}, fmt.Errorf("--rerun-spread-df needs --rerun-spread: it says how many reruns that spread was measured over")
	}
	switch {
	case f.rerunSpreadFrom != "":
		name, ok := strings.CutPrefix(f.rerunSpreadFrom, "perfschedule/")
		if !ok || name == "" {
			return compare.RerunSpread{}, fmt.Errorf("--rerun-spread-from %q: perfschedule/NAME, a schedule of the current namespace", f.rerunSpreadFrom)
		}
		c, ns, err := o.connect()
		if err != nil {
			return compare.RerunSpread{}, err
		}
		ctx, cancel := withTimeout(cmd.Context())
		defer cancel()
		objs, err := scheduleRuns(ctx, c, ns, name)
		if err != nil {
			return compare.RerunSpread{}, err
		}
		slices.SortFunc(objs, func(a, b perfv1alpha1.PerfRun) int { return a.CreationTimestamp.Compare(b.CreationTimestamp.Time) })
		runs, unread := loadRuns(ctx, c, objs)
		s, err := compare.SpreadFromRuns("perfschedule/"+name, runs)
		if err == nil && len(unread) > 0 {
			s.From += fmt.Sprintf("; %d runs' documents not read: %s", len(unread), strings.Join(unread, "; "))
		}
		return s, err
	case set:
		s := compare.KnownRerunSpread(given)
		s.DF = f.rerunSpreadDF
		if s.DF > 0 {
			s.From += fmt.Sprintf(" over %d degrees of freedom", s.DF)
		}
		return s, nil
	}
	return compare.DefaultRerunSpread(scenario), nil
}
