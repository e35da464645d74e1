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
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/cli-runtime/pkg/printers"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/document"
)

// listing is one kind `list` can show: how to list it and its table's columns. Columns
// of priority 1 show with -o wide only, as in kubectl's own tables.
type listing struct {
	newList func() client.ObjectList
	columns []metav1.TableColumnDefinition
	row     func(obj runtime.Object, now time.Time) []any
}

var listings = map[string]listing{
	"perfruns":      {func() client.ObjectList { return &perfv1alpha1.PerfRunList{} }, runColumns, runListRow},
	"perfsweeps":    {func() client.ObjectList { return &perfv1alpha1.PerfSweepList{} }, sweepColumns, sweepListRow},
	"perfschedules": {func() client.ObjectList { return &perfv1alpha1.PerfScheduleList{} }, scheduleColumns, scheduleListRow},
}

// kindAliases are the names kubectl accepts for each kind: plural, singular, short.
// Each also with its group, as -o name prints it (perfrun.perf.daprbench.io/NAME).
var kindAliases = func() map[string]string {
	m := map[string]string{
		"perfruns": "perfruns", "perfrun": "perfruns", "prun": "perfruns",
		"perfsweeps": "perfsweeps", "perfsweep": "perfsweeps", "psw": "perfsweeps",
		"perfschedules": "perfschedules", "perfschedule": "perfschedules", "psched": "perfschedules",
	}
	for name, plural := range maps.Clone(m) {
		m[name+"."+perfv1alpha1.GroupVersion.Group] = plural
	}
	return m
}()

func newListCommand(o *options) *cobra.Command {
	var allNamespaces, noHeaders bool
	var selector string
	cmd := &cobra.Command{
		Use:   "list [perfruns|perfsweeps|perfschedules]",
		Short: "Runs (or sweeps, schedules) with their figures and verdicts, as kubectl get lists them: -A, -l, -o wide|name|json|yaml|jsonpath|go-template",
		Example: `  kubectl daprbench list -A
  kubectl daprbench list -l perf.daprbench.io/schedule=nightly -o wide
  kubectl daprbench list -o jsonpath='{range .items[*]}{.metadata.name} {.status.result.added.p90}{"\n"}{end}'`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: []string{"perfruns", "perfsweeps", "perfschedules"},
		RunE: func(cmd *cobra.Command, args []string) error {
			kind := "perfruns"
			if len(args) == 1 {
				var ok bool
				if kind, ok = kindAliases[strings.ToLower(args[0])]; !ok {
					return fmt.Errorf("%q: list perfruns, perfsweeps or perfschedules", args[0])
				}
			}
			sel, err := labels.Parse(selector)
			if err != nil {
				return fmt.Errorf("-l %q: %w", selector, err)
			}
			c, ns, err := o.connect()
			if err != nil {
				return err
			}
			opts := []client.ListOption{client.MatchingLabelsSelector{Selector: sel}}
			if !allNamespaces {
				opts = append(opts, client.InNamespace(ns))
			}
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			l := listings[kind]
			list := l.newList()
			if err := c.List(ctx, list, opts...); err != nil {
				return err
			}
			objs, err := meta.ExtractList(list)
			if err != nil {
				return err
			}
			if len(objs) == 0 {
				fprintf(o.streams.ErrOut, "No %s found%s.\n", kind, map[bool]string{true: "", false: " in namespace " + ns}[allNamespaces])
			}
			if !o.output.table() {
				return o.printList(objs)
			}
			table := &metav1.Table{ColumnDefinitions: l.columns}
			now := time.Now()
			for _, obj := range objs {
				if run, ok := obj.(*perfv1alpha1.PerfRun); ok {
					// The wide columns the headline does not hold are the document's.
					obj = document.Run{PerfRun: run}
					if o.output.wide() {
						obj, _ = document.Load(ctx, c, run) // a document not read leaves its columns "-"
					}
				}
				cells := l.row(obj, now)
				for i, c := range cells {
					if s, ok := c.(string); ok {
						cells[i] = textfmt.TerminalCell(s) // cli-runtime escapes ESC and CR only
					}
				}
				table.Rows = append(table.Rows, metav1.TableRow{Cells: cells, Object: runtime.RawExtension{Object: obj}})
			}
			printer := printers.NewTablePrinter(printers.PrintOptions{Wide: o.output.wide(), WithNamespace: allNamespaces, NoHeaders: noHeaders})
			return printer.PrintObj(table, o.streams.Out)
		},
	}
	cmd.Flags().BoolVarP(&allNamespaces, "all-namespaces", "A", false, "list across all namespaces")
	cmd.Flags().StringVarP(&selector, "selector", "l", "", "label selector, e.g. perf.daprbench.io/schedule=nightly")
	cmd.Flags().BoolVar(&noHeaders, "no-headers", false, "print the table without its header")
	return cmd
}

func column(name, description string, wideOnly bool) metav1.TableColumnDefinition {
	c := metav1.TableColumnDefinition{Name: name, Type: "string", Description: description}
	if name == "Name" {
		c.Format = "name"
	}
	if wideOnly {
		c.Priority = 1
	}
	return c
}

var runColumns = []metav1.TableColumnDefinition{
	column("Name", "the run's name", false),
	column("Scenario", "ServiceInvocation, ActorActivation or State", false),
	column("QPS", "the requested rate", false),
	column("Phase", "where the run is", false),
	column("Added P90", "p90 latency Dapr added over the baseline", false),
	column("Added P99", "p99 latency Dapr added over the baseline", false),
	column("Verdict", "Passed, or the reason a CI step would fail (run --wait's exit code)", false),
	column("Age", "time since the run was created", false),
	column("Actual QPS", "the rate achieved", true),
	column("Errors", "requests that failed", true),
	column("P90", "p90 latency through Dapr, from each request's scheduled send", true),
	column("Baseline P90", "p90 latency without Dapr", true),
	column("Added P90 Interval", "the added p90's confidence interval", true),
	column("Sidecar CPU/1K", "the server sidecar's CPU per 1000 rps", true),
	column("Schedule", "the PerfSchedule that started the run", true),
}

// runListRow is a run's row of runColumns, from its status's headline; the wide columns
// the headline does not hold (the baseline, the sidecar's CPU per 1000 rps) from the
// document, which list reads only for -o wide.
func runListRow(obj runtime.Object, now time.Time) []any {
	run := obj.(document.Run)
	h := run.Status.Result
	if h == nil {
		h = &perfv1alpha1.ResultHeadline{}
	}
	point := func(l *perfv1alpha1.PointLatency, f func(*perfv1alpha1.PointLatency) *metav1.Duration) string {
		if l == nil {
			return "-"
		}
		return textfmt.Dur(f(l))
	}
	p90 := func(l *perfv1alpha1.PointLatency) *metav1.Duration { return l.P90 }
	p99 := func(l *perfv1alpha1.PointLatency) *metav1.Duration { return l.P99 }
	interval, baseline, sidecarCPU, errs := "-", "-", "-", "-"
	if in := h.AddedInterval; in != nil {
		interval = fmt.Sprintf("%s..%s (%d%%)", textfmt.Dur(in.Low.P90), textfmt.Dur(in.High.P90), in.ConfidencePercent)
	}
	if res := run.Result(); res != nil {
		if res.Baseline != nil {
			baseline = textfmt.Dur(res.Baseline.P90)
		}
		if res.Resources != nil && res.Resources.SidecarPer1kQPS != nil {
			sidecarCPU = textfmt.Qty(res.Resources.SidecarPer1kQPS.CPU)
		}
	}
	if run.Status.Result != nil {
		errs = fmt.Sprint(h.Errors)
	}
	return []any{run.Name, string(run.Spec.Scenario), fmt.Sprint(run.Spec.Load.QPS), textfmt.OrDash(string(run.Status.Phase)),
		point(h.Added, p90), point(h.Added, p99), verdictWord(run.PerfRun), age(run.CreationTimestamp, now),
		textfmt.OrDash(h.ActualQPS), errs, point(h.Latency, p90), baseline, interval, sidecarCPU, textfmt.OrDash(run.Labels[perfv1alpha1.LabelSchedule])}
}

// verdictWord is a finished run's outcome in a word: Passed, or the reason of the condition
// that gives run --wait its exit code.
func verdictWord(run *perfv1alpha1.PerfRun) string {
	if !run.Finished() {
		return "-"
	}
	o := verdict.RunOutcome(run, false)
	if o.Code == verdict.ExitPassed {
		return "Passed"
	}
	reason, _, _ := strings.Cut(o.Reason, ":")
	return reason
}

var sweepColumns = []metav1.TableColumnDefinition{
	column("Name", "the sweep's name", false),
	column("Phase", "where the sweep is", false),
	column("Measured", "points measured", false),
	column("Max Sustainable QPS", "the highest rate that met every gate", false),
	column("First Failing QPS", "the lowest rate that did not", false),
	column("Age", "time since the sweep was created", false),
	column("Verdict", "the sweep's condition: why it ended as it did", true),
}

func sweepListRow(obj runtime.Object, now time.Time) []any {
	sw := obj.(*perfv1alpha1.PerfSweep)
	word := "-"
	if sweepFinished(sw) {
		word, _, _ = strings.Cut(verdict.SweepOutcome(sw).Reason, ":")
	}
	return []any{sw.Name, textfmt.OrDash(string(sw.Status.Phase)), fmt.Sprint(sw.Status.Measured),
		optionalInt(sw.Status.MaxSustainableQPS), optionalInt(sw.Status.FirstFailingQPS), age(sw.CreationTimestamp, now), word}
}

var scheduleColumns = []metav1.TableColumnDefinition{
	column("Name", "the schedule's name", false),
	column("Schedule", "its cron expression", false),
	column("Suspend", "whether new runs are held back", false),
	column("Active", "runs going now", false),
	column("Last Run", "the run started last", false),
	column("Regressed", "whether the latest finished run regressed", false),
	column("Age", "time since the schedule was created", false),
	column("Next", "when the next run starts", true),
	column("Last Successful Run", "the last run that succeeded", true),
}

func scheduleListRow(obj runtime.Object, now time.Time) []any {
	s := obj.(*perfv1alpha1.PerfSchedule)
	regressed, next := "-", "-"
	if s.Status.LatestRegressed != nil {
		regressed = map[bool]string{true: "yes", false: "no"}[*s.Status.LatestRegressed]
	}
	if t := s.Status.NextScheduleTime; t != nil {
		next = t.UTC().Format(time.RFC3339)
	}
	return []any{s.Name, s.Spec.Schedule, fmt.Sprint(s.Spec.Suspend), fmt.Sprint(len(s.Status.Active)), textfmt.OrDash(s.Status.LastRun),
		regressed, age(s.CreationTimestamp, now), next, textfmt.OrDash(s.Status.LastSuccessfulRun)}
}

func optionalInt(v *int32) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprint(*v)
}

// age is kubectl's AGE: the time since t, in its short human form.
func age(t metav1.Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(t.Time))
}
