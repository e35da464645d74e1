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

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/export"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

func newExportCommand(o *options) *cobra.Command {
	var format, dir string
	cmd := &cobra.Command{
		Use:   "export RUN|perfsweep/SWEEP",
		Short: "A finished run's result out of the cluster: its result document (schema " + perfv1alpha1.ResultSchema + "), fortio result files, or CSV",
		Long: `--format json (default): the run's result document, byte for byte as the operator wrote it
  (docs/result-schema.md; its SHA-256 is the run's status.result.digest).
--format fortio: one fortio result JSON per path in --dir, from the run's full histograms
  (latency from each request's scheduled send, every repetition merged): fortio report
  and any tool reading fortio's JSON show them.
--format csv (or -o csv): one row per run, or per point of a sweep (history SCHEDULE -o csv:
  per run). -o yaml and the template printers print the JSON document their way.`,
		ValidArgsFunction: o.completeRuns(true),
		Args:              cobra.ExactArgs(1),
		PreRunE: func(*cobra.Command, []string) error {
			switch {
			case format != "json" && format != "fortio" && format != "csv":
				return fmt.Errorf("unknown --format %q: use json, fortio or csv", format)
			case o.output.format() == "csv" && format == "fortio":
				return fmt.Errorf("-o csv and --format fortio: choose one")
			case o.output.format() == "csv":
				format = "csv" // -o csv is --format csv
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			c, obj, err := o.connectAndGet(ctx, args[0])
			if err != nil {
				return err
			}
			if sw, ok := obj.(*perfv1alpha1.PerfSweep); ok {
				if format != "csv" {
					return fmt.Errorf("--format %s exports a run; a sweep exports as csv, its points' runs one by one", format)
				}
				return export.CSV(o.streams.Out, export.PointRows(sweep.Load(ctx, c, sw)))
			}
			run, js, err := readDocument(ctx, c, obj.(*perfv1alpha1.PerfRun))
			if err != nil {
				return err
			}
			switch {
			case format == "csv":
				return export.CSV(o.streams.Out, []export.RunRow{export.Row(run)})
			case format == "fortio":
				if dir == "" {
					dir = "daprbench-export-" + run.Name
				}
				written, skipped, err := export.Fortio(dir, run)
				for _, f := range written {
					fprintf(o.streams.Out, "written: %s\n", f)
				}
				for _, s := range skipped {
					fprintf(o.streams.ErrOut, "%s\n", s)
				}
				return err
			case !o.output.table():
				_, err := o.printData(run.Doc)
				return err
			}
			_, err = o.streams.Out.Write(js) // as the operator wrote it: its digest is the status's
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "json", "json, fortio or csv")
	cmd.Flags().StringVar(&dir, "dir", "", "folder for --format fortio (default daprbench-export-RUN)")
	return cmd
}

// readDocument reads a finished run's result document: the run with it, and the document's
// JSON as kept. A run without one says why (not finished, or its Failed condition).
func readDocument(ctx context.Context, c client.Reader, run *perfv1alpha1.PerfRun) (document.Run, []byte, error) {
	if h := run.Status.Result; h == nil || h.Document == "" {
		why := "it has not finished"
		if c := meta.FindStatusCondition(run.Status.Conditions, perfv1alpha1.ConditionFailed); c != nil && c.Status == metav1.ConditionTrue {
			why = fmt.Sprintf("it failed, %s: %s", c.Reason, c.Message)
		} else if run.Finished() {
			why = "it finished without one"
		}
		return document.Run{PerfRun: run}, nil, fmt.Errorf("run %s has no result document: %s", run.Name, why)
	}
	doc, js, err := document.Read(ctx, c, run)
	return document.Run{PerfRun: run, Doc: doc}, js, err
}
