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
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

func newReportCommand(o *options) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:               "report (RUN | perfrun/RUN | perfsweep/SWEEP)",
		Short:             "A run's or a sweep's result as tables, with its charts and a self-contained HTML report in a folder",
		ValidArgsFunction: o.completeRuns(true),
		Args:              cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			c, got, err := o.connectAndGet(ctx, args[0])
			if err != nil {
				return err
			}
			obj, err := loaded(ctx, c, got)
			if err != nil {
				return err
			}
			var text string
			var charts []plots.Chart
			switch v := obj.(type) {
			case document.Run:
				if ok, err := o.printData(runData(v)); ok {
					return err
				}
				text, charts = report.Run(v)
			case sweep.Measured:
				if ok, err := o.printData(sweepData{v.Status, v.Points}); ok {
					return err
				}
				text, charts = report.Sweep(v)
			}
			out, err := reportDir(dir, "daprbench-report-"+obj.GetName())
			if err != nil {
				return err
			}
			var parts []report.Part
			if run, ok := obj.(document.Run); ok {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				profiles, part := report.Profiles(ctx, c, run, out)
				text += profiles
				if part != nil {
					parts = append(parts, *part)
				}
			}
			return o.printAndWrite(out, obj.GetName(), obj, text, charts, parts...)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "folder for the charts and report.html (default: a new temporary folder, daprbench-report-NAME-*, named in the output)")
	return cmd
}

// connect returns a client and the namespace the flags name.
func (o *options) connect() (client.WithWatch, string, error) {
	ns, err := o.namespace()
	if err != nil {
		return nil, "", err
	}
	c, err := o.newClient()
	return c, ns, err
}

// getRunOrSweep reads perfrun/NAME, perfsweep/NAME, or NAME as a run and else a sweep.
// connectAndGet connects and reads the run or sweep arg names in the namespace of -n.
func (o *options) connectAndGet(ctx context.Context, arg string) (client.WithWatch, client.Object, error) {
	c, ns, err := o.connect()
	if err != nil {
		return nil, nil, err
	}
	obj, err := getRunOrSweep(ctx, c, ns, arg)
	return c, obj, err
}

func getRunOrSweep(ctx context.Context, c client.Client, ns, arg string) (client.Object, error) {
	kind, name, found := strings.Cut(arg, "/")
	if !found {
		kind, name = "", arg
	}
	key := client.ObjectKey{Namespace: ns, Name: name}
	// perfrun, perfruns, prun and the like, as list takes them
	switch plural := kindAliases[strings.ToLower(kind)]; {
	case plural == "perfruns":
		run := &perfv1alpha1.PerfRun{}
		return run, c.Get(ctx, key, run)
	case plural == "perfsweeps":
		sw := &perfv1alpha1.PerfSweep{}
		return sw, c.Get(ctx, key, sw)
	case kind == "":
		run := &perfv1alpha1.PerfRun{}
		err := c.Get(ctx, key, run)
		if !apierrors.IsNotFound(err) {
			return run, err
		}
		sw := &perfv1alpha1.PerfSweep{}
		if err := c.Get(ctx, key, sw); err != nil {
			if apierrors.IsNotFound(err) {
				return nil, fmt.Errorf("no PerfRun or PerfSweep %q in namespace %q", name, ns)
			}
			return nil, err
		}
		return sw, nil
	}
	return nil, fmt.Errorf("%q: name a perfrun/NAME or perfsweep/NAME", arg)
}

// printAndWrite prints the tables, writes the report into dir and lists its files. obj is
// the run or sweep the report is of, nil for a schedule's history.
func (o *options) printAndWrite(dir, title string, obj client.Object, text string, charts []plots.Chart, parts ...report.Part) error {
	fprintf(o.streams.Out, "%s", textfmt.ForTerminal(text))
	files, err := report.Write(dir, title, obj, text, charts, parts...)
	if err != nil {
		return err
	}
	fprintf(o.streams.Out, "\nwritten: %s\n", strings.Join(files, ", "))
	return nil
}

// reportDir is the folder asked for, or a new temporary one: a report never lands in the
// current directory (a checkout, in CI) unless asked.
func reportDir(dir, prefix string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return os.MkdirTemp("", prefix+"-")
}

// runData is what report -o json|yaml prints of a run: its result document, or its status
// when it has none (it failed before measuring, or its document cannot be read).
func runData(run document.Run) any {
	if run.Doc != nil {
		return run.Doc
	}
	return run.Status
}

// sweepData is what report -o json|yaml prints of a sweep: its status, each point with its
// run's figures, read from the run's document.
type sweepData struct {
	perfv1alpha1.PerfSweepStatus
	Points []sweep.MeasuredPoint `json:"points"`
}
