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
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

// ExportSchema names the version of the exported document; bumped on any incompatible
// change (docs/result-schema.md describes each field and its SMP counterpart).
const ExportSchema = "perf.daprbench.io/result/v1"

// Export is one finished run as a self-describing document for a results store or a CI job.
type Export struct {
	Schema      string                    `json:"schema"`
	Run         ExportRun                 `json:"run"`
	Scenario    perfv1alpha1.Scenario     `json:"scenario"`
	Load        ExportLoad                `json:"load"`
	Dapr        ExportDapr                `json:"dapr"`
	Environment *perfv1alpha1.Environment `json:"environment,omitempty"`
	Result      *perfv1alpha1.Result      `json:"result"`
	Conditions  []ExportCondition         `json:"conditions,omitempty"`
}

// ExportRun identifies the run.
type ExportRun struct {
	Namespace  string     `json:"namespace"`
	Name       string     `json:"name"`
	UID        string     `json:"uid"`
	Generation int64      `json:"generation"`
	Schedule   string     `json:"schedule,omitempty"`
	Sweep      string     `json:"sweep,omitempty"`
	Phase      string     `json:"phase"`
	StartTime  *time.Time `json:"startTime,omitempty"`
	EndTime    *time.Time `json:"endTime,omitempty"`
}

// ExportLoad is the load as it ran, defaults resolved.
type ExportLoad struct {
	QPS          int32   `json:"qps"`
	Connections  int32   `json:"connections"`
	DurationSec  float64 `json:"durationSeconds"`
	WarmupSec    float64 `json:"warmupSeconds"`
	Repetitions  int32   `json:"repetitions"`
	PayloadBytes int     `json:"payloadBytes"`
	Baseline     bool    `json:"baseline"`
	Arrival      string  `json:"arrival"`
	Replicas     int32   `json:"loadTesterReplicas"`
}

// ExportDapr is the Dapr side as it ran.
type ExportDapr struct {
	Enabled             bool   `json:"enabled"`
	MTLS                string `json:"mtls,omitempty"`
	TracingSamplingRate string `json:"tracingSamplingRate,omitempty"`
	SidecarCPULimit     string `json:"sidecarCPULimit,omitempty"`
}

// ExportCondition is a condition without its bookkeeping.
type ExportCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// ToExport builds the document of a run.
func ToExport(run *perfv1alpha1.PerfRun) Export {
	s := &run.Spec
	random, literal := s.Body()
	payload := random
	if literal != nil {
		payload = len(*literal)
	}
	e := Export{Schema: ExportSchema, Scenario: s.Scenario, Environment: run.Status.Environment, Result: run.Status.Result,
		Run: ExportRun{Namespace: run.Namespace, Name: run.Name, UID: string(run.UID), Generation: run.Generation,
			Schedule: run.Labels[perfv1alpha1.LabelSchedule], Sweep: run.Labels[perfv1alpha1.LabelSweep], Phase: string(run.Status.Phase)},
		Load: ExportLoad{QPS: s.Load.QPS, Connections: s.Load.EffectiveConnections(), DurationSec: s.Load.EffectiveDuration().Seconds(),
			WarmupSec: s.Load.EffectiveWarmup().Seconds(), Repetitions: s.Load.EffectiveRepetitions(), PayloadBytes: payload, Baseline: s.BaselineEnabled(),
			Arrival: string(s.Load.EffectiveArrival()), Replicas: s.LoadTester.EffectiveReplicas()},
		Dapr: ExportDapr{Enabled: s.DaprEnabled()},
	}
	if s.DaprEnabled() {
		e.Dapr.MTLS, e.Dapr.TracingSamplingRate = string(s.Dapr.MTLS), s.Dapr.TracingSamplingRate
		if q := s.Dapr.Sidecar.CPULimit; q != nil {
			e.Dapr.SidecarCPULimit = q.String()
		}
	}
	if t := run.Status.StartTime; t != nil {
		e.Run.StartTime = &t.Time
	}
	if t := run.Status.CompletionTime; t != nil {
		e.Run.EndTime = &t.Time
	}
	for _, c := range run.Status.Conditions {
		e.Conditions = append(e.Conditions, ExportCondition{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message})
	}
	return e
}

func newExportCommand(o *options) *cobra.Command {
	var format, dir string
	cmd := &cobra.Command{
		Use:   "export RUN|perfsweep/SWEEP",
		Short: "A finished run's result out of the cluster: one JSON document (schema " + ExportSchema + "), fortio result files, or CSV",
		Long: `--format json (default): the run as one versioned document (docs/result-schema.md).
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
			run, isRun := obj.(*perfv1alpha1.PerfRun)
			switch {
			case format == "csv" && isRun:
				return writeCSV(o.streams.Out, []RunRow{runRow(run)})
			case format == "csv":
				return writeCSV(o.streams.Out, pointRows(obj.(*perfv1alpha1.PerfSweep)))
			case !isRun:
				return fmt.Errorf("--format %s exports a run; a sweep exports as csv, its points' runs one by one", format)
			case format == "fortio":
				h, err := runHistograms(ctx, c, run)
				if err != nil {
					return err
				}
				if dir == "" {
					dir = "daprbench-export-" + run.Name
				}
				written, skipped, err := writeFortio(dir, run, h)
				for _, f := range written {
					fprintf(o.streams.Out, "written: %s\n", f)
				}
				for _, s := range skipped {
					fprintf(o.streams.ErrOut, "%s\n", s)
				}
				return err
			case !o.output.table():
				_, err := o.printData(ToExport(run))
				return err
			}
			enc := json.NewEncoder(o.streams.Out)
			enc.SetIndent("", "  ")
			return enc.Encode(ToExport(run))
		},
	}
	cmd.Flags().StringVar(&format, "format", "json", "json, fortio or csv")
	cmd.Flags().StringVar(&dir, "dir", "", "folder for --format fortio (default daprbench-export-RUN)")
	return cmd
}
