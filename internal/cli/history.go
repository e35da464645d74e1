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
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/assess/regression"
	"github.com/daprbench/daprbench/internal/assess/repetitions"
	"github.com/daprbench/daprbench/internal/cli/compare"
	"github.com/daprbench/daprbench/internal/cli/plots"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/document"
)

// TrendRow is one run of a schedule's history.
type TrendRow struct {
	Run        string `json:"run"`
	Scheduled  string `json:"scheduled"`
	Phase      string `json:"phase"`
	AddedP90   string `json:"addedP90"`
	AddedP99   string `json:"addedP99"`
	SidecarCPU string `json:"sidecarCPUPer1kQPS"`
	Regressed  bool   `json:"regressed"`
	// LevelChange marks the first run of a new level of added p90 (a change point of the
	// history, E-divisive means as the regression judge finds them).
	LevelChange bool `json:"levelChange,omitempty"`
	// Calibration is the target node's calibration, units per CPU-second ("-": none).
	Calibration string `json:"calibration"`
	// ServerCPUPerRequest is the server sidecar's CPU per request, raw ("-": none).
	ServerCPUPerRequest string `json:"serverSidecarCPUPerRequest"`
}

func newHistoryCommand(o *options) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "history SCHEDULE",
		Short: "A schedule's runs as a trend: added latency and sidecar CPU run by run, regressions marked, and its charts",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			c, ns, err := o.connect()
			if err != nil {
				return err
			}
			objs, err := scheduleRuns(ctx, c, ns, args[0])
			if err != nil {
				return err
			}
			if len(objs) == 0 {
				return fmt.Errorf("no runs of schedule %q in namespace %q", args[0], ns)
			}
			slices.SortFunc(objs, func(a, b perfv1alpha1.PerfRun) int { return a.CreationTimestamp.Compare(b.CreationTimestamp.Time) })
			runs, unread := loadRuns(ctx, c, objs)
			rows := trend(runs)
			if ok, err := o.printData(rows); ok {
				return err
			}
			t := &textfmt.Table{}
			t.Add("RUN", "SCHEDULED", "PHASE", "ADDED P90", "ADDED P99", "SIDECAR CPU/1K", "REGRESSED", "LEVEL", "CALIBRATION", "SERVER CPU/REQ")
			for _, r := range rows {
				t.Add(r.Run, r.Scheduled, r.Phase, r.AddedP90, r.AddedP99, r.SidecarCPU, map[bool]string{true: "yes", false: "-"}[r.Regressed],
					map[bool]string{true: "changed", false: "-"}[r.LevelChange], r.Calibration, r.ServerCPUPerRequest)
			}
			text := t.String()
			for _, u := range unread {
				text += "\nnot in the trend: " + u
			}
			if w := calibrationSpread(runs); w != "" {
				text += "\n" + w + "\n"
			}
			out, err := reportDir(dir, "daprbench-history-"+args[0])
			if err != nil {
				return err
			}
			return o.printAndWrite(out, "schedule "+args[0], nil, text, plots.ForHistory(args[0], runs))
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "folder for the trend charts and report.html (default: a new temporary folder, daprbench-history-SCHEDULE-*, named in the output)")
	return cmd
}

func trend(runs []document.Run) []TrendRow {
	var rows []TrendRow
	for _, r := range runs {
		row := TrendRow{Run: r.Name, Scheduled: textfmt.OrDash(r.Annotations[perfv1alpha1.AnnotationScheduledTime]), Phase: textfmt.OrDash(string(r.Status.Phase)),
			AddedP90: "-", AddedP99: "-", SidecarCPU: "-", Regressed: r.ConditionTrue(perfv1alpha1.ConditionRegressed),
			Calibration: "-", ServerCPUPerRequest: "-"}
		if v, _, ok := r.Status.Environment.TargetCalibration(); ok {
			row.Calibration = textfmt.Fixed(v, 0)
		}
		if res := r.Result(); res != nil {
			if a := res.Added; a != nil {
				row.AddedP90, row.AddedP99 = textfmt.Dur(a.P90), textfmt.Dur(a.P99)
			}
			if cpu := compare.SidecarCPU(res); cpu >= 0 {
				row.SidecarCPU = fmt.Sprintf("%dm", cpu)
			}
			for _, c := range res.SidecarCost {
				if c.Role == "serverSidecar" && c.CPUPerRequest.Duration > 0 {
					row.ServerCPUPerRequest = c.CPUPerRequest.Duration.String()
				}
			}
		}
		rows = append(rows, row)
	}
	markLevelChanges(runs, rows)
	return rows
}

// calibrationSpread names the runs whose node calibration is more than
// regression.CalibrationDrift from the history's median: their raw CPU and latency may
// reflect the machine, not Dapr. Only runs of the newest run's calibration workload count
// (other versions do not compare). Empty when all agree or there are fewer than two.
func calibrationSpread(runs []document.Run) string {
	latest := ""
	for i := range runs {
		if _, w, ok := runs[i].Status.Environment.TargetCalibration(); ok {
			latest = w
		}
	}
	calibration := func(r *document.Run) (float64, bool) {
		v, w, ok := r.Status.Environment.TargetCalibration()
		return v, ok && w == latest
	}
	var scores []float64
	for i := range runs {
		if v, ok := calibration(&runs[i]); ok {
			scores = append(scores, v)
		}
	}
	if len(scores) < 2 {
		return ""
	}
	med := repetitions.Median(scores)
	var apart []string
	for i := range runs {
		if v, ok := calibration(&runs[i]); ok && math.Abs(v-med)/med > regression.CalibrationDrift {
			apart = append(apart, fmt.Sprintf("%s (%+.0f%%)", runs[i].Name, (v-med)/med*100))
		}
	}
	if len(apart) == 0 {
		return ""
	}
	return fmt.Sprintf("warning: node calibration more than %.0f%% from the median of %.0f units per CPU-second in %s: "+
		"their CPU and latency may reflect the machine, not Dapr", regression.CalibrationDrift*100, med, strings.Join(apart, ", "))
}

// markLevelChanges marks the rows where the history of added p90 changes level.
func markLevelChanges(runs []document.Run, rows []TrendRow) {
	var series []float64
	var at []int
	for i, r := range runs {
		if res := r.Result(); res != nil && res.Added != nil && res.Added.P90 != nil && !res.AddedLimitBound {
			series, at = append(series, float64(res.Added.P90.Duration)), append(at, i)
		}
	}
	for _, cp := range regression.LevelChanges(series) {
		rows[at[cp]].LevelChange = true
	}
}

// loadRuns reads each run's result document; a run whose document cannot be read is kept
// without it, and unread says which and why.
func loadRuns(ctx context.Context, c client.Reader, runs []perfv1alpha1.PerfRun) (loaded []document.Run, unread []string) {
	for i := range runs {
		r, err := document.Load(ctx, c, &runs[i])
		if err != nil {
			unread = append(unread, fmt.Sprintf("%s (%v)", runs[i].Name, err))
		}
		loaded = append(loaded, r)
	}
	return loaded, unread
}
