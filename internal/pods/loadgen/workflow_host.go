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

package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	dapr "github.com/dapr/go-sdk/client"
	"github.com/dapr/go-sdk/workflow"
	"google.golang.org/grpc"

	"github.com/daprbench/daprbench/internal/pods/fineclock"
)

// workflowInput is every instance's input: how many activities, how long each takes, and
// the run's payload (as letters, so it is valid JSON), which every activity is given too.
type workflowInput struct {
	Activities int    `json:"n"`
	DelayUs    int64  `json:"d,omitempty"`
	Pad        string `json:"pad,omitempty"`
}

func workflowInputOf(ep endpoint, body []byte) []byte {
	b, _ := json.Marshal(workflowInput{Activities: ep.workflow.activities, DelayUs: ep.workflow.delay.Microseconds(), Pad: lettersOf(body)})
	return b
}

// activityInput is an activity's input: the instance's delay and payload, and when its
// workflow scheduled it on this process's clock (sinceProcessStart). A replay of the workflow
// makes the call again with a later time, which the engine drops: an activity is given the
// input of the call that scheduled it.
type activityInput struct {
	DelayUs     int64  `json:"d,omitempty"`
	Pad         string `json:"pad,omitempty"`
	ScheduledNs int64  `json:"s"`
}

func (in workflowInput) activity() activityInput {
	return activityInput{DelayUs: in.DelayUs, Pad: in.Pad, ScheduledNs: sinceProcessStart()}
}

// workflowOutput is an instance's output: each activity's dispatch latency, from its
// workflow scheduling it to the worker running it, in nanoseconds, in the order they were
// called. The workflows and their activities run in this process, so one clock times both
// ends.
type workflowOutput struct {
	DispatchNs []int64 `json:"dispatch"`
}

// processStart is the origin of sinceProcessStart: a monotonic clock shared by the
// workflows, their activities and nothing else.
var processStart = time.Now()

func sinceProcessStart() int64 { return int64(time.Since(processStart)) }

// DaprbenchChain calls its activities one after another. The SDK registers a workflow or an
// activity under its function's name: these names are the wire's.
func DaprbenchChain(ctx *workflow.WorkflowContext) (any, error) {
	var in workflowInput
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	var out workflowOutput
	for range in.Activities {
		var dispatch int64
		if err := ctx.CallActivity(DaprbenchActivity, workflow.ActivityInput(in.activity())).Await(&dispatch); err != nil {
			return nil, err
		}
		out.DispatchNs = append(out.DispatchNs, dispatch)
	}
	return out, nil
}

// DaprbenchFanOut calls its activities all at once and waits for every one.
func DaprbenchFanOut(ctx *workflow.WorkflowContext) (any, error) {
	var in workflowInput
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	calls := make([]interface{ Await(any) error }, in.Activities)
	for i := range calls {
		calls[i] = ctx.CallActivity(DaprbenchActivity, workflow.ActivityInput(in.activity()))
	}
	out := workflowOutput{DispatchNs: make([]int64, len(calls))}
	for i, c := range calls {
		if err := c.Await(&out.DispatchNs[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DaprbenchActivity returns its dispatch latency (its start minus its scheduling), then
// does no work or waits the run's stated delay (the known answer: a chain of N activities
// then takes at least N delays more).
func DaprbenchActivity(ctx workflow.ActivityContext) (any, error) {
	start := sinceProcessStart()
	var in activityInput
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	if in.DelayUs > 0 {
		fineclock.Sleep(time.Duration(in.DelayUs) * time.Microsecond)
	}
	return max(start-in.ScheduledNs, 0), nil
}

// completionWaiter waits for an instance to end: completed (nil, with its activities'
// dispatch latencies) or failed (a failure).
type completionWaiter interface {
	waitDone(ctx context.Context, id string) ([]time.Duration, error)
}

// errWorkflowFailed is an instance that ended, but not completed (failed, terminated).
var errWorkflowFailed = errors.New("workflow instance failed")

// workflowHost hosts a Workflow run's workflows (the SDK's worker on its daprd) and times
// every started instance's completion into book.
type workflowHost struct {
	book   *deliveryBook
	name   string // the pattern's workflow
	log    io.Writer
	waiter completionWaiter
	// bound caps each wait for a completion: the readiness wait, a repetition's length and
	// its drain (an instance not ended by then is unfinished at its phase's close).
	bound  time.Duration
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	stopFn func()
	// started counts the instances started, for their IDs.
	started atomic.Uint64
}

func newWorkflowHost(ep endpoint, book *deliveryBook, log io.Writer, bound time.Duration) *workflowHost {
	ctx, cancel := context.WithCancel(context.Background())
	return &workflowHost{book: book, name: workflowName(ep.method), log: log, bound: bound, ctx: ctx, cancel: cancel,
		stopFn: func() {}}
}

// await times instance id's end in the book as message m's delivery: the end arrives on
// this process's clock; a failure is counted apart too.
func (h *workflowHost) await(id string, m message) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		ctx, cancel := context.WithTimeout(h.ctx, h.bound)
		defer cancel()
		dispatches, err := h.waiter.waitDone(ctx, id)
		if err != nil && !errors.Is(err, errWorkflowFailed) {
			return // not ended within the bound (or the host stopped): unfinished at the phase's close
		}
		h.book.ended(m, h.book.arrival(), err != nil, dispatches)
	}()
}

// restartWorker ends the worker (its work-item stream) so that the next startWorker opens a
// new one; waits still open end with it.
func (h *workflowHost) restartWorker() {
	h.stopFn()
	h.stopFn, h.waiter = func() {}, nil
}

// stop ends the worker and every wait still open.
func (h *workflowHost) stop() {
	if h == nil {
		return
	}
	h.cancel()
	h.wg.Wait()
	h.stopFn()
	h.stopFn = func() {}
}

// startWorker registers the workflows with the SDK's worker on the daprd at addr and opens
// its work-item stream; it fails while daprd does not answer (the caller retries).
func (h *workflowHost) startWorker(addr string) error {
	conn, err := dialGRPC(addr)
	if err != nil {
		return err
	}
	worker, err := workflow.NewWorker(workflow.WorkerWithDaprClient(dapr.NewClientWithConnection(conn)))
	if err == nil {
		err = errors.Join(worker.RegisterWorkflow(DaprbenchChain), worker.RegisterWorkflow(DaprbenchFanOut),
			worker.RegisterActivity(DaprbenchActivity))
	}
	if err == nil {
		err = worker.Start()
	}
	if err != nil {
		_ = conn.Close()
		return err
	}
	client, err := workflow.NewClient(workflow.WithDaprClient(dapr.NewClientWithConnection(conn)))
	if err != nil {
		_ = worker.Shutdown()
		_ = conn.Close()
		return err
	}
	h.waiter = sdkWaiter{client}
	h.stopFn = func() {
		_ = worker.Shutdown()
		_ = conn.Close()
	}
	return nil
}

// sdkWaiter waits through the SDK's client (daprd's WaitForInstanceCompletion).
type sdkWaiter struct{ client *workflow.Client }

func (w sdkWaiter) waitDone(ctx context.Context, id string) ([]time.Duration, error) {
	md, err := w.client.WaitForWorkflowCompletion(ctx, id)
	switch {
	case err != nil:
		return nil, err
	case md.RuntimeStatus != workflow.StatusCompleted:
		return nil, fmt.Errorf("%w: %s", errWorkflowFailed, md.RuntimeStatus)
	}
	return dispatchesOf(md.SerializedOutput), nil
}

// dispatchesOf reads an instance's activity dispatch latencies from its output; none from
// an output that is not a workflowOutput.
func dispatchesOf(output string) []time.Duration {
	var out workflowOutput
	if json.Unmarshal([]byte(output), &out) != nil {
		return nil
	}
	ds := make([]time.Duration, len(out.DispatchNs))
	for i, ns := range out.DispatchNs {
		ds[i] = time.Duration(ns)
	}
	return ds
}

// sdkStarter starts instances through the SDK's client on a gRPC connection of its own.
type sdkStarter struct {
	conn   *grpc.ClientConn
	client *workflow.Client
}

func dialSDKStarter(addr string) (starter, error) {
	conn, err := dialGRPC(addr)
	if err != nil {
		return nil, fmt.Errorf("dialling %s: %w", addr, err)
	}
	client, err := workflow.NewClient(workflow.WithDaprClient(dapr.NewClientWithConnection(conn)))
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return &sdkStarter{conn: conn, client: client}, nil
}

func (s *sdkStarter) start(ctx context.Context, name, id string, input []byte) error {
	_, err := s.client.ScheduleNewWorkflow(ctx, name, workflow.WithInstanceID(id), workflow.WithRawInput(string(input)))
	return err
}

func (s *sdkStarter) close() { _ = s.conn.Close() }

// waitForWorkflows starts the worker and one probe instance until the probe completes, for
// at most bound: daprd up, its workflow actors placed, the state store and the scheduler
// answering. A probe not done in 10 s restarts the worker: on Dapr 1.16.0 the actor types a
// worker's stream registers were, in some runs, never disseminated by placement (daprd
// retrying DaprBuiltInActorNotFoundRetries until the bound), and registering them again
// is the one remedy the load tester has. The probe is its own phase, never counted in a
// measured one.
func waitForWorkflows(ctx context.Context, ep endpoint, host *workflowHost, bound time.Duration) (last string, err error) {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	s, err := dialStarter(ep)
	if err != nil {
		return err.Error(), err
	}
	defer s.close()
	input := workflowInputOf(endpoint{workflow: &workflowEndpoint{activities: 1}}, nil)
	attempts := 0
	return poll(ctx, func(ctx context.Context) error {
		if host.waiter == nil {
			if err := host.startWorker(ep.workflow.grpcAddr); err != nil {
				return fmt.Errorf("the workflow worker could not connect: %w", err)
			}
		}
		attempts++
		id := host.instanceID("probe")
		actx, acancel := context.WithTimeout(ctx, 10*time.Second)
		defer acancel()
		err := s.start(actx, host.name, id, input)
		if err == nil {
			if _, err = host.waiter.waitDone(actx, id); err != nil {
				err = fmt.Errorf("started, not completed: %w", err)
			}
		} else {
			err = fmt.Errorf("starting: %w", err)
		}
		if err != nil && actx.Err() != nil {
			logf(host.log, "workflow probe %d not done in 10s (%v): restarting the worker, so daprd registers its workflow actors again", attempts, err)
			host.restartWorker()
		}
		return err
	})
}
