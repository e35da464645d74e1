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

package plugin

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
)

func newWatchCommand(o *options) *cobra.Command {
	var interval time.Duration
	cmd := &cobra.Command{
		Use:   "watch RUN",
		Short: "A run's progress until it finishes: phase, repetition, elapsed and remaining time, with a progress bar",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, ns, err := o.connect()
			if err != nil {
				return err
			}
			key := client.ObjectKey{Namespace: ns, Name: args[0]}
			var last string
			var deadline time.Time
			for {
				run := &perfv1alpha1.PerfRun{}
				if err := c.Get(cmd.Context(), key, run); err != nil {
					return err
				}
				if deadline.IsZero() {
					// the run's own bound, and a minute for collecting
					deadline = time.Now().Add(run.Spec.EffectiveTimeout() + time.Minute)
				}
				if line := Progress(run, time.Now()); line != last {
					fprintf(o.streams.Out, "%s\n", line)
					last = line
				}
				if run.Finished() {
					return nil
				}
				if time.Now().After(deadline) {
					return fmt.Errorf("run %s has not finished within its timeout", args[0])
				}
				select {
				case <-cmd.Context().Done():
					return cmd.Context().Err()
				case <-time.After(interval):
				}
			}
		},
	}
	cmd.Flags().DurationVar(&interval, "interval", 2*time.Second, "how often to look")
	return cmd
}

// Progress is one line about where a run is: its phase, and while it runs the repetition
// and path being measured (estimated from when its workloads became ready and the spec's
// timings), elapsed and remaining time, and a bar.
func Progress(run *perfv1alpha1.PerfRun, now time.Time) string {
	switch {
	case run.Finished():
		return fmt.Sprintf("%s: %s", run.Status.Phase, conditionMessage(run))
	case run.Status.Phase != perfv1alpha1.PhaseRunning:
		return fmt.Sprintf("%s: %s", orDash(string(run.Status.Phase)), conditionMessage(run))
	}
	var started time.Time
	for _, c := range run.Status.Conditions {
		if c.Type == perfv1alpha1.ConditionWorkloadsReady && c.Status == "True" {
			started = c.LastTransitionTime.Time
		}
	}
	if started.IsZero() {
		return "Running"
	}
	spec := run.Spec
	total := spec.LoadTime()
	elapsed := min(max(now.Sub(started), 0), total)
	where := "warm-up"
	if w := spec.Load.EffectiveWarmup(); elapsed >= w {
		per := spec.Load.EffectiveDuration()
		i := int((elapsed - w) / per) // runs completed
		i = min(i, int(spec.Load.EffectiveRepetitions())*spec.Paths()-1)
		where = fmt.Sprintf("repetition %d/%d, %s path", i/spec.Paths()+1, spec.Load.EffectiveRepetitions(), pathName(&spec, i%spec.Paths()))
	}
	const width = 30
	done := int(float64(width) * float64(elapsed) / float64(total))
	return fmt.Sprintf("[%s%s] %3.0f%% %s, %v elapsed, ~%v left", strings.Repeat("#", done), strings.Repeat("-", width-done),
		100*float64(elapsed)/float64(total), where, elapsed.Round(time.Second), (total - elapsed).Round(time.Second))
}

func conditionMessage(run *perfv1alpha1.PerfRun) string {
	for _, t := range []string{perfv1alpha1.ConditionFailed, perfv1alpha1.ConditionSucceeded, perfv1alpha1.ConditionWorkloadsReady, perfv1alpha1.ConditionDaprReady} {
		for _, c := range run.Status.Conditions {
			if c.Type == t && c.Message != "" {
				return c.Message
			}
		}
	}
	return "waiting"
}

// pathName names the k-th path of a repetition: the baseline first, then the sidecar
// variants in spec order (their order alternates between repetitions; this is the first's).
func pathName(spec *perfv1alpha1.PerfRunSpec, k int) string {
	switch {
	case !spec.DaprEnabled():
		return "direct"
	case spec.BaselineEnabled() && k == 0:
		return "baseline"
	case spec.BaselineEnabled():
		k--
	}
	if name := spec.EffectiveVariants()[min(k, len(spec.EffectiveVariants())-1)].Name; name != "" {
		return "dapr (" + name + ")"
	}
	return "dapr"
}
