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
	"strings"
	"time"

	"github.com/spf13/cobra"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

func newWatchCommand(o *options) *cobra.Command {
	var ci ciFlags
	cmd := &cobra.Command{
		Use:               "watch (RUN | perfrun/RUN | perfsweep/SWEEP)",
		Short:             "Follow a run or a sweep until it finishes (phase, repetition, elapsed and remaining time) and exit with its verdict, as run --wait does",
		ValidArgsFunction: o.completeRuns(true),
		Args:              cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			c, obj, err := o.connectAndGet(ctx, args[0])
			if err != nil {
				return err
			}
			return o.waitAndJudge(cmd.Context(), c, obj, ci)
		},
	}
	ci.bind(cmd)
	return cmd
}

// Progress is one line about where a run is: its phase, and while its load runs the
// repetition and path being measured, elapsed and remaining time and a bar, from what the
// controller wrote (status.progress: the load's start and expected end, and the repetition
// and path it last saw).
func Progress(run *perfv1alpha1.PerfRun, now time.Time) string {
	switch {
	case run.Finished():
		return fmt.Sprintf("%s: %s", run.Status.Phase, verdict.ConditionMessage(run))
	case run.Status.Phase == "":
		return "Pending: waiting for the operator"
	case run.Status.Phase != perfv1alpha1.PhaseRunning:
		return fmt.Sprintf("%s: %s", run.Status.Phase, verdict.ConditionMessage(run))
	}
	p := run.Status.Progress
	if p == nil {
		return "Running: starting the load tester"
	}
	total := p.ExpectedEndTime.Sub(p.LoadStartTime.Time)
	elapsed := min(max(now.Sub(p.LoadStartTime.Time), 0), total)
	where := p.Path
	if p.Repetition > 0 {
		where = fmt.Sprintf("repetition %d/%d, %s path", p.Repetition, p.Repetitions, p.Path)
	}
	const width = 30
	done, pct := 0, 100.0
	if total > 0 {
		done, pct = int(float64(width)*float64(elapsed)/float64(total)), 100*float64(elapsed)/float64(total)
	}
	return fmt.Sprintf("[%s%s] %3.0f%% %s, %v elapsed, ~%v left", strings.Repeat("#", done), strings.Repeat("-", width-done),
		pct, where, elapsed.Round(time.Second), (total - elapsed).Round(time.Second))
}
