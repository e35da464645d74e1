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
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
	"github.com/daprbench/daprbench/internal/document"
	"github.com/daprbench/daprbench/internal/operator/sweep"
)

// ciFlags are what `run` and `watch` share: how long to wait and what to write for CI.
type ciFlags struct {
	// cancelOnInterrupt: SIGINT or SIGTERM cancels the run followed (run --wait), rather
	// than only ending the wait (watch).
	cancelOnInterrupt bool
	timeout           time.Duration
	junit             string
	summary           string
	strict            bool
}

func (f *ciFlags) bind(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&f.timeout, "timeout", 0, "how long to wait before exiting 6 with the run still going (0: the run's own timeout and queue wait, and two minutes more)")
	cmd.Flags().StringVar(&f.junit, "junit", "", "write a JUnit XML report here: one testsuite per run, one testcase per threshold")
	cmd.Flags().StringVar(&f.summary, "summary", "", "write a Markdown summary here (e.g. \"$GITHUB_STEP_SUMMARY\"; appended to)")
	cmd.Flags().BoolVar(&f.strict, "strict", false, "exit 5 when the load tester could not keep its rate (Saturated) or a CPU limit throttled a measured container (CPULimitBound)")
}

func newRunCommand(o *options) *cobra.Command {
	var in inputFlags
	var wait bool
	ci := ciFlags{cancelOnInterrupt: true}
	cmd := &cobra.Command{
		Use:   "run (-f FILE|DIR|URL | -k DIR | --from=perfschedule/NAME | --preset NAME) [--wait]",
		Short: "Start PerfRuns or PerfSweeps from files (a new object each time) and, with --wait, follow one and exit with its verdict",
		Long: `Creates each PerfRun or PerfSweep in the files under a generated name (its name, a dash
and a suffix), so running the same file twice starts two runs. -f takes files, directories
(-R: and their subdirectories), URLs and - (stdin), as kubectl create does; -k a
kustomization; --from=perfschedule/NAME a run of the schedule's template (kept out of the
schedule's own history); --preset NAME one of Dapr's published settings (kubectl daprbench
presets), whose report shows Dapr's published figures beside the run's.

With --wait it follows the one object with a watch until it finishes and exits:
` + verdict.ExitCodeHelp(),
		Example: `  kubectl daprbench run -f https://raw.githubusercontent.com/daprbench/daprbench/main/config/samples/perf_v1alpha1_perfrun_smoke.yaml --wait
  kubectl daprbench run --from=perfschedule/nightly --wait --junit junit.xml
  kubectl daprbench run -f perfrun.yaml -o name
  kubectl daprbench run --preset published-v1.0 --wait`,
		Args: cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) error {
			if !wait && (ci.junit != "" || ci.summary != "" || ci.timeout != 0 || ci.strict) {
				return fmt.Errorf("--junit, --summary, --strict and --timeout need --wait")
			}
			return in.validate()
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			var objs []client.Object
			if in.from == "" {
				var err error
				if objs, err = o.readObjects(in); err != nil {
					return err
				}
				if wait && len(objs) > 1 {
					return fmt.Errorf("--wait follows one object; the input holds %d (start them without --wait, then watch each)", len(objs))
				}
			}
			c, ns, err := o.connect()
			if err != nil {
				return err
			}
			// Not cancelled by a signal: a create in flight may have reached the server,
			// and its run must then be followed (and cancelled) rather than left behind.
			ctx, cancel := withTimeout(context.WithoutCancel(cmd.Context()))
			defer cancel()
			if in.from != "" {
				run, err := runFromSchedule(ctx, c, ns, in.from)
				if err != nil {
					return err
				}
				objs = []client.Object{run}
			}
			for _, obj := range objs {
				if err := placeIn(obj, ns, o.namespaceFlag() != ""); err != nil {
					return err
				}
				if err := c.Create(ctx, obj); err != nil {
					return fmt.Errorf("creating %s: %w", report.KindOf(obj), err)
				}
				if !wait && !o.output.table() {
					if err := o.printObject(obj); err != nil {
						return err
					}
					continue
				}
				fprintf(o.messages(), "%s/%s created\n", strings.ToLower(report.KindOf(obj)), obj.GetName())
			}
			if !wait {
				return nil
			}
			return o.waitAndJudge(cmd.Context(), c, objs[0], ci)
		},
	}
	in.bind(cmd)
	cmd.Flags().BoolVar(&wait, "wait", false, "follow the run until it finishes and exit with its verdict")
	ci.bind(cmd)
	return cmd
}

// messages is where progress and verdict lines go: stdout, unless -o prints an object
// there for a script to read.
func (o *options) messages() io.Writer {
	if o.output.table() {
		return o.streams.Out
	}
	return o.streams.ErrOut
}

// placeIn names the object afresh (generateName from its name) and puts it in ns: the
// file's namespace unless -n names another, which is refused as kubectl refuses it.
func placeIn(obj client.Object, ns string, nsFlagSet bool) error {
	switch own := obj.GetNamespace(); {
	case own == "":
		obj.SetNamespace(ns)
	case nsFlagSet && own != ns:
		return fmt.Errorf("the file's namespace %q does not match -n %q", own, ns)
	}
	if obj.GetGenerateName() == "" {
		base := obj.GetName()
		if base == "" {
			base = strings.ToLower(report.KindOf(obj))
		}
		obj.SetGenerateName(base + "-")
	}
	obj.SetName("")
	obj.SetResourceVersion("")
	return nil
}

// loaded is obj as the plugin's readers show it: a run with its result document, a sweep
// with its points' documents (see sweep.Load); a run's document that cannot be read is an
// error.
func loaded(ctx context.Context, c client.Reader, obj client.Object) (client.Object, error) {
	switch o := obj.(type) {
	case *perfv1alpha1.PerfRun:
		return document.Load(ctx, c, o)
	case *perfv1alpha1.PerfSweep:
		return sweep.Load(ctx, c, o), nil
	}
	return obj, nil
}

// waitAndJudge follows obj until it finishes, writes the reports asked for, prints the
// finished object when -o asks for it, and returns the exit code's error (nil: passed).
func (o *options) waitAndJudge(parent context.Context, c client.WithWatch, obj client.Object, ci ciFlags) error {
	key := client.ObjectKeyFromObject(obj)
	timeout := ci.timeout
	if timeout == 0 {
		timeout = defaultWait(obj)
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	progress := newProgressWriter(o.messages())
	stopTicking := progress.tick(ctx)
	finished, outcome, err := followToEnd(ctx, c, obj, ci.strict, progress.show)
	stopTicking()
	if err != nil && !o.output.table() {
		// A script reads the object's name from -o name whatever the wait's end: the run
		// goes on (timeout) or was cancelled, and is there to report on.
		if perr := o.printObject(obj); perr != nil {
			return perr
		}
	}
	switch {
	case err != nil && parent.Err() != nil && ci.cancelOnInterrupt:
		return o.cancelInterrupted(c, obj)
	case err != nil && parent.Err() != nil:
		return verdict.Exit(verdict.ExitStillRunning, fmt.Sprintf("interrupted; %s %s goes on in the cluster", report.KindOf(obj), key))
	case err != nil:
		return waitError(report.KindOf(obj), key, timeout, err)
	}
	shown, err := loaded(ctx, c, finished)
	if err != nil {
		return err
	}
	if err := writeReports(shown, outcome, ci); err != nil {
		return err
	}
	fprintf(o.messages(), "%s/%s: %s (exit %d)\n", strings.ToLower(report.KindOf(obj)), key.Name, textfmt.TerminalCell(outcome.Reason), outcome.Code)
	if !o.output.table() {
		if err := o.printObject(finished); err != nil {
			return err
		}
	}
	if outcome.Code != verdict.ExitPassed {
		return verdict.Exit(outcome.Code, outcome.Reason)
	}
	return nil
}

// defaultWait bounds a wait by the object's own bounds: a run's timeout and queue wait, a
// sweep's runs one after another, and two minutes for collecting.
func defaultWait(obj client.Object) time.Duration {
	const slack = 2 * time.Minute
	switch o := obj.(type) {
	case *perfv1alpha1.PerfRun:
		return o.Spec.EffectiveTimeout() + o.Spec.EffectiveMaxQueueWait() + slack
	case *perfv1alpha1.PerfSweep:
		per := o.Spec.Template.Spec.EffectiveTimeout() + o.Spec.Template.Spec.EffectiveMaxQueueWait()
		return time.Duration(max(sweep.PlannedRuns(&o.Spec), 1))*per + slack
	}
	return slack
}

func sweepFinished(sw *perfv1alpha1.PerfSweep) bool {
	return sw.Status.Phase == perfv1alpha1.PhaseSucceeded || sw.Status.Phase == perfv1alpha1.PhaseFailed
}

// sweepProgress is one line about a sweep: its phase and how many points are done.
func sweepProgress(sw *perfv1alpha1.PerfSweep) string {
	done := 0
	for _, p := range sw.Status.Points {
		if p.Phase == perfv1alpha1.PhaseSucceeded || p.Phase == perfv1alpha1.PhaseFailed {
			done++
		}
	}
	return fmt.Sprintf("%s: %d of %d points measured", textfmt.OrDash(string(sw.Status.Phase)), done, len(sw.Status.Points))
}
