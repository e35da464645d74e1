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
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	perfv1alpha1 "github.com/daprbench/daprbench/api/v1alpha1"
	"github.com/daprbench/daprbench/internal/cli/report"
	"github.com/daprbench/daprbench/internal/cli/textfmt"
	"github.com/daprbench/daprbench/internal/cli/verdict"
)

// cancelGrace is how long an interrupted run --wait waits for the operator to confirm the
// cancellation before exiting anyway: CI systems kill a step a few seconds after SIGTERM.
const cancelGrace = 5 * time.Second

// Execute runs the plugin as its process does and returns the exit code: SIGINT and
// SIGTERM cancel the command's context (run --wait then cancels its run); a second signal
// ends the process at once.
func Execute(streams Streams, args []string) verdict.ExitCode {
	return execute(streams, args, nil)
}

func execute(streams Streams, args []string, newClient func() (client.WithWatch, error)) verdict.ExitCode {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	cmd := newCommand(streams, newClient)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err != nil {
		fprintf(streams.ErrOut, "Error: %s\n", textfmt.ForTerminal(err.Error())) // it may quote a condition message
	}
	return verdict.ExitCodeOf(err)
}

func newCancelCommand(o *options) *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "cancel (RUN | perfrun/RUN | perfsweep/SWEEP)",
		Short: "Stop a run or sweep that has not finished: it ends Failed, reason Cancelled, its load stopped and its place in the queue freed",
		Long: `Sets the perf.daprbench.io/cancel annotation; the operator then stops the run's load,
removes its workloads and frees its place in the queue. The object stays, Failed with reason
Cancelled, so its record is kept and a GitOps tool does not recreate it. A sweep cancels the
run measuring its point and makes no further point. run --wait does the same on SIGINT or
SIGTERM.`,
		ValidArgsFunction: o.completeRuns(true),
		Args:              cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := withTimeout(cmd.Context())
			defer cancel()
			c, obj, err := o.connectAndGet(ctx, args[0])
			if err != nil {
				return err
			}
			if finished(obj) {
				return fmt.Errorf("%s/%s has already finished (%s)", strings.ToLower(report.KindOf(obj)), obj.GetName(), phaseOf(obj))
			}
			if err := requestCancel(ctx, c, obj, reason); err != nil {
				return err
			}
			fprintf(o.streams.Out, "%s/%s cancelled\n", strings.ToLower(report.KindOf(obj)), obj.GetName())
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "kubectl daprbench cancel", "why, kept in the Cancelled condition's message")
	return cmd
}

// requestCancel sets the cancel annotation with a merge patch: nothing else of the object
// is written, so it cannot conflict with the operator's status writes.
func requestCancel(ctx context.Context, c client.Client, obj client.Object, why string) error {
	patch := client.MergeFrom(obj.DeepCopyObject().(client.Object))
	annotations := obj.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[perfv1alpha1.AnnotationCancel] = why
	obj.SetAnnotations(annotations)
	if err := c.Patch(ctx, obj, patch); err != nil {
		return fmt.Errorf("cancelling %s/%s: %w", strings.ToLower(report.KindOf(obj)), obj.GetName(), err)
	}
	return nil
}

// cancelInterrupted cancels the object run --wait followed when its process was told to
// stop, then waits up to cancelGrace for the operator to confirm, so the log shows it.
func (o *options) cancelInterrupted(c client.WithWatch, obj client.Object) error {
	ctx, cancel := context.WithTimeout(context.Background(), cancelGrace)
	defer cancel()
	key := client.ObjectKeyFromObject(obj)
	fprintf(o.messages(), "\ninterrupted: cancelling %s/%s\n", strings.ToLower(report.KindOf(obj)), key.Name)
	if err := requestCancel(ctx, c, obj, "kubectl daprbench run --wait was interrupted (SIGINT or SIGTERM)"); err != nil {
		return err
	}
	_, outcome, err := followToEnd(ctx, c, obj, false, func(func(time.Time) string) {})
	kind := strings.ToLower(report.KindOf(obj))
	switch {
	case err == nil && outcome.Code != verdict.ExitCancelled:
		// It finished before the operator read the request: its own verdict stands.
		return verdict.Exit(outcome.Code, fmt.Sprintf("%s/%s finished before the cancellation took effect: %s", kind, key.Name, outcome.Reason))
	case err == nil:
		return verdict.Exit(verdict.ExitCancelled, fmt.Sprintf("%s/%s cancelled", kind, key.Name))
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "timed out waiting"):
		return verdict.Exit(verdict.ExitCancelled, fmt.Sprintf("%s/%s cancelled (the operator had not confirmed within %v; it stops the run when it reads the request)", kind, key.Name, cancelGrace))
	}
	return verdict.Exit(verdict.ExitCancelled, fmt.Sprintf("%s/%s cancellation asked; following it failed: %v", kind, key.Name, err))
}

func finished(obj client.Object) bool {
	switch o := obj.(type) {
	case *perfv1alpha1.PerfRun:
		return o.Finished()
	case *perfv1alpha1.PerfSweep:
		return sweepFinished(o)
	}
	return false
}

func phaseOf(obj client.Object) string {
	switch o := obj.(type) {
	case *perfv1alpha1.PerfRun:
		return string(o.Status.Phase)
	case *perfv1alpha1.PerfSweep:
		return string(o.Status.Phase)
	}
	return ""
}
